package corpus

import (
	"cmp"
	"slices"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// The Stdlib profile's cases: every query type in sizes S (at most 10
// nodes or rows), M (about 100) and L (about 1,000), each a question an
// agent asks about code, drawn from a code graph rather than a random
// stream:
//
//   - traversal: the set's packages in order, each with what it declares
//     (DECLARES) and each type with its methods (HAS_METHOD), cut at 10,
//     100 and 1,000 nodes;
//   - search: the declarations whose doc comment mentions "returns",
//     "error" and "the", most mentions first, at most 5, 100 and 1,000 of
//     them;
//   - neighbors: everything one hop from the node whose degree is nearest
//     8, 100 and 1,000 (IMPORTS, DECLARES, HAS_METHOD, CALLS, REFERENCES;
//     no node has 1,000 neighbours: the largest package's declarations and
//     imports, net/http's in the first set, are about 240);
//   - path_finding: import paths from the set's packages to unsafe, the
//     shortest first, 2, 50 and 500 of them;
//   - aggregation: declarations per kind (property-grouped), the 100 types
//     with the most methods (node-grouped, with a collect), and the 1,000
//     functions and methods that make the most calls the graph can resolve
//     without type checking (pkg.Name or an exported name of their own
//     package).
var stdlibSpecs = []struct {
	name string
	make func(g *codeGraph) *wire.GraphResponse
}{
	{"traversal_s", func(g *codeGraph) *wire.GraphResponse { return g.traversal(10) }},
	{"traversal_m", func(g *codeGraph) *wire.GraphResponse { return g.traversal(100) }},
	{"traversal_l", func(g *codeGraph) *wire.GraphResponse { return g.traversal(1_000) }},
	{"search_s", func(g *codeGraph) *wire.GraphResponse { return g.search("returns", 5) }},
	{"search_m", func(g *codeGraph) *wire.GraphResponse { return g.search("error", 100) }},
	{"search_l", func(g *codeGraph) *wire.GraphResponse { return g.search("the", 1_000) }},
	{"neighbors_s", func(g *codeGraph) *wire.GraphResponse { return g.neighbors(8) }},
	{"neighbors_m", func(g *codeGraph) *wire.GraphResponse { return g.neighbors(100) }},
	{"neighbors_l", func(g *codeGraph) *wire.GraphResponse { return g.neighbors(1_000) }},
	{"path_finding_s", func(g *codeGraph) *wire.GraphResponse { return g.importPaths("unsafe", 2) }},
	{"path_finding_m", func(g *codeGraph) *wire.GraphResponse { return g.importPaths("unsafe", 50) }},
	{"path_finding_l", func(g *codeGraph) *wire.GraphResponse { return g.importPaths("unsafe", 500) }},
	{"aggregation_s", func(g *codeGraph) *wire.GraphResponse { return g.perKind() }},
	{"aggregation_m", func(g *codeGraph) *wire.GraphResponse { return g.typeMethods(100) }},
	{"aggregation_l", func(g *codeGraph) *wire.GraphResponse { return g.callers(1_000) }},
}

// StdlibCaseNames are the names of the Stdlib profile's cases, in order.
func StdlibCaseNames() []string {
	out := make([]string, len(stdlibSpecs))
	for i, s := range stdlibSpecs {
		out[i] = s.name
	}
	return out
}

func (g *codeGraph) cases() ([]Case, error) {
	out := make([]Case, 0, len(stdlibSpecs))
	for _, s := range stdlibSpecs {
		out = append(out, Case{Profile: Stdlib, Name: s.name, Response: s.make(g)})
	}
	return out, nil
}

// node is a declaration as a wire node: every property (doc comment
// included), or, when brief, its identity and signature only.
func (d *decl) wire(brief bool) wire.Node {
	n := wire.Node{Type: d.node.typ, ID: d.node.id}
	for _, p := range d.node.props {
		if brief && (p.key == "doc" || p.key == "deprecated") {
			continue
		}
		n.Properties = append(n.Properties, wire.Property{Key: p.key, Value: propValue(p.val)})
	}
	return n
}

func propValue(v any) wire.Value {
	switch v := v.(type) {
	case string:
		return wire.String(v)
	case int:
		return wire.Int(int64(v))
	case bool:
		return wire.Bool(v)
	}
	return wire.Null()
}

func (g *codeGraph) packageNode(path string) wire.Node {
	p := g.pkgs[path]
	return wire.Node{Type: GoPackage, ID: nodeID(GoPackage, path), Properties: []wire.Property{
		{Key: "import_path", Value: wire.String(path)},
		{Key: "name", Value: wire.String(p.name)},
		{Key: "synopsis", Value: wire.String(p.synopsis)},
		{Key: "files", Value: wire.Int(int64(p.files))},
	}}
}

// owner is the edge into a declaration from what holds it: its package
// (DECLARES) or, for a method, its receiver's type (HAS_METHOD); ok is
// false for a method whose type is not exported.
func (g *codeGraph) owner(d *decl) (from wire.Node, rel string, ok bool) {
	if d.receiver == "" {
		return g.packageNode(d.pkg), Declares, true
	}
	t := g.byName[d.pkg+"."+d.receiver]
	if t == nil {
		return wire.Node{}, "", false
	}
	return t.wire(true), HasMethod, true
}

// edges returns every edge of the graph, in a fixed order: imports by
// package, then each declaration's owner edge, calls and references.
func (g *codeGraph) edges() []wire.Edge {
	var out []wire.Edge
	for _, path := range sortedKeys(g.pkgs) {
		from := g.packageNode(path)
		for _, imp := range g.pkgs[path].imports {
			if g.pkgs[imp] != nil {
				out = append(out, edge(from, Imports, g.packageNode(imp)))
			}
		}
	}
	for _, d := range g.declList {
		to := d.wire(true)
		if from, rel, ok := g.owner(d); ok {
			out = append(out, edge(from, rel, to))
		}
		for _, c := range d.calls {
			if callee := g.byName[c]; callee != nil && callee != d && callee.node.typ != GoType && callee.node.typ != GoValue {
				out = append(out, edge(to, Calls, callee.wire(true)))
			}
		}
		for _, r := range d.refs {
			if t := g.byName[r]; t != nil && t != d && t.node.typ == GoType {
				out = append(out, edge(to, References, t.wire(true)))
			}
		}
	}
	return out
}

// traversal walks the set's packages in order, each followed by what it
// declares, and stops at limit nodes.
func (g *codeGraph) traversal(limit int) *wire.GraphResponse {
	r := response(wire.Traversal)
	in := map[int64]bool{}
	total := 0
	for _, path := range g.set {
		total += 1 + len(g.pkgs[path].decls)
	}
	for _, path := range g.set {
		if len(r.Nodes) == limit {
			break
		}
		r.Nodes = append(r.Nodes, g.packageNode(path))
		in[nodeID(GoPackage, path)] = true
		for _, d := range g.pkgs[path].decls {
			if len(r.Nodes) == limit {
				break
			}
			from, rel, ok := g.owner(d)
			r.Nodes = append(r.Nodes, d.wire(false))
			in[d.node.id] = true
			if ok && in[from.ID] {
				r.Edges = append(r.Edges, edge(from, rel, d.wire(true)))
			}
		}
	}
	if len(r.Nodes) < total {
		r.Pagination = &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](int64(total))}
	}
	return r
}

