package codecs_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// edgeLimits are the small Limits of the at-the-limits matrix: small enough
// that a response at every limit at once is a few KB.
var edgeLimits = wire.Limits{MaxDepth: 4, MaxElements: 8, MaxStringBytes: 64, MaxMaterializedBytes: 4096}

func edgeRegistry(t *testing.T) *wire.Registry {
	t.Helper()
	reg, err := codecs.NewRegistry(codecs.Options{Limits: edgeLimits})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func nested(depth int) wire.Value {
	v := wire.Int(7)
	for range depth {
		v = wire.ListOf(wire.String("x"), v)
	}
	return v
}

func ints(n int) wire.Value {
	vs := make([]wire.Value, n)
	for i := range vs {
		vs[i] = wire.Int(int64(i))
	}
	return wire.ListOf(vs...)
}

func search(nodes ...wire.Node) *wire.GraphResponse {
	return &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: nodes}
}

func user(id int64, props ...wire.Property) wire.Node {
	return wire.Node{Type: "User", ID: id, Properties: props}
}

func propsN(n int) []wire.Property {
	ps := make([]wire.Property, n)
	for i := range ps {
		ps[i] = wire.Prop("p"+strconv.Itoa(i), wire.Int(int64(i)))
	}
	return ps
}

func nodesN(n int) []wire.Node {
	ns := make([]wire.Node, n)
	for i := range ns {
		ns[i] = user(int64(i + 1))
	}
	return ns
}

func edgesN(n int) []wire.Edge {
	es := make([]wire.Edge, n)
	for i := range es {
		es[i] = wire.Edge{From: "User", FromID: 1, To: "User", ToID: int64(i + 2), Type: "FOLLOWS"}
	}
	return es
}

// aggregation is a response with one collect column and rows of one cell
// each holding v.
func aggregation(rows int, v wire.Value) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Columns: []wire.Column{{Name: "c", Function: "collect", Target: wire.Some("u"), Property: wire.Some("name")}},
		Rows:    make([]wire.Row, rows)}
	for i := range r.Rows {
		r.Rows[i] = wire.Row{{Name: "c", Value: v}}
	}
	return r
}

// sizedTo returns a response within edgeLimits whose canonical JSON is
// exactly n bytes: eight nodes of eight string properties, shortened a byte
// at a time.
func sizedTo(t *testing.T, n int64) *wire.GraphResponse {
	t.Helper()
	var lens [8][8]int
	build := func() *wire.GraphResponse {
		r := search()
		for i := range lens {
			nd := user(int64(i + 1))
			for j, l := range lens[i] {
				nd.Properties = append(nd.Properties, wire.Prop("p"+strconv.Itoa(j), wire.String(strings.Repeat("x", l))))
			}
			r.Nodes = append(r.Nodes, nd)
		}
		return r
	}
	for i := range lens {
		for j := range lens[i] {
			lens[i][j] = 64
		}
	}
	size := wirecodec.MaterializedSize(build())
	for i := range lens {
		for j := range lens[i] {
			for size > n && lens[i][j] > 0 {
				lens[i][j]--
				size--
			}
		}
	}
	r := build()
	if got := wirecodec.MaterializedSize(r); got != n {
		t.Fatalf("sized response is %d bytes, want %d", got, n)
	}
	return r
}

// edgeCase is a response at one of edgeLimits and the same response one
// step past it.
type edgeCase struct {
	name     string
	at, past *wire.GraphResponse
	limit    string
}

func edgeCases(t *testing.T) []edgeCase {
	long := strings.Repeat("é", 32) // 64 bytes
	return []edgeCase{
		{"deepest list", search(user(1, wire.Prop("l", nested(4)))), search(user(1, wire.Prop("l", nested(5)))), "MaxDepth"},
		{"deepest list in a cell", aggregation(1, nested(4)), aggregation(1, nested(5)), "MaxDepth"},
		{"longest string", search(user(1, wire.Prop("s", wire.String(long)))), search(user(1, wire.Prop("s", wire.String(long+"x")))), "MaxStringBytes"},
		{"longest key", search(user(1, wire.Prop("k"+strings.Repeat("e", 63), wire.Int(1)))), search(user(1, wire.Prop("k"+strings.Repeat("e", 64), wire.Int(1)))), "MaxStringBytes"},
		{"longest type", search(wire.Node{Type: "T" + strings.Repeat("y", 63), ID: 1}), search(wire.Node{Type: "T" + strings.Repeat("y", 64), ID: 1}), "MaxStringBytes"},
		{"most nodes", search(nodesN(8)...), search(nodesN(9)...), "MaxElements"},
		{"most properties", search(user(1, propsN(8)...)), search(user(1, propsN(9)...)), "MaxElements"},
		{"longest list", search(user(1, wire.Prop("l", ints(8)))), search(user(1, wire.Prop("l", ints(9)))), "MaxElements"},
		{"most edges", &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: nodesN(8), Edges: edgesN(8)},
			&wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: nodesN(8), Edges: edgesN(9)}, "MaxElements"},
		{"most rows", aggregation(8, wire.Int(1)), aggregation(9, wire.Int(1)), "MaxElements"},
		{"largest materialised", sizedTo(t, 4096), sizedTo(t, 4097), "MaxMaterializedBytes"},
	}
}

// TestMatrixAtLimits: every ordered pair (A, B) of a registry built with
// small Limits carries responses at each limit through json → A → B → json
// (keeping what the matrix table says), and every encoder refuses the same
// responses one step past the limit with a *wire.EncodeError naming it.
func TestMatrixAtLimits(t *testing.T) {
	reg := edgeRegistry(t)
	js, err := reg.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, info := range reg.List() {
		names = append(names, info.Name)
	}
	for _, tc := range edgeCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			if err := wirecodec.Check(edgeLimits, "test", tc.at); err != nil {
				t.Fatalf("the response at the limit is past it: %v", err)
			}
			for _, a := range names {
				for _, b := range names {
					p := matrix[[2]string{a, b}]
					ca, _ := reg.Lookup(a)
					cb, _ := reg.Lookup(b)
					var fixed wire.Codec
					if p.keep.fixed != "" {
						fixed, _ = reg.Lookup(p.keep.fixed)
					}
					if err := trip(js, ca, cb, fixed, p.keep, tc.at); err != nil {
						t.Errorf("json → %s → %s → json: %v", a, b, err)
					}
				}
			}
			for _, name := range names {
				_, err := reg.EncodeWith(name, tc.past)
				var ee *wire.EncodeError
				if !errors.As(err, &ee) || ee.Limit != tc.limit || ee.Codec != name {
					t.Errorf("%s: encoding one step past %s: %v, want a *wire.EncodeError with Limit %s", name, tc.limit, err, tc.limit)
				}
			}
		})
	}
}
