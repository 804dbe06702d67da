package binary

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// TestSniff: each format's confidence on openings of the layout, of the
// other format, and of other bytes.
func TestSniff(t *testing.T) {
	long := strings.Repeat("1", 65)
	tests := []struct {
		name    string
		msgpack string
		cbor    string
		want    float64
	}{
		{"layout 2", "\x99\x02\xa51.2.0\xa9traversal", "\x89\x02\x651.2.0\x69traversal", 0.95},
		{"layout 1", "\x95\x01\xa51.2.0\xa6search", "\x85\x01\x651.2.0\x66search", 0.95},
		{"an empty format version", "\x95\x02\xa0\xa6search", "\x85\x02\x60\x66search", 0.95},
		{"a format version of 64 bytes", "\x95\x02\xd9\x40" + long[:64] + "\xa6search", "\x85\x02\x78\x40" + long[:64] + "\x66search", 0.95},
		{"a format version of 65 bytes", "\x95\x02\xd9\x41" + long + "\xa6search", "\x85\x02\x78\x41" + long + "\x66search", 0.3},
		{"an unknown query type", "\x95\x02\xa51.2.0\xa6searcx", "\x85\x02\x651.2.0\x66searcx", 0.3},
		{"the query type as a name index", "\x95\x02\xa51.2.0\x00", "\x85\x02\x651.2.0\x00", 0.3},
		{"cut off in the query type", "\x95\x02\xa51.2.0\xa6sea", "\x85\x02\x651.2.0\x66sea", 0.3},
		{"cut off in the format version", "\x95\x02\xa51.2", "\x85\x02\x651.2", 0.3},
		{"cut off after the layout version", "\x95\x02", "\x85\x02", 0},
		{"the array head alone", "\x95", "\x85", 0},
		{"a format version that is not printable", "\x95\x02\xa21\x01\xa6search", "\x85\x02\x621\x01\x66search", 0},
		{"layout 3, which Decode does not read", "\x95\x03\xa51.2.0\xa6search", "\x85\x03\x651.2.0\x66search", 0},
		{"layout 4", "\x95\x04\xa51.2.0\xa6search", "\x85\x04\x651.2.0\x66search", 0},
		{"layout 0", "\x95\x00\xa51.2.0\xa6search", "\x85\x00\x651.2.0\x66search", 0},
		{"layout 2 in a longer head than the encoder writes", "\x95\xcc\x02\xa51.2.0\xa6search", "\x85\x18\x02\x651.2.0\x66search", 0},
		{"an array of 4", "\x94\x02\xa51.2.0\xa6search", "\x84\x02\x651.2.0\x66search", 0},
		{"an array of 10", "\x9a\x02\xa51.2.0\xa6search", "\x8a\x02\x651.2.0\x66search", 0},
		{"JSON", `{"format_version":"1.2.0"}`, `{"format_version":"1.2.0"}`, 0},
		{"GOON", "@header\n", "@header\n", 0},
		{"empty", "", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, x := range []struct {
				f     Format
				input string
			}{{Msgpack, tc.msgpack}, {CBOR, tc.cbor}} {
				if got := Default(x.f).Sniff([]byte(x.input)); got != tc.want {
					t.Errorf("%s: Sniff(%q) = %v, want %v", x.f, x.input, got, tc.want)
				}
			}
			// Each format's opening is nothing to the other.
			if got := Default(CBOR).Sniff([]byte(tc.msgpack)); got != 0 {
				t.Errorf("cbor: Sniff(%q), msgpack bytes, = %v, want 0", tc.msgpack, got)
			}
			if got := Default(Msgpack).Sniff([]byte(tc.cbor)); got != 0 {
				t.Errorf("msgpack: Sniff(%q), cbor bytes, = %v, want 0", tc.cbor, got)
			}
		})
	}
}

// TestSniffReadsTheDecodersLayouts: Sniff recognises exactly the layout
// versions Decode reads, whatever the integer's size: a response under
// layout version v is read by Decode if and only if Sniff is sure of it.
func TestSniffReadsTheDecodersLayouts(t *testing.T) {
	versions := []int{1<<16 - 1, 1 << 16, 1<<32 - 1, 1 << 32, 1 << 40}
	for v := range 300 {
		versions = append(versions, v)
	}
	unsupported := func(err error) bool {
		var de *wire.DecodeError
		return err == nil || errors.As(err, &de) && strings.Contains(de.Msg, "unsupported layout version")
	}
	for _, f := range formats {
		c := Default(f)
		var read []int
		for _, v := range versions {
			plain := layoutBytes(t, f, v, []any{true, 4312}) // a pagination both layouts hold
			_, errPlain := c.Decode(plain)
			if !unsupported(errPlain) {
				t.Fatalf("%s, layout %d: %v, want nil or a refused layout version", f, v, errPlain)
			}
			decodes := errPlain == nil
			if sure := c.Sniff(plain) >= 0.9; decodes != sure {
				t.Errorf("%s, layout %d: Decode error %v, Sniff %v", f, v, errPlain, c.Sniff(plain))
			}
			if decodes {
				read = append(read, v)
			}
		}
		if diff := cmp.Diff([]int{1, 2}, read); diff != "" {
			t.Errorf("%s: layout versions read (-want +got):\n%s", f, diff)
		}
	}
}

// TestSniffOwnEncodings: every encoding each format writes is recognised
// as its own, and as nothing by the other format; a prefix never scores
// more than the whole.
func TestSniffOwnEncodings(t *testing.T) {
	n := 0
	for _, f := range formats {
		c, other := Default(f), Default(Msgpack+CBOR-f)
		for i, r := range wiretest.FixedResponses() {
			b, err := c.AppendEncode(nil, r)
			if err != nil {
				continue // a response the codec refuses
			}
			n++
			b = b[:min(len(b), wirecodec.SniffLen)]
			whole := c.Sniff(b)
			if whole < 0.9 {
				t.Errorf("%s of response %d: Sniff = %v, want at least 0.9", f, i, whole)
			}
			if got := other.Sniff(b); got != 0 {
				t.Errorf("%s of response %d: %s's Sniff = %v, want 0", f, i, other.format, got)
			}
			for k := range len(b) {
				if got := c.Sniff(b[:k]); got > whole {
					t.Errorf("%s of response %d cut after %d bytes: Sniff = %v, more than the whole's %v", f, i, k, got, whole)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no response encoded")
	}
	for f, b := range map[Format][]byte{Msgpack: layout1Msgpack, CBOR: layout1CBOR} {
		if got := Default(f).Sniff(b); got < 0.9 {
			t.Errorf("%s: stored layout 1 bytes: Sniff = %v, want at least 0.9", f, got)
		}
	}
}

// TestSniffRandomBytes: random bytes, even after a valid array head, never
// look like the layout.
func TestSniffRandomBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range formats {
		c := Default(f)
		for i := range 10000 {
			b := make([]byte, 1+rng.IntN(wirecodec.SniffLen))
			for j := range b {
				b[j] = byte(rng.Uint32())
			}
			if i%2 == 1 { // an array head of the response's length
				b[0] = map[Format]byte{Msgpack: 0x95, CBOR: 0x85}[f] + byte(rng.IntN(5))
			}
			if got := c.Sniff(b); got >= 0.5 {
				t.Fatalf("%s: input %d (% x ...): Sniff = %v", f, i, b[:min(len(b), 8)], got)
			}
		}
	}
}
