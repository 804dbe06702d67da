package codecs_test

import (
	"bytes"
	"errors"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wirecodec"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// recorder is a writer that keeps what it is given and how.
type recorder struct {
	buf      bytes.Buffer
	writes   int
	maxWrite int
	keep     bool // keep the bytes (false: count them only)
	n        int64
}

func (w *recorder) Write(p []byte) (int, error) {
	w.writes++
	w.maxWrite = max(w.maxWrite, len(p))
	w.n += int64(len(p))
	if w.keep {
		w.buf.Write(p)
	}
	return len(p), nil
}

// streamAgrees fails unless EncodeTo(r) does what c.AppendEncode(r) does:
// the same bytes, or the same refusal (a *wire.EncodeError with the same
// Codec, Path and Limit, and the same text when no limit refused) having
// written nothing. It returns the
// writer EncodeTo wrote to, the Limit of the refusal ("" for none, or for a
// refusal that is no limit's), and whether r was refused.
func streamAgrees(t interface{ Fatalf(string, ...any) }, name string, c wire.Codec, r *wire.GraphResponse) (w *recorder, limit string, refused bool) {
	s, ok := c.(wirecodec.StreamEncoder)
	if !ok {
		t.Fatalf("%s does not implement wirecodec.StreamEncoder", name)
	}
	want, err := c.AppendEncode(nil, r)
	w = &recorder{keep: true}
	serr := s.EncodeTo(w, r)
	if err == nil {
		if serr != nil {
			t.Fatalf("%s: AppendEncode encodes, EncodeTo refuses: %v", name, serr)
		}
		if !bytes.Equal(w.buf.Bytes(), want) {
			t.Fatalf("%s: streamed bytes differ from AppendEncode's: %s", name, wiretest.ByteDiff(w.buf.Bytes(), want))
		}
		return w, "", false
	}
	if serr == nil {
		t.Fatalf("%s: AppendEncode refuses (%v), EncodeTo writes %d bytes", name, err, w.n)
	}
	if w.n != 0 {
		t.Fatalf("%s: EncodeTo wrote %d bytes before refusing: %v", name, w.n, serr)
	}
	var ee, see *wire.EncodeError
	if !errors.As(err, &ee) || !errors.As(serr, &see) {
		t.Fatalf("%s: refusals %T and %T, want *wire.EncodeError", name, err, serr)
	}
	// A limit's refusal may word the size it measured differently
	// (AppendEncode knows the length, EncodeTo only that it is past).
	if (ee.Limit == "" && ee.Error() != see.Error()) || ee.Limit != see.Limit || ee.Codec != see.Codec || ee.Path != see.Path {
		t.Fatalf("%s: EncodeTo refuses with %q (limit %q), AppendEncode with %q (limit %q)", name, serr, see.Limit, err, ee.Limit)
	}
	return w, ee.Limit, true
}

func streamers(t testing.TB) map[string]wirecodec.StreamEncoder {
	t.Helper()
	out := map[string]wirecodec.StreamEncoder{}
	for _, info := range wire.List() {
		c, err := wire.Lookup(info.Name)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := c.(wirecodec.StreamEncoder)
		if !ok {
			t.Fatalf("%s does not implement wirecodec.StreamEncoder", info.Name)
		}
		out[info.Name] = s
	}
	return out
}

func loadXL(t testing.TB) *wire.GraphResponse {
	t.Helper()
	data, err := os.ReadFile("../bench/corpus/text-heavy/traversal_xl.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := jsoncodec.DecodeWithin(data, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Streaming writes AppendEncode's bytes, in bounded writes.
func TestStreamEqualsAppendEncode(t *testing.T) {
	corpusCases, err := corpus.Load("../bench/corpus")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]*wire.GraphResponse{
		"empty":          {FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{}, Edges: []wire.Edge{}},
		"special floats": specialFloats(),
	}
	for _, c := range corpusCases {
		cases[c.Name] = c.Response
	}
	if cases["traversal_xl"] == nil {
		t.Fatal("the corpus has no traversal_xl")
	}
	for name := range streamers(t) {
		c, _ := wire.Lookup(name)
		for cname, r := range cases {
			w, _, refused := streamAgrees(t, name+" "+cname, c, r)
			if refused {
				continue // JSON and TOON cannot carry NaN and ±Inf
			}
			// One write may exceed the chunk by one node, edge or row
			// (special floats has a node of 80 KB).
			if w.maxWrite > 64<<10 && cname != "special floats" {
				t.Errorf("%s %s: a write of %d bytes", name, cname, w.maxWrite)
			}
			if cname == "traversal_xl" {
				t.Logf("%-7s traversal_xl: %8d bytes in %3d writes (largest %d)", name, w.n, w.writes, w.maxWrite)
			}
		}
	}
}

func specialFloats() *wire.GraphResponse {
	var props []wire.Property
	for i, f := range []float64{0, math.Copysign(0, -1), 1, 0.5, 0.1, 65504, 65505, 1e-7, 5.960464477539063e-08, 1e300, math.MaxFloat32, math.SmallestNonzeroFloat64, 3.4028235677973366e38, math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff8000000000001)} {
		props = append(props, wire.Prop("f"+string(rune('a'+i)), wire.Float(f)))
	}
	ints := []wire.Value{}
	for _, i := range []int64{0, 23, 24, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxInt64, -1, -24, -25, -256, -257, math.MinInt64} {
		ints = append(ints, wire.Int(i))
	}
	props = append(props, wire.Prop("ints", wire.ListOf(ints...)), wire.Prop("long", wire.String(string(bytes.Repeat([]byte("é"), 40000)))))
	return &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "N", ID: 1, Properties: props}}}
}

