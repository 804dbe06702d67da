// Package wiretest generates random GraphResponses and checks codecs with
// them: graphwire's own tests use it, and so can the tests of anyone's codec.
//
// Config.RunCodec is the conformance harness: the round-trip, determinism,
// concurrency, hostile-input and refusal checks, a failure shrunk by
// pgregory.net/rapid to the smallest response. LimitSuite, SniffSuite and
// Scaling are the suites each codec fills in with inputs of its own format.
package wiretest

import (
	"fmt"
	"math"
	"strings"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Options shapes generated responses. The zero value is a sensible default.
type Options struct {
	// MaxNodes bounds the node count (default 12), MaxEdges the edge count
	// (default MaxNodes), MaxRows the aggregation rows (default 8).
	MaxNodes, MaxEdges, MaxRows int
	// AwkwardNames lets type, key and column names be any non-empty UTF-8
	// text; without it they are identifiers ([A-Za-z_][A-Za-z0-9_]*).
	AwkwardNames bool
	NonFinite    bool             // floats may be NaN and ±Inf
	QueryTypes   []wire.QueryType // default: all five
	// Refuse, when set, makes every response break that rule once (see
	// Refusal); the limit shapes go past Limits (zero fields: defaults).
	Refuse Refusal
	Limits wire.Limits
}

func (o Options) withDefaults() Options {
	o.MaxNodes = positiveOr(o.MaxNodes, 12)
	o.MaxEdges = positiveOr(o.MaxEdges, o.MaxNodes)
	o.MaxRows = positiveOr(o.MaxRows, 8)
	if len(o.QueryTypes) == 0 {
		o.QueryTypes = wirecodec.QueryTypes()
	}
	return o
}

// Response returns a generator of responses with default Options.
func Response() *rapid.Generator[*wire.GraphResponse] { return ResponseWith(Options{}) }

// ResponseWith returns a generator of well-formed responses shaped by o:
// every query type, value kind and pagination schema, ids across the whole
// int64 range, awkward and long strings (valid UTF-8), no property named
// "type" or "id" or repeated in a node, rows that follow their columns.
func ResponseWith(o Options) *rapid.Generator[*wire.GraphResponse] {
	o = o.withDefaults()
	return rapid.Custom(func(t *rapid.T) *wire.GraphResponse {
		g := gen{t: t, o: o}
		r := g.response()
		if o.Refuse != "" {
			g.refuse(r)
		}
		return r
	})
}

// ValueGen returns a generator of values (every kind, lists nested up to
// depth levels).
func ValueGen(depth int, nonFinite bool) *rapid.Generator[wire.Value] {
	return rapid.Custom(func(t *rapid.T) wire.Value {
		g := gen{t: t, o: Options{NonFinite: nonFinite}}
		return g.value(depth)
	})
}

type gen struct {
	t *rapid.T
	o Options
}

var (
	identTypes = []string{"User", "Group", "Project", "MergeRequest", "Issue", "Pipeline", "Vulnerability", "MR", "Note", "A", "Type_2"}
	identRels  = []string{"AUTHORED", "IN_PROJECT", "MEMBER_OF", "CONTAINS", "ASSIGNED", "HAS_NOTE", "R"}
	identKeys  = []string{
		"iid", "username", "name", "full_path", "path", "uuid", "state", "status", "visibility_level",
		"created_at", "updated_at", "merged_at", "closed_at", "title", "description", "body", "note",
		"score", "draft", "severity", "labels", "weight", "sha", "x", "a_b", "key2", "email", "web_url",
	}
	awkwardNames = []string{
		"with space", `quo"te`, "back\\slash", "uni☃", "ключ", "😀", "a.b", "[2]", "-x", "123", "",
		"true", "null", "a:b", "a,b", "a|b", "tab\there", "new\nline", "#", "{}", "k=v",
	}
	awkwardStrings = []string{
		"", " ", "true", "false", "null", "42", "-7", "1e5", "3.14", "0x1F", "-", "- item", "[2]: x",
		"a,b", "a|b", "a\tb", "line one\nline two", "cr\rhere", `say "hi"`, `back\slash`,
		"2026-05-08 22:55:58", "2026-05-08 22:55:58.467450", "2026-05-08T22:55:58Z",
		"héllo wörld", "日本語", "emoji 😀👍🏽", "\x00nul", "\x01\x1f\x7f ctrl", "key=value",
		"@header", "User:42", "--REL-->", " leading", "trailing ", "#hash", "a: b", "{", "}",
		"<|endoftext|>", "\u2028\u2029", "\ufeffbom",
	}
	specialInts = []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 53, 1<<53 + 1, -(1 << 53) - 1, 1e15, 999999999999}
	specialFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, 0.1, 1e21, 1e20, 1e-6, 1e-7, 5e-324,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 941.131772070606, 1 << 53, 123456789.125, -2.5e-10, 1e300}
)

