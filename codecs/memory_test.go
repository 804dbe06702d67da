package codecs_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// generatedNodes is a search response of n generated nodes of a few
// types, with string, number, bool and list properties.
func generatedNodes(n int) *wire.GraphResponse {
	types := []string{"User", "Project", "Issue", "MergeRequest"}
	nodes := make([]wire.Node, n)
	for i := range nodes {
		nodes[i] = wire.Node{Type: types[i%len(types)], ID: int64(i + 1), Properties: []wire.Property{
			wire.Prop("name", wire.String(fmt.Sprintf("node %d of the generated response", i))),
			wire.Prop("score", wire.Float(float64(i)/7)),
			wire.Prop("open", wire.Bool(i%3 == 0)),
			wire.Prop("labels", wire.ListOf(wire.String("backend"), wire.Int(int64(i%10)))),
		}}
	}
	return search(nodes...)
}

// measureDecode decodes data with codec name under the default Limits and
// reports its footprint, holding it to wiretest.DecodeMemoryBound.
func measureDecode(t *testing.T, reg *wire.Registry, name, what string, data []byte) error {
	t.Helper()
	skipHeapUnderRace(t)
	var err error
	fp := wiretest.Measure(func() { _, err = reg.DecodeWith(name, data) })
	bound := wiretest.DecodeMemoryBound(len(data))
	t.Logf("%s, %s: %d bytes in: %v (bound %d KiB, %.1fx the input); err %v", what, name, len(data), fp, bound>>10, float64(fp.PeakHeap)/float64(max(len(data), 1)), err)
	if fp.PeakHeap > bound {
		t.Errorf("%s, %s: peak heap %d bytes decoding %d bytes, more than 16x the input + 16 MiB (%d)", what, name, fp.PeakHeap, len(data), bound)
	}
	return err
}

// TestDecodeMemoryOfALargeJSONBody: a valid JSON body of about 60 MB
// (generated nodes) decodes within 16x its size + 16 MiB of heap.
func TestDecodeMemoryOfALargeJSONBody(t *testing.T) {
	skipHeapUnderRace(t)
	if testing.Short() {
		t.Skip("decodes 60 MB")
	}
	data, err := wire.EncodeWith("json", generatedNodes(430_000))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 55<<20 || int64(len(data)) > wire.DefaultLimits().MaxInputBytes {
		t.Fatalf("generated %d bytes, want about 60 MB within MaxInputBytes", len(data))
	}
	if err := measureDecode(t, wire.DefaultRegistry(), "json", "60 MB of generated nodes", data); err != nil {
		t.Fatal(err)
	}
}

// TestDecodeMemoryOfTheLargestCorpusCases: the largest corpus cases in
// each binary codec (and JSON) decode within the bound.
func TestDecodeMemoryOfTheLargestCorpusCases(t *testing.T) {
	skipHeapUnderRace(t)
	for _, file := range []string{"../bench/corpus/text-heavy/traversal_xl.json", "../bench/corpus/text-heavy/traversal_l.json", "../bench/corpus/text-heavy/search_l.json"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := wire.DecodeWith("json", src)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range allCodecs {
			data, err := wire.EncodeWith(name, r)
			if err != nil {
				t.Fatal(err)
			}
			if err := measureDecode(t, wire.DefaultRegistry(), name, file[strings.LastIndex(file, "/")+1:], data); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestDecodeMemoryOfNameTables: the round-two amplification inputs (a
// shared 4 KiB name, a lifted node) and a larger one (a 1 MiB name
// referred to 4,000 times, 4 GB as JSON) stay within the bound whether
// they are accepted or refused at MaxMaterializedBytes.
func TestDecodeMemoryOfNameTables(t *testing.T) {
	skipHeapUnderRace(t)
	small, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxMaterializedBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	cases := amplified()
	huge := search()
	name := "T" + strings.Repeat("b", 1<<20-1)
	huge.Nodes = make([]wire.Node, 4000)
	for i := range huge.Nodes {
		huge.Nodes[i] = wire.Node{Type: name, ID: int64(i + 1)}
	}
	cases["1 MiB name x 4000"] = huge
	for shape, r := range cases {
		for _, codec := range []string{"msgpack", "cbor"} {
			data, err := forceEncode(codec, r)
			if err != nil {
				t.Logf("%s, %s: not written: %v", shape, codec, err)
				continue
			}
			for _, reg := range []*wire.Registry{wire.DefaultRegistry(), small} {
				err := measureDecode(t, reg, codec, shape, data)
				if err != nil && !errors.Is(err, wire.ErrLimit) {
					t.Errorf("%s, %s: %v, want success or a limit", shape, codec, err)
				}
			}
		}
	}
}

// skipHeapUnderRace skips a test that measures the heap under the race
// detector, whose shadow memory makes heap figures meaningless. It is
// called before the test builds its inputs, which are large.
func skipHeapUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes heap figures meaningless")
	}
}

// forceEncode encodes r in codec under limits large enough for any test
// response, so that the decoder's limits are what is tested.
func forceEncode(codec string, r *wire.GraphResponse) ([]byte, error) {
	reg, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxMaterializedBytes: 1 << 40, MaxExpansion: math.MaxInt32}})
	if err != nil {
		return nil, err
	}
	return reg.EncodeWith(codec, r)
}