// An encoding error writes nothing, even when the bad value comes after
// more than a chunk of good ones.
func TestStreamErrorWritesNothing(t *testing.T) {
	r := testsupport.LargeTraversal(5000)
	last := &r.Nodes[len(r.Nodes)-1]
	last.Properties = append(last.Properties, wire.Prop("ratio", wire.Float(math.NaN())))
	r.QueryType = "bogus"
	for name, s := range streamers(t) {
		w := &recorder{}
		err := s.EncodeTo(w, r)
		if err == nil {
			t.Fatalf("%s: no error for an invalid query type", name)
		}
		if w.n != 0 {
			t.Fatalf("%s: %d bytes written before the error %v", name, w.n, err)
		}
	}
	r.QueryType = wire.Traversal
	for _, name := range []string{"json", "toon"} {
		w := &recorder{}
		err := streamers(t)[name].EncodeTo(w, r)
		if err == nil || w.n != 0 {
			t.Fatalf("%s: NaN in the last node: error %v, %d bytes written", name, err, w.n)
		}
	}
	var ee *wire.EncodeError
	if err := streamers(t)["json"].EncodeTo(&recorder{}, r); !errors.As(err, &ee) || ee.Path != "nodes[4999].properties.ratio" {
		t.Fatalf("json: error %v, want a *wire.EncodeError at nodes[4999].properties.ratio", err)
	}
}

// A failing writer's error comes back as it is.
func TestStreamWriterError(t *testing.T) {
	r := testsupport.LargeTraversal(5000)
	boom := errors.New("disk full")
	for name, s := range streamers(t) {
		if err := s.EncodeTo(failWriter{boom}, r); !errors.Is(err, boom) {
			t.Fatalf("%s: error %v, want the writer's", name, err)
		}
	}
}

type failWriter struct{ err error }

func (w failWriter) Write(p []byte) (int, error) { return 0, w.err }

// allocated returns the bytes allocated while f runs, from a state where
// the pools are empty (two collections clear a sync.Pool: one here, one in
// Measure).
func allocated(f func()) uint64 {
	runtime.GC()
	return testsupport.Measure(f).Alloc
}

// Streaming allocates far less than the output it writes: the heap does
// not grow with the output. The figures are logged (go test -v -run
// StreamHeap ./codecs/).
func TestStreamHeapGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100,000-node response")
	}
	if raceEnabled {
		// The race detector changes what allocates (sync.Pool drops
		// items at random) and takes minutes over the large response.
		t.Skip("allocation figures are for builds without the race detector")
	}
	cases := []struct {
		name string
		r    *wire.GraphResponse
	}{
		{"traversal_xl", loadXL(t)},
		{"generated_100k", testsupport.LargeTraversal(100_000)},
	}
	// The 100,000-node response takes more than the default 64 MiB as
	// JSON: a registry of codecs with room for it.
	big, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxInputBytes: 1 << 30, MaxMaterializedBytes: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		for name := range streamers(t) {
			c, _ := big.Lookup(name)
			s := c.(wirecodec.StreamEncoder)
			var out []byte
			appendAlloc := allocated(func() { out, _ = c.AppendEncode(nil, tc.r) })
			w := &recorder{}
			var err error
			streamAlloc := allocated(func() { err = s.EncodeTo(w, tc.r) })
			if err != nil {
				t.Fatal(err)
			}
			if w.n != int64(len(out)) {
				t.Fatalf("%s %s: streamed %d bytes, AppendEncode %d", name, tc.name, w.n, len(out))
			}
			t.Logf("%-14s %-7s output %9d B; allocated while streaming %9d B (%5.1f%% of output), AppendEncode %9d B",
				tc.name, name, len(out), streamAlloc, 100*float64(streamAlloc)/float64(len(out)), appendAlloc)
			if bound := streamBound(name, len(out)); streamAlloc > bound {
				t.Errorf("%s %s: streaming allocated %d bytes for %d bytes of output, over %d", name, tc.name, streamAlloc, len(out), bound)
			}
		}
	}
}

// streamBound is what streaming may allocate for n bytes of output: a
// tenth of it, whatever the size of the response.
//
// GOON sorts nodes and edges, so it holds a pointer (8 bytes) per node and
// per edge, beside lines of 30 to 100 bytes: a quarter of the output.
func streamBound(codec string, n int) uint64 {
	switch codec {
	case "goon":
		return uint64(n / 4)
	case "gcf":
		// gcf builds each table (its columns are the union of its rows'
		// keys, known only at the end) before it writes; its EncodeTo
		// bounds the writes, not the memory. The bound says so: about what
		// AppendEncode takes, not more.
		return uint64(16 * n)
	}
	return uint64(n / 10)
}

// On generated responses (every query type and value kind, special floats,
// ids across int64), every codec streams AppendEncode's bytes, or refuses
// both ways alike having written nothing.
func TestStreamEqualsAppendEncodeGenerated(t *testing.T) {
	names := slices.Sorted(maps.Keys(streamers(t)))
	rapid.Check(t, func(rt *rapid.T) {
		r := wiretest.Response().Draw(rt, "response")
		for _, name := range names {
			c, _ := wire.Lookup(name)
			streamAgrees(rt, name, c, r)
		}
	})
}
