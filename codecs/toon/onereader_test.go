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

// sameAsGeneric fails unless Decode, which reads the layout's tables
// row by row into the response, and the same pass with every table read
// as a generic value and converted agree on data (see
// testsupport.ReadsAsGeneric), an error each being positioned.
func sameAsGeneric(t testing.TB, c *toon.Codec, data []byte) {
	t.Helper()
	if de := testsupport.ReadsAsGeneric(t, data, c.Decode, c.DecodeGeneric); de != nil && de.Line < 1 {
		t.Fatalf("error %v is not positioned", de)
	}
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

// allTablesRead fails unless Decode reads every table of data with its
// table sinks, without a generic value.
func allTablesRead(t testing.TB, c *toon.Codec, data []byte) bool {
	t.Helper()
	offered, taken, err := c.TablesRead(data)
	if err != nil {
		t.Fatal(err)
	}
	return offered == taken
}

// TestTablesMatchGeneric: on the layout cases, the fixed responses and
// the graph files, Decode gives what the generic tables give; and it
// reads the node tables, edges and rows of Encode's text with its table
// sinks. Its traversals of up to 2,000 nodes are compared on one
// goroutine, which the race detector slows severalfold with nothing to
// watch (the sinks run under it in the package's other tests); .ci/run
// runs it without -race.
func TestTablesMatchGeneric(t *testing.T) {
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
		sameAsGeneric(t, c, data)
		if !allTablesRead(t, c, data) {
			t.Errorf("a table of testdata/graph/%s.toon was read as a generic value", name)
		}
	}
	for _, r := range []*wire.GraphResponse{testsupport.Traversal(50, 200), testsupport.ADRTraversal(20, 60), testsupport.LargeTraversal(2000)} {
		data, err := toon.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		sameAsGeneric(t, c, data)
		if !allTablesRead(t, c, data) {
			t.Errorf("a table of Encode's text of a traversal was read as a generic value:\n%.300s", data)
		}
	}
}

// TestTablesCorpus: every corpus case's text decodes to the generic
// tables' response, and Decode reads every table of at least nine cases
// in ten with its sinks. Under the race detector it takes the small and
// medium cases (testsupport.CorpusUnderRace); .ci/run runs it without,
// on all.
func TestTablesCorpus(t *testing.T) {
	cases, err := corpus.LoadCommitted()
	if err != nil {
		t.Fatal(err)
	}
	cases = testsupport.CorpusUnderRace(cases)
	c := toon.Default()
	all := 0
	for _, cs := range cases {
		data, err := toon.Encode(cs.Response)
		if err != nil {
			t.Fatal(err)
		}
		sameAsGeneric(t, c, data)
		if allTablesRead(t, c, data) {
			all++
		}
	}
	t.Logf("the table sinks read every table of %d of %d corpus cases", all, len(cases))
	if all < len(cases)*9/10 {
		t.Errorf("the table sinks read every table of %d of %d corpus cases, want at least 90%%", all, len(cases))
	}
}

// TestTablesVariants: text in other shapes than Encode's, or wrong, decodes
// as with the generic tables: the same response, or an error each.
func TestTablesVariants(t *testing.T) {
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

// FuzzDecodeFast: on any input, Decode and the generic tables agree: the
// same response, or an error each.
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
