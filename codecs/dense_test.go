package codecs_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

var allCodecs = []string{"json", "goon", "toon", "msgpack", "cbor"}

// TestInMemorySizeOfTheCorpus: every corpus case (and GKG's reference
// inputs when GOON_REFERENCE_DIR is set), in every codec, decodes under
// the default Limits with its in-memory size and its materialised size
// at most half of MaterializedLimit of its encoding: a clear margin under
// the limit that refuses dense inputs. It logs the largest ratio of the
// in-memory size to the input per codec.
func TestInMemorySizeOfTheCorpus(t *testing.T) {
	if raceEnabled {
		t.Skip("the whole corpus in every codec on one goroutine; .ci/run runs it without -race")
	}
	cases, err := corpus.Load("../bench/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("GOON_REFERENCE_DIR"); dir != "" {
		ref, err := corpus.Reference(filepath.Clean(dir))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, ref...)
	}
	lim := wire.DefaultLimits()
	for _, codec := range allCodecs {
		var worst float64
		var worstCase string
		for _, c := range cases {
			data, err := wire.EncodeWith(codec, c.Response)
			if err != nil {
				t.Errorf("%s, %s: %v", c.ID(), codec, err)
				continue
			}
			r, err := wire.DecodeWith(codec, data)
			if err != nil {
				t.Errorf("%s, %s: %v", c.ID(), codec, err)
				continue
			}
			mem, size := wirecodec.InMemorySize(r), wirecodec.MaterializedSize(r)
			if len(data) > 1<<20 {
				t.Logf("%s, %s: %d bytes, %.2fx in memory, %.2fx as JSON", c.ID(), codec, len(data), float64(mem)/float64(len(data)), float64(size)/float64(len(data)))
			}
			if ratio := float64(mem) / float64(len(data)); ratio > worst {
				worst, worstCase = ratio, c.ID()
			}
			if limit := wirecodec.MaterializedLimit(lim, int64(len(data))); 2*max(mem, size) > limit {
				t.Errorf("%s, %s: %d bytes in, %d in memory, %d as JSON: within %d but not by a clear margin", c.ID(), codec, len(data), mem, size, limit)
			}
		}
		t.Logf("%s: %d cases; the largest in-memory size is %.2fx the input (%s)", codec, len(cases), worst, worstCase)
	}
}

// denseShapes are responses each of whose elements takes a few bytes in
// some encoding but a struct of 24 to 112 bytes in memory: issue 19's
// dense reproducers, built in memory.
func denseShapes() map[string]*wire.GraphResponse {
	const n = 1 << 20
	agg := func(cell func(i int) []wire.Cell) *wire.GraphResponse {
		r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation, Columns: []wire.Column{}, GroupColumns: []wire.GroupColumn{}, Rows: make([]wire.Row, n)}
		for i := range r.Rows {
			r.Rows[i] = cell(i)
		}
		return r
	}
	nodes := search()
	nodes.Nodes = make([]wire.Node, n)
	for i := range nodes.Nodes {
		nodes.Nodes[i] = wire.Node{Type: "T"}
	}
	ints := make([]wire.Value, n)
	for i := range ints {
		ints[i] = wire.Int(int64(i % 10))
	}
	props := make([]wire.Property, n)
	for i := range props {
		props[i] = wire.Prop(strconv.Itoa(i), wire.Int(0))
	}
	node := &wire.Node{Type: "T", ID: 1}
	nodeCells := agg(func(int) []wire.Cell { return []wire.Cell{{Name: "u", Node: node}} })
	nodeCells.GroupColumns = []wire.GroupColumn{{Name: "u", Kind: wire.GroupByNode, Node: "T"}}
	intCells := agg(func(int) []wire.Cell { return []wire.Cell{{Name: "a", Value: wire.Int(0)}} })
	intCells.Columns = []wire.Column{{Name: "a", Function: "count"}}
	wide := agg(func(int) []wire.Cell {
		row := make([]wire.Cell, 5)
		for j := range row {
			row[j] = wire.Cell{Name: string(rune('a' + j)), Value: wire.Int(1)}
		}
		return row
	})
	for j := range 5 {
		wide.Columns = append(wide.Columns, wire.Column{Name: string(rune('a' + j)), Function: "count"})
	}
	return map[string]*wire.GraphResponse{
		"2^20 nodes":                    nodes,
		"2^20 rows of a node cell":      nodeCells,
		"2^20 rows of one int":          intCells,
		"2^20 rows of five ints":        wide,
		"a list of 2^20 one-digit ints": search(wire.Node{Type: "T", ID: 1, Properties: []wire.Property{wire.Prop("l", wire.ListOf(ints...))}}),
		"2^20 properties":               search(wire.Node{Type: "T", ID: 1, Properties: props}),
	}
}