func (g gen) intn(n int, label string) int { return rapid.IntRange(0, n-1).Draw(g.t, label) }

func (g gen) chance(pct int, label string) bool { return rapid.IntRange(0, 99).Draw(g.t, label) < pct }

// name draws an awkward name now and then (AwkwardNames), else an ident.
func (g gen) name(label string, idents []string) string {
	if g.o.AwkwardNames && g.chance(20, label+"_awk") {
		return g.awkwardName(label)
	}
	return rapid.SampledFrom(idents).Draw(g.t, label)
}

func (g gen) typeName(label string) string { return g.name(label, identTypes) }

func (g gen) key(label string) string {
	if g.o.AwkwardNames && g.chance(25, label+"_awk") {
		k := g.awkwardName(label)
		if k == "type" || k == "id" || k == "" {
			k = "k_" + k
		}
		return k
	}
	return rapid.SampledFrom(identKeys).Draw(g.t, label)
}

func (g gen) awkwardName(label string) string {
	if g.chance(50, label+"_list") {
		s := rapid.SampledFrom(awkwardNames).Draw(g.t, label+"_s")
		if s == "" {
			s = "empty"
		}
		return s
	}
	return rapid.StringN(1, 12, -1).Draw(g.t, label+"_r")
}

func (g gen) id(label string) int64 {
	switch g.intn(4, label+"_k") {
	case 0:
		return rapid.SampledFrom(specialInts).Draw(g.t, label)
	case 1:
		return rapid.Int64().Draw(g.t, label)
	default:
		return rapid.Int64Range(1, 1_000_000_000).Draw(g.t, label)
	}
}

func (g gen) str(label string) string {
	switch g.intn(6, label+"_k") {
	case 0, 1:
		return rapid.SampledFrom(awkwardStrings).Draw(g.t, label)
	case 2:
		return rapid.String().Draw(g.t, label)
	case 3:
		// Long text, past GOON's 200 and 1000 code-point limits now and then.
		n := rapid.SampledFrom([]int{150, 199, 200, 201, 999, 1000, 1001, 1500}).Draw(g.t, label+"_n")
		unit := rapid.SampledFrom([]string{"a", "é", "日", "😀", "ab \"q\"\n"}).Draw(g.t, label+"_u")
		return string([]rune(strings.Repeat(unit, n))[:n])
	default:
		return rapid.StringMatching(`[A-Za-z0-9_./@+:-]{0,16}`).Draw(g.t, label)
	}
}

func (g gen) float(label string) float64 {
	if g.o.NonFinite && g.chance(10, label+"_nf") {
		return rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1)}).Draw(g.t, label)
	}
	if g.chance(50, label+"_sp") {
		f := rapid.SampledFrom(specialFloats).Draw(g.t, label)
		if g.chance(50, label+"_neg") {
			f = -f
		}
		return f
	}
	for {
		f := rapid.Float64().Draw(g.t, label)
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
	}
}

func (g gen) value(depth int) wire.Value {
	max := 6
	if depth <= 0 {
		max = 5
	}
	switch g.intn(max, "kind") {
	case 0:
		return wire.Null()
	case 1:
		return wire.Bool(rapid.Bool().Draw(g.t, "bool"))
	case 2:
		return wire.Int(g.id("int"))
	case 3:
		return wire.Float(g.float("float"))
	case 4:
		return wire.String(g.str("string"))
	default:
		n := g.intn(4, "list_len")
		vs := make([]wire.Value, n)
		for i := range vs {
			vs[i] = g.value(depth - 1)
		}
		return wire.ListOf(vs...)
	}
}