// search returns the declarations whose doc comment mentions word (any
// case), most mentions first, at most limit.
func (g *codeGraph) search(word string, limit int) *wire.GraphResponse {
	r := response(wire.Search)
	type hit struct {
		d *decl
		n int
	}
	var hits []hit
	for _, d := range g.declList {
		if n := strings.Count(strings.ToLower(d.node.get("doc")), word); n > 0 {
			hits = append(hits, hit{d, n})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.n, a.n) })
	for _, h := range hits[:min(limit, len(hits))] {
		r.Nodes = append(r.Nodes, h.d.wire(false))
	}
	r.Pagination = &wire.Pagination{HasMore: len(hits) > limit, TotalRows: wire.Some[int64](int64(len(hits)))}
	return r
}

// neighbors returns the node whose degree is nearest want (the first such
// in edge order) and every edge incident to it, with the nodes at their
// other ends.
func (g *codeGraph) neighbors(want int) *wire.GraphResponse {
	type key struct {
		typ string
		id  int64
	}
	all := g.edges()
	degree := map[key]int{}
	var order []key
	for _, e := range all {
		for _, k := range []key{{e.From, e.FromID}, {e.To, e.ToID}} {
			if degree[k] == 0 {
				order = append(order, k)
			}
			degree[k]++
		}
	}
	best := order[0]
	for _, k := range order[1:] {
		if abs(degree[k]-want) < abs(degree[best]-want) {
			best = k
		}
	}
	r := response(wire.Neighbors)
	r.Nodes = append(r.Nodes, g.nodeByKey(best.typ, best.id))
	seen := map[key]bool{best: true}
	for _, e := range all {
		var other key
		switch {
		case e.From == best.typ && e.FromID == best.id:
			other = key{e.To, e.ToID}
		case e.To == best.typ && e.ToID == best.id:
			other = key{e.From, e.FromID}
		default:
			continue
		}
		r.Edges = append(r.Edges, e)
		if !seen[other] {
			seen[other] = true
			r.Nodes = append(r.Nodes, g.nodeByKey(other.typ, other.id))
		}
	}
	return r
}