// measureDense decodes data with codec under the default Limits, logs
// its footprint, and holds it to wiretest.DecodeMemoryBound.
func measureDense(t *testing.T, codec, shape string, data []byte) error {
	t.Helper()
	skipHeapUnderRace(t)
	var r *wire.GraphResponse
	var err error
	fp := wiretest.Measure(func() { r, err = wire.DecodeWith(codec, data) })
	bound := wiretest.DecodeMemoryBound(len(data))
	var mem int64
	if r != nil {
		mem = wirecodec.InMemorySize(r)
	}
	t.Logf("%s, %s: %d bytes in: %v, %.1fx the input (bound %d KiB); in memory %d KiB (%.1fx); err %v",
		shape, codec, len(data), fp, float64(fp.PeakHeap)/float64(len(data)), bound>>10, mem>>10, float64(mem)/float64(len(data)), err)
	if fp.PeakHeap > bound {
		t.Errorf("%s, %s: peak heap %d bytes decoding %d bytes, more than 16x the input + 16 MiB (%d)", shape, codec, fp.PeakHeap, len(data), bound)
	}
	return err
}

// TestDecodeMemoryOfDenseInputs: each dense shape, in each codec, decodes
// within wiretest.DecodeMemoryBound whether it is accepted or refused (a
// refusal is a positioned *wire.DecodeError naming MaxExpansion), and an
// accepted one within the in-memory limit.
func TestDecodeMemoryOfDenseInputs(t *testing.T) {
	skipHeapUnderRace(t)
	for shape, r := range denseShapes() {
		for _, codec := range allCodecs {
			data, err := forceEncode(codec, r)
			if err != nil {
				t.Logf("%s, %s: not written: %v", shape, codec, err)
				continue
			}
			if testing.Short() && len(data) > 20<<20 {
				continue
			}
			err = measureDense(t, codec, shape, data)
			var de *wire.DecodeError
			switch {
			case err == nil:
			case errors.As(err, &de) && de.Limit == "MaxExpansion" && (de.Line > 0 || de.Offset > 0):
			default:
				t.Errorf("%s, %s: %v, want success or a positioned MaxExpansion *wire.DecodeError", shape, codec, err)
			}
		}
	}
}

// TestEncodeRefusesWhatItsDecoderWould: for each dense shape and codec,
// an encoder under the default Limits refuses (naming MaxExpansion)
// exactly when its own decoder refuses the encoding, and what it writes
// decodes.
//
// It encodes and decodes thirty inputs of 2^20 elements on one goroutine,
// which the race detector slows severalfold while it has nothing to watch;
// .ci/run runs it in its pass without the race detector.
func TestEncodeRefusesWhatItsDecoderWould(t *testing.T) {
	if raceEnabled {
		t.Skip("single-goroutine work on 2^20 elements; .ci/run runs it without -race")
	}
	refused := 0
	for shape, r := range denseShapes() {
		for _, codec := range allCodecs {
			data, ferr := forceEncode(codec, r)
			if ferr != nil || (testing.Short() && len(data) > 20<<20) {
				continue
			}
			out, err := wire.EncodeWith(codec, r)
			_, derr := wire.DecodeWith(codec, data)
			t.Logf("%s, %s: %d bytes; encode: %v; decode: %v", shape, codec, len(data), err, derr)
			var ee *wire.EncodeError
			switch {
			case err == nil && derr != nil:
				t.Errorf("%s, %s: encoded, but its decoder refuses it: %v", shape, codec, derr)
			case err == nil && !bytes.Equal(out, data):
				t.Errorf("%s, %s: the encoding differs from the one under large limits", shape, codec)
			case err != nil && (!errors.As(err, &ee) || ee.Limit != "MaxExpansion"):
				t.Errorf("%s, %s: %v, want success or a MaxExpansion *wire.EncodeError", shape, codec, err)
			case err != nil && derr == nil:
				t.Errorf("%s, %s: refused (%v), but its decoder accepts the encoding", shape, codec, err)
			case err != nil:
				refused++
			}
		}
	}
	if refused == 0 {
		t.Errorf("no dense shape refused by any encoder")
	}
}