func (g gen) properties() []wire.Property {
	n := g.intn(7, "nprops")
	if n == 0 && g.chance(50, "nil_props") {
		return nil
	}
	props := make([]wire.Property, 0, n)
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		k := g.key("prop_key")
		if seen[k] {
			continue
		}
		seen[k] = true
		props = append(props, wire.Prop(k, g.value(1)))
	}
	return props
}

func (g gen) node(typ string) wire.Node {
	return wire.Node{Type: typ, ID: g.id("node_id"), Properties: g.properties()}
}

func (g gen) response() *wire.GraphResponse {
	o := g.o
	r := &wire.GraphResponse{
		FormatVersion: rapid.SampledFrom([]string{"1.2.0", "1.0.0", "2.0.0", ""}).Draw(g.t, "format_version"),
		QueryType:     rapid.SampledFrom(o.QueryTypes).Draw(g.t, "query_type"),
	}
	nTypes := 1 + g.intn(4, "ntypes")
	types := make([]string, nTypes)
	for i := range types {
		types[i] = g.typeName("type")
	}
	nNodes := g.intn(o.MaxNodes+1, "nnodes")
	if r.QueryType == wire.Aggregation && g.chance(60, "agg_no_nodes") {
		nNodes = 0
	}
	r.Nodes = make([]wire.Node, 0, nNodes)
	for i := 0; i < nNodes; i++ {
		if i > 0 && g.chance(8, "dup_node") {
			r.Nodes = append(r.Nodes, r.Nodes[g.intn(i, "dup_of")])
			continue
		}
		r.Nodes = append(r.Nodes, g.node(types[g.intn(nTypes, "node_type")]))
	}
	nEdges := g.intn(o.MaxEdges+1, "nedges")
	if r.QueryType == wire.Aggregation && g.chance(80, "agg_no_edges") {
		nEdges = 0
	}
	r.Edges = make([]wire.Edge, 0, nEdges)
	nPaths := 1 + g.intn(3, "npaths")
	for i := 0; i < nEdges; i++ {
		e := wire.Edge{Type: g.name("edge_type", identRels)}
		if len(r.Nodes) > 0 && g.chance(80, "edge_known") {
			a, b := r.Nodes[g.intn(len(r.Nodes), "from")], r.Nodes[g.intn(len(r.Nodes), "to")]
			e.From, e.FromID, e.To, e.ToID = a.Type, a.ID, b.Type, b.ID
		} else {
			e.From, e.FromID = g.typeName("from_type"), g.id("from_id")
			e.To, e.ToID = g.typeName("to_type"), g.id("to_id")
		}
		if r.QueryType == wire.PathFinding {
			e.PathID = wire.Some[int64](int64(g.intn(nPaths, "path_id")))
			e.Step = wire.Some[int64](int64(g.intn(4, "step")))
		} else if g.chance(10, "edge_path") {
			e.PathID = wire.Some[int64](g.id("path_id"))
			e.Step = wire.Some[int64](g.id("step"))
		}
		if g.chance(25, "edge_depth") {
			e.Depth = wire.Some[int64](int64(1 + g.intn(5, "depth")))
		}
		r.Edges = append(r.Edges, e)
	}
	if r.QueryType == wire.Aggregation || g.chance(5, "rows_elsewhere") {
		g.aggregation(r)
	}
	if g.chance(30, "pagination") {
		r.Pagination = g.pagination()
	}
	return r
}

// pagination draws a schema v2 or v5 pagination.
func (g gen) pagination() *wire.Pagination {
	p := &wire.Pagination{HasMore: rapid.Bool().Draw(g.t, "has_more")}
	if !g.chance(50, "pagination_v5") {
		p.TotalRows = wire.Some[int64](int64(g.intn(1_000_000, "total_rows")))
		return p
	}
	p.Truncated = wire.Some(rapid.Bool().Draw(g.t, "truncated"))
	if g.chance(60, "next_cursor_present") {
		p.NextCursor = wire.Some(g.cursor())
	}
	return p
}

