package toon_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sameAsGeneric fails unless Decode and the generic path agree on data:
// the same response, in Go terms, or the same error. It reports whether
// the fast reader read data itself.
func sameAsGeneric(t testing.TB, c *toon.Codec, data []byte) bool {
	t.Helper()
	return testsupport.ReadsAsGeneric(t, data, c.Decode, c.DecodeGeneric, c.DecodeFast)
}

func fastSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	var seeds [][]byte
	rs := wiretest.FixedResponses()
	for _, tc := range layoutCases {
		rs = append(rs, tc.r)
	}
	rs = append(rs, testsupport.Traversal(5, 12), testsupport.ADRTraversal(4, 9))
	for _, r := range rs {
		b, err := toon.Encode(r)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	files, err := filepath.Glob("testdata/graph/*.toon")
	if err != nil {
		tb.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// TestFastReaderMatchesGeneric: on the layout cases, the fixed responses
// and the graph files, Decode (the fast reader first) gives what the
// generic path gives; and the fast reader itself reads Encode's text of
// node tables and edges. Its traversals of up to 2,000 nodes are
// compared three ways on one goroutine, which the race detector slows
// severalfold with nothing to watch (the fast reader runs under it in the
// package's other tests); .ci/run runs it without -race.
func TestFastReaderMatchesGeneric(t *testing.T) {
	if raceEnabled {
		t.Skip("large single-goroutine comparisons; .ci/run runs this without -race")
	}
	c := toon.Default()
	for _, data := range fastSeeds(t) {
		sameAsGeneric(t, c, data)
	}
	for _, name := range []string{"traversal", "interleaved", "path_finding", "edges_optional", "empty", "aggregation_orders"} {
		data, err := os.ReadFile(filepath.Join("testdata", "graph", name+".toon"))
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsGeneric(t, c, data) {
			t.Errorf("the fast reader gave up on testdata/graph/%s.toon", name)
		}
	}
	// Node groups in list form, with inline arrays.
	for _, r := range []*wire.GraphResponse{testsupport.Traversal(50, 200), testsupport.ADRTraversal(20, 60), testsupport.LargeTraversal(2000)} {
		data, err := toon.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsGeneric(t, c, data) {
			t.Errorf("the fast reader gave up on Encode's text of a traversal:\n%.300s", data)
		}
	}
}

// TestFastReaderCorpus: every corpus case's text decodes to the generic
// path's response, and the fast reader reads at least nine in ten of
// them itself (it reads them all today). Under the race detector it takes
// the small and medium cases (testsupport.CorpusUnderRace); .ci/run runs
// it without, on all.
func TestFastReaderCorpus(t *testing.T) {
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := corpus.Load(root + "/" + corpus.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cases = testsupport.CorpusUnderRace(cases)
	c := toon.Default()
	fast := 0
	for _, cs := range cases {
		data, err := toon.Encode(cs.Response)
		if err != nil {
			t.Fatal(err)
		}
		if sameAsGeneric(t, c, data) {
			fast++
		}
	}
	t.Logf("the fast reader read %d of %d corpus cases", fast, len(cases))
	if fast < len(cases)*9/10 {
		t.Errorf("the fast reader read %d of %d corpus cases, want at least 90%%", fast, len(cases))
	}
}

// TestFastReaderGivesUp: text the fast reader does not read itself, or
// that is wrong, still decodes as the generic path decodes it, errors
// and their positions included.
func TestFastReaderGivesUp(t *testing.T) {
	c := toon.Default()
	base := "format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[2]{id,name}:\n    1,ada\n    2,bob\nedges[1]{from,from_id,to,to_id,type}:\n  User,1,User,2,KNOWS\n"
	for _, data := range []string{
		base,
		base + "\n",
		base + "# comment\n",
		base[:len(base)-1] + ",extra\n",
		base + "pagination:\n  has_more: true\n",
		base + "pagination:\n  has_more: true\nnodes:\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[2]{id,name}:\n    1,ada\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[1]{id,name}:\n    x,ada\nedges: []\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[1]{id,id}:\n    1,1\nedges: []\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[1]{id,name}:\n    1,\"a\\nb\"\nedges: []\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[1]{id,name}:\n    1,\"a\\qb\"\nedges: []\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[1]{id,name}:\n    1,a:b\nedges: []\n",
		"format_version: 1.2.0\nquery_type: bogus\nedges: []\n",
		"format_version: 1\nquery_type: search\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]{id}:\n    1\n  B[1]{id}:\n    2\nnode_order[2]: 1,0\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]{id}:\n    1\nnode_order[1]: 5\n",
		"format_version: 1.2.0\nquery_type: traversal\nedges[1]{from,from_id,to,to_id,type,step}:\n  A,1,B,2,R,null\n",
		"format_version: 1.2.0\nquery_type: traversal\nedges[1]{from,from_id,to,to_id,type,step}:\n  A,1,B,2,R,1.5\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[2]:\n    - id: 1\n      t[2]: x,\"y z\"\n    - id: 2\n      n: 1.5\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]:\n    - id: 1\n      n: 1\n      n: 2\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]:\n    - id: 1\n      n: []\n",
		"format_version: []\nquery_type: traversal\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]{id,n}:\n    1,[]\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]:\n    - id: 1\n      type: x\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]:\n    - n: 1\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]:\n    - id: 1\n    - id: 2\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]:\n    - id: 1\n      o:\n        k: 1\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  A[1]:\n    - id: 1\n      t[2]: x\n",
	} {
		sameAsGeneric(t, c, []byte(data))
	}
	lim := wire.DefaultLimits()
	lim.MaxStringBytes = 3
	lim.MaxElements = 1
	small, err := toon.New(toon.Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{
		base,
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  User[1]{id,name}:\n    1,adam\nedges: []\n",
		"format_version: 1.2.0\nquery_type: traversal\nnodes:\n  U[1]{id,name}:\n    1,ada\nedges: []\n",
	} {
		sameAsGeneric(t, small, []byte(data))
	}
}

// FuzzDecodeFast: on any input, Decode (the fast reader first) and the
// generic path agree: the same response, or the same error.
func FuzzDecodeFast(f *testing.F) {
	for _, data := range fastSeeds(f) {
		f.Add(data)
	}
	lim := wire.DefaultLimits()
	lim.MaxInputBytes = 1 << 20
	lim.MaxElements = 10_000
	c, err := toon.New(toon.Options{Limits: lim})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsGeneric(t, c, data)
	})
}