// TestDecodeMemoryOfDeclaredLengthBombs: arrays and strings that declare
// more than the input holds, alone and nested, cost no more than the bound
// before they are refused.
func TestDecodeMemoryOfDeclaredLengthBombs(t *testing.T) {
	skipHeapUnderRace(t)
	one := search(wire.Node{Type: "A", ID: 1, Properties: []wire.Property{wire.Prop("k", wire.ListOf(wire.Null()))}})
	for _, codec := range []string{"msgpack", "cbor"} {
		valid, err := wire.EncodeWith(codec, one)
		if err != nil {
			t.Fatal(err)
		}
		list, filler := []byte{0x91, 0xc0}, byte(0xc0) // fixarray(1) nil
		arr := []byte{0xdd, 0x00, 0x10, 0x00, 0x00}    // array32 of 2^20
		str := []byte{0xdb, 0xff, 0xff, 0xff, 0xff}    // str32 of 2^32-1
		if codec == "cbor" {
			list, filler = []byte{0x81, 0xf6}, 0xf6
			arr = []byte{0x9a, 0x00, 0x10, 0x00, 0x00}
			str = []byte{0x7b, 0x40, 0, 0, 0, 0, 0, 0, 0}
		}
		at := bytes.LastIndex(valid, list)
		if at < 0 {
			t.Fatalf("%s: list not found", codec)
		}
		bomb := func(head []byte, levels, fill int) []byte {
			b := append([]byte(nil), valid[:at]...)
			for range levels {
				b = append(b, head...)
			}
			return append(b, bytes.Repeat([]byte{filler}, fill)...)
		}
		for _, tt := range []struct {
			what string
			data []byte
		}{
			{"27 nested arrays of 2^20 over 1 MiB", bomb(arr, 27, 1<<20+8)},
			{"an array of 2^20 over 1 MiB of nulls", bomb(arr, 1, 1<<20)},
			{"an array of 2^20 over 60 MB of nulls", bomb(arr, 1, 60<<20)},
			{"a string of 2^32-1 over 1 MiB", bomb(str, 1, 1<<20)},
		} {
			if testing.Short() && len(tt.data) > 8<<20 {
				continue
			}
			if err := measureDecode(t, wire.DefaultRegistry(), codec, tt.what, tt.data); err == nil {
				t.Logf("%s, %s: accepted", tt.what, codec)
			}
		}
	}
}

// TestEncodePastMaxInputBytesStopsEarly: a response within every limit
// whose encoding would be far longer than MaxInputBytes (15 nodes sharing
// one 16 MB name, 240 MB of output) is refused before the encoding is
// built: JSON from its size, unwritten; msgpack and CBOR once the strings
// written pass the limit.
func TestEncodePastMaxInputBytesStopsEarly(t *testing.T) {
	skipHeapUnderRace(t)
	name := strings.Repeat("n", 16_000_000)
	r := search()
	for i := range 15 {
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: int64(i + 1), Properties: []wire.Property{wire.Prop("name", wire.String(name))}})
	}
	for _, codec := range []string{"json", "msgpack", "cbor"} {
		var err error
		fp := wiretest.Measure(func() { _, err = wire.EncodeWith(codec, r) })
		t.Logf("%s: a 240 MB encoding refused: %v; %v", codec, fp, err)
		if !errors.Is(err, wire.ErrLimit) || !strings.Contains(err.Error(), "limit of 67108864") {
			t.Errorf("%s: %v, want a MaxInputBytes *wire.EncodeError", codec, err)
		}
		if limit := uint64(3 * wire.DefaultLimits().MaxInputBytes); fp.TotalAlloc > limit { // a buffer grown to the limit
			t.Errorf("%s: allocated %d bytes refusing the encoding, want at most %d", codec, fp.TotalAlloc, limit)
		}
	}
}