func abs(x int) int { return max(x, -x) }

// nodeByKey returns a node of the graph, every property included.
func (g *codeGraph) nodeByKey(typ string, id int64) wire.Node {
	if typ == GoPackage {
		for _, path := range sortedKeys(g.pkgs) {
			if nodeID(GoPackage, path) == id {
				return g.packageNode(path)
			}
		}
	}
	for _, d := range g.declList {
		if d.node.id == id && d.node.typ == typ {
			return d.wire(false)
		}
	}
	return wire.Node{Type: typ, ID: id}
}

// importPaths returns import paths from the set's packages to target,
// shortest first, in sorted order, a fair share of limit from each
// package; the search stops at limit.
func (g *codeGraph) importPaths(target string, limit int) *wire.GraphResponse {
	r := response(wire.PathFinding)
	in := map[string]bool{}
	share := (limit + len(g.set) - 1) / len(g.set)
	paths := 0
	truncated := false
	for _, src := range g.set {
		found := 0
		for length := 1; length <= 4 && found < share && paths < limit; length++ {
			var walk func(path []string)
			walk = func(path []string) {
				last := path[len(path)-1]
				if len(path) == length+1 {
					if last != target || found == share || paths == limit {
						return
					}
					for i, p := range path {
						if !in[p] {
							in[p] = true
							r.Nodes = append(r.Nodes, g.packageNode(p))
						}
						if i > 0 {
							e := edge(g.packageNode(path[i-1]), Imports, g.packageNode(p))
							e.PathID = wire.Some[int64](int64(paths))
							e.Step = wire.Some[int64](int64(i - 1))
							r.Edges = append(r.Edges, e)
						}
					}
					found++
					paths++
					return
				}
				imports := slices.Sorted(slices.Values(g.pkgs[last].imports))
				for _, imp := range imports {
					if g.pkgs[imp] != nil && !slices.Contains(path, imp) {
						walk(append(path, imp))
					}
				}
			}
			walk([]string{src})
		}
		truncated = truncated || found == share
	}
	if truncated {
		r.Pagination = &wire.Pagination{HasMore: false, Truncated: wire.Some(true)}
	}
	return r
}

// kindOf is a declaration's kind: func, method, type, const or var.
func kindOf(d *decl) string {
	switch d.node.typ {
	case GoFunction:
		return "func"
	case GoMethod:
		return "method"
	case GoType:
		return "type"
	}
	return d.node.get("kind")
}

// perKind: the set's declarations per kind — a property-grouped
// aggregation with a count, an average (null where a kind has no
// parameters) and a minimum.
func (g *codeGraph) perKind() *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{{Name: "kind", Kind: wire.GroupByProperty, Node: "d", Property: wire.Some("kind")}}
	r.Columns = []wire.Column{
		{Name: "declarations", Function: "count", Target: wire.Some("d")},
		{Name: "avg_params", Function: "avg", Target: wire.Some("d"), Property: wire.Some("params")},
		{Name: "first_name", Function: "min", Target: wire.Some("d"), Property: wire.Some("name")},
	}
	kinds := []string{"func", "method", "type", "const", "var"}
	for _, k := range kinds {
		count, params := 0, 0
		first := ""
		for _, d := range g.declList {
			if kindOf(d) != k {
				continue
			}
			count++
			for _, p := range d.node.props {
				if p.key == "params" {
					params += p.val.(int)
				}
			}
			if name := d.node.get("name"); first == "" || name < first {
				first = name
			}
		}
		if count == 0 {
			continue
		}
		avg := wire.Null()
		if k == "func" || k == "method" {
			avg = wire.Float(float64(params) / float64(count))
		}
		r.Rows = append(r.Rows, wire.Row{{Name: "kind", Value: wire.String(k)}, {Name: "declarations", Value: wire.Int(int64(count))}, {Name: "avg_params", Value: avg}, {Name: "first_name", Value: wire.String(first)}})
	}
	return r
}