// awkwardCursors are next_cursor tokens a text format must take care with.
var awkwardCursors = []string{
	"", "abc=", "with space", `say "hi"`, `back\slash`, "line one\nline two", "cr\rtab\t",
	"日本語 ☃ 😀", "\x00\x01\x1f\x7f", "bare\x01safe", "true", "null", "42", " lead", "trail ",
	"@header", "a: b", "#{}[],|=",
}

func (g gen) cursor() string {
	switch g.intn(3, "next_cursor_k") {
	case 0:
		return rapid.StringMatching(`[A-Za-z0-9_-]{1,48}`).Draw(g.t, "next_cursor") // base64url, as GKG's
	case 1:
		return rapid.SampledFrom(awkwardCursors).Draw(g.t, "next_cursor")
	}
	return g.str("next_cursor")
}

func (g gen) optString(label string, pct int) wire.Opt[string] {
	if g.chance(pct, label+"_present") {
		return wire.Some(g.colName(label))
	}
	return wire.Opt[string]{}
}

func (g gen) colName(label string) string { return g.name(label, colNames) }

var colNames = []string{"u", "v", "p", "severity", "count", "total", "merged_count", "state", "avg_score", "names", "c1", "latest"}

func (g gen) aggregation(r *wire.GraphResponse) {
	used := map[string]bool{}
	unique := func(label string) string {
		for i := 0; ; i++ {
			n := g.colName(label)
			if i > 0 {
				n = fmt.Sprintf("%s%d", n, i)
			}
			if !used[n] {
				used[n] = true
				return n
			}
		}
	}
	nGroups := g.intn(3, "ngroups")
	if nGroups > 0 || g.chance(50, "groups_present_empty") {
		r.GroupColumns = make([]wire.GroupColumn, nGroups)
	}
	for i := range r.GroupColumns {
		gc := wire.GroupColumn{Name: unique("group_name"), Node: g.colName("group_node")}
		if g.chance(50, "group_kind_node") {
			gc.Kind = wire.GroupByNode
			if g.chance(85, "entity_present") {
				gc.Entity = wire.Some(g.typeName("entity"))
			}
		} else {
			gc.Kind = wire.GroupByProperty
			gc.Property = g.optString("group_property", 80)
			if g.chance(10, "prop_entity") {
				gc.Entity = wire.Some(g.typeName("entity"))
			}
		}
		r.GroupColumns[i] = gc
	}
	nCols := g.intn(4, "ncols")
	if nCols > 0 || g.chance(50, "cols_present_empty") {
		r.Columns = make([]wire.Column, nCols)
	}
	for i := range r.Columns {
		r.Columns[i] = wire.Column{
			Name:     unique("col_name"),
			Function: rapid.SampledFrom([]string{"count", "sum", "avg", "min", "max", "collect"}).Draw(g.t, "function"),
			Target:   g.optString("target", 70),
			Property: g.optString("col_property", 40),
		}
	}
	nRows := g.intn(g.o.MaxRows+1, "nrows")
	r.Rows = make([]wire.Row, nRows)
	for i := range r.Rows {
		row := make(wire.Row, 0, len(r.GroupColumns)+len(r.Columns))
		for _, gc := range r.GroupColumns {
			c := wire.Cell{Name: gc.Name}
			if gc.Kind == wire.GroupByNode && g.chance(90, "cell_is_node") {
				typ := gc.Entity.V
				if !gc.Entity.Valid {
					typ = g.typeName("cell_type")
				}
				n := g.node(typ)
				if n.Properties == nil {
					n.Properties = []wire.Property{}
				}
				c.Node = &n
			} else {
				c.Value = g.value(0)
			}
			row = append(row, c)
		}
		for _, col := range r.Columns {
			row = append(row, wire.Cell{Name: col.Name, Value: g.value(1)})
		}
		r.Rows[i] = row
	}
}
