package binary

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

var update = flag.Bool("update", false, "rewrite the committed seed corpus under testdata/fuzz")

// FuzzDecode feeds every input to both decoders. An error must be a
// *wire.DecodeError inside the input that renders on one line; a success
// must re-encode, and that encoding must decode to the same response and
// re-encode to the same bytes (a fixed point).
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range formats {
			c := Default(fm)
			r, err := c.Decode(data)
			if err != nil {
				wantPositioned(t, fm, data, err)
				continue
			}
			b, err := c.AppendEncode(nil, r)
			if err != nil {
				t.Fatalf("%s: decoded response does not encode: %v", fm, err)
			}
			r2, err := c.Decode(b)
			if err != nil {
				t.Fatalf("%s: re-encoding does not decode: %v", fm, err)
			}
			if diff := wiretest.Diff(r, r2, wire.Exact); diff != "" {
				t.Fatalf("%s: re-encoding changed the response (-first +second):\n%s", fm, diff)
			}
			b2, _ := c.AppendEncode(nil, r2)
			if !bytes.Equal(b, b2) {
				t.Fatalf("%s: encoding is not a fixed point", fm)
			}
		}
	})
}

// wantPositioned fails t unless err, decoding data in format fm, is a
// *wire.DecodeError of the format positioned inside data, rendered on
// one line.
func wantPositioned(t *testing.T, fm Format, data []byte, err error) {
	t.Helper()
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Codec != fm.String() || de.Offset < 0 || de.Offset > int64(len(data)) {
		t.Fatalf("%s: bad error %T: %v", fm, err, err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, fm.String()+": offset ") {
		t.Fatalf("%s: badly formed error %q", fm, msg)
	}
}

// fuzzSeeds returns valid encodings of small generated responses in both
// formats and a few hostile inputs.
func fuzzSeeds() [][]byte {
	var seeds [][]byte
	gen := wiretest.ResponseWith(wiretest.Options{MaxNodes: 3, MaxEdges: 3, MaxRows: 2, AwkwardNames: true, NonFinite: true})
	for seed := 0; seed < 12; seed++ {
		r := gen.Example(seed)
		for _, f := range formats {
			b, err := Default(f).AppendEncode(nil, r)
			if err == nil {
				seeds = append(seeds, b)
			}
		}
	}
	// Schema v5 pagination, and layout 1 bytes.
	for _, r := range wiretest.FixedResponses() {
		if r.Pagination != nil && r.Pagination.NextCursor.Valid {
			for _, f := range formats {
				if b, err := Default(f).AppendEncode(nil, r); err == nil {
					seeds = append(seeds, b)
				}
			}
		}
	}
	seeds = append(seeds,
		layout1Msgpack, layout1CBOR,
		[]byte{0xdd, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0},
		[]byte{0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0},
		[]byte{0x85, 0x01, 0x7b, 0x40, 0, 0, 0, 0, 0, 0, 0},
		bytes.Repeat([]byte{0x91}, 64),
		bytes.Repeat([]byte{0x81}, 64),
	)
	return seeds
}

// TestFuzzCorpus keeps the committed seed corpus in step with fuzzSeeds:
// go test -run FuzzCorpus -update rewrites it.
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDecode")
	seeds := fuzzSeeds()
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%02d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, s := range seeds {
		got, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("seed-%02d", i)))
		if err != nil {
			t.Fatalf("seed corpus missing (go test -run FuzzCorpus -update): %v", err)
		}
		if want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s); string(got) != want {
			t.Fatalf("seed-%02d is stale (go test -run FuzzCorpus -update)", i)
		}
	}
}