// typeMethods: the n types with the most methods — node-grouped, with
// counts and the methods' names collected.
func (g *codeGraph) typeMethods(n int) *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{{Name: "t", Kind: wire.GroupByNode, Node: "t", Entity: wire.Some(GoType)}}
	r.Columns = []wire.Column{
		{Name: "methods", Function: "count", Target: wire.Some("m")},
		{Name: "referenced_by", Function: "count", Target: wire.Some("d")},
		{Name: "method_names", Function: "collect", Target: wire.Some("m"), Property: wire.Some("name")},
	}
	refs := map[string]int{}
	for _, d := range g.declList {
		for _, ref := range d.refs {
			refs[ref]++
		}
	}
	type row struct {
		t     *decl
		names []wire.Value
	}
	var rows []row
	for _, d := range g.declList {
		if d.node.typ != GoType {
			continue
		}
		var names []wire.Value
		for _, m := range g.pkgs[d.pkg].decls {
			if m.receiver == d.node.get("name") {
				names = append(names, wire.String(m.node.get("name")))
			}
		}
		rows = append(rows, row{d, names})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(len(b.names), len(a.names)) })
	for _, x := range rows[:min(n, len(rows))] {
		t := x.t.wire(true)
		r.Rows = append(r.Rows, wire.Row{
			{Name: "t", Node: &t},
			{Name: "methods", Value: wire.Int(int64(len(x.names)))},
			{Name: "referenced_by", Value: wire.Int(int64(refs[x.t.pkg+"."+x.t.node.get("name")]))},
			{Name: "method_names", Value: wire.ListOf(x.names...)},
		})
	}
	r.Pagination = &wire.Pagination{HasMore: len(rows) > n, TotalRows: wire.Some[int64](int64(len(rows)))}
	return r
}

// callers: the n functions and methods that make the most calls the
// graph resolves — node-grouped, with counts and the packages called.
func (g *codeGraph) callers(n int) *wire.GraphResponse {
	r := response(wire.Aggregation)
	r.GroupColumns = []wire.GroupColumn{{Name: "f", Kind: wire.GroupByNode, Node: "f"}}
	r.Columns = []wire.Column{
		{Name: "calls", Function: "count", Target: wire.Some("g")},
		{Name: "params", Function: "max", Target: wire.Some("f"), Property: wire.Some("params")},
		{Name: "packages_called", Function: "collect", Target: wire.Some("g"), Property: wire.Some("package")},
	}
	type row struct {
		f    *decl
		pkgs []wire.Value
	}
	var rows []row
	for _, d := range g.declList {
		if d.node.typ != GoFunction && d.node.typ != GoMethod {
			continue
		}
		var pkgs []string
		for _, c := range d.calls {
			if p := c[:strings.LastIndex(c, ".")]; !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p)
			}
		}
		vals := make([]wire.Value, len(pkgs))
		for i, p := range pkgs {
			vals[i] = wire.String(p)
		}
		rows = append(rows, row{d, vals})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(len(b.f.calls), len(a.f.calls)) })
	for _, x := range rows[:min(n, len(rows))] {
		f := x.f.wire(true)
		params := 0
		for _, p := range x.f.node.props {
			if p.key == "params" {
				params = p.val.(int)
			}
		}
		r.Rows = append(r.Rows, wire.Row{
			{Name: "f", Node: &f},
			{Name: "calls", Value: wire.Int(int64(len(x.f.calls)))},
			{Name: "params", Value: wire.Int(int64(params))},
			{Name: "packages_called", Value: wire.ListOf(x.pkgs...)},
		})
	}
	r.Pagination = &wire.Pagination{HasMore: len(rows) > n, TotalRows: wire.Some[int64](int64(len(rows)))}
	return r
}
