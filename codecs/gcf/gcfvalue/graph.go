package gcfvalue

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Graph is a graph-profile payload (spec §5, §6, §6a): code symbols with
// their distance from the query, and the edges between them.
type Graph struct {
	Tool        string
	TokenBudget int // the header's budget=
	TokensUsed  int // the header's tokens=
	PackRoot    string
	Symbols     []Symbol
	Edges       []Edge
}

// Symbol is one node of a Graph. Kind is the full form ("function"); the
// wire carries its abbreviation ("fn") when it has one.
type Symbol struct {
	QualifiedName string
	Kind          string
	Score         float64
	Provenance    string
	Distance      int
}

// Edge is one relationship of a Graph, between qualified names.
type Edge struct {
	Source, Target, EdgeType, Status string
}

// kinds maps a kind's full form to its abbreviation (spec §5).
var kinds = [][2]string{
	{"function", "fn"}, {"type", "type"}, {"method", "method"}, {"interface", "iface"}, {"var", "var"},
	{"const", "const"}, {"resource", "resource"}, {"table", "table"}, {"class", "class"},
	{"selector", "selector"}, {"field", "field"}, {"route_handler", "route"}, {"external", "ext"},
	{"file", "file"}, {"package", "pkg"}, {"service", "svc"},
}

func abbreviate(kind string) string {
	for _, k := range kinds {
		if k[0] == kind {
			return k[1]
		}
	}
	return kind
}

func expand(abbr string) string {
	for _, k := range kinds {
		if k[1] == abbr {
			return k[0]
		}
	}
	return abbr
}

// groupName is the section of a distance (spec §6a).
func groupName(distance int) string {
	switch distance {
	case 0:
		return "targets"
	case 1:
		return "related"
	case 2:
		return "extended"
	}
	return "distance_" + strconv.Itoa(distance)
}

// GraphOptions shape a graph-profile payload.
type GraphOptions struct {
	// Streaming writes the streaming form (spec §8): no counts in the
	// header, ## edges [?], and a ##! summary trailer.
	Streaming bool
	// LabeledCounts writes the trailer's counts labeled (§8.4.1).
	LabeledCounts bool
}

// graphOrder returns the symbols in emission order: by distance, then by
// score descending (input order among equal scores).
func graphOrder(syms []Symbol) []int {
	order := make([]int, len(syms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(syms[a].Distance, syms[b].Distance); c != 0 {
			return c
		}
		return cmp.Compare(syms[b].Score, syms[a].Score)
	})
	return order
}

func symbolKey(kind, qname string) string { return kind + "\x00" + qname }

// checkGraphText refuses a field the graph profile cannot carry: empty, or
// holding a blank or a character outside printable ASCII (spec §20).
func checkGraphText(what, s string) error {
	if s == "" || !isHeaderValue(s) {
		return encodeError("", KindUnsupported, what+" "+excerpt(s)+" is not printable non-blank ASCII")
	}
	return nil
}

// AppendGraph appends g as a graph-profile payload (spec §5-§6a, §8 when
// streaming): groups by distance, symbols by descending score, IDs from 0,
// edges by source then target ID (in their given order when streaming).
func AppendGraph(dst []byte, g *Graph, opts GraphOptions) ([]byte, error) {
	return appendGraph(dst, g, opts, nil)
}

// graphSession is what a GraphSession remembers: the IDs it has sent.
type graphSession struct {
	ids  map[string]int
	next int
}

func appendGraph(dst []byte, g *Graph, opts GraphOptions, s *graphSession) ([]byte, error) {
	order := graphOrder(g.Symbols)
	ids := make(map[string]int, len(g.Symbols))
	idOf := make([]int, len(g.Symbols))
	known := make([]bool, len(g.Symbols))
	next := 0
	if s != nil {
		next = s.next
	}
	for _, i := range order {
		sy := &g.Symbols[i]
		for _, f := range [][2]string{{"kind", sy.Kind}, {"qualified name", sy.QualifiedName}, {"provenance", sy.Provenance}} {
			if err := checkGraphText(f[0], f[1]); err != nil {
				return dst, err
			}
		}
		k := symbolKey(sy.Kind, sy.QualifiedName)
		if _, dup := ids[k]; dup {
			return dst, encodeError("", KindDuplicateKey, "symbol "+excerpt(sy.QualifiedName)+" appears twice")
		}
		if s != nil {
			if id, ok := s.ids[k]; ok {
				ids[k], idOf[i], known[i] = id, id, true
				continue
			}
		}
		ids[k], idOf[i] = next, next
		next++
	}
	byName := make(map[string]int, len(g.Symbols))
	for i, sy := range g.Symbols {
		if _, ok := byName[sy.QualifiedName]; !ok {
			byName[sy.QualifiedName] = idOf[i]
		}
	}
	type edgeLine struct {
		src, tgt int
		e        *Edge
	}
	edges := make([]edgeLine, 0, len(g.Edges))
	for i := range g.Edges {
		e := &g.Edges[i]
		src, ok1 := byName[e.Source]
		tgt, ok2 := byName[e.Target]
		if !ok1 || !ok2 {
			return dst, encodeError("", KindUnknownEdgeReference, "edge "+excerpt(e.Source+" -> "+e.Target)+" names a symbol the payload lacks")
		}
		if err := checkGraphText("edge type", e.EdgeType); err != nil {
			return dst, err
		}
		edges = append(edges, edgeLine{src, tgt, e})
	}
	if !opts.Streaming { // a stream writes edges as they come
		slices.SortStableFunc(edges, func(a, b edgeLine) int {
			return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.tgt, b.tgt))
		})
	}
	if g.Tool != "" {
		if err := checkGraphText("tool", g.Tool); err != nil {
			return dst, err
		}
	}
	b := append(dst, "GCF profile=graph"...)
	// num writes " name=n" when n is not 0.
	num := func(name string, n int) {
		if n != 0 {
			b = append(b, name...)
			b = strconv.AppendInt(b, int64(n), 10)
		}
	}
	if g.Tool != "" {
		b = append(b, " tool="...)
		b = append(b, g.Tool...)
	}
	num(" budget=", g.TokenBudget)
	if !opts.Streaming {
		num(" tokens=", g.TokensUsed)
		b = append(b, " symbols="...)
		b = strconv.AppendInt(b, int64(len(g.Symbols)), 10)
		num(" edges=", len(edges))
	}
	if s != nil {
		b = append(b, " session=true"...)
	}
	b = append(b, '\n')
	var groups []string
	var counts []int
	for n, i := range order {
		sy := &g.Symbols[i]
		if n == 0 || sy.Distance != g.Symbols[order[n-1]].Distance {
			groups = append(groups, groupName(sy.Distance))
			counts = append(counts, 0)
			b = append(b, "## "...)
			b = append(b, groups[len(groups)-1]...)
			b = append(b, '\n')
		}
		counts[len(counts)-1]++
		b = append(b, '@')
		b = strconv.AppendInt(b, int64(idOf[i]), 10)
		if known[i] {
			b = append(b, "  # previously transmitted\n"...)
			continue
		}
		b = append(b, ' ')
		b = appendNodeFields(b, sy)
		b = append(b, '\n')
	}
	if len(edges) > 0 {
		b = append(b, "## edges ["...)
		if opts.Streaming {
			b = append(b, '?')
		} else {
			b = strconv.AppendInt(b, int64(len(edges)), 10)
		}
		b = append(b, "]\n"...)
		for _, e := range edges {
			b = append(b, '@')
			b = strconv.AppendInt(b, int64(e.tgt), 10)
			b = append(b, "<@"...)
			b = strconv.AppendInt(b, int64(e.src), 10)
			b = append(b, ' ')
			b = append(b, e.e.EdgeType...)
			if e.e.Status != "" {
				b = append(b, ' ')
				b = append(b, e.e.Status...)
			}
			b = append(b, '\n')
		}
	}
	if opts.Streaming {
		b = append(b, "##! summary symbols="...)
		b = strconv.AppendInt(b, int64(len(g.Symbols)), 10)
		b = append(b, " edges="...)
		b = strconv.AppendInt(b, int64(len(edges)), 10)
		b = append(b, " counts="...)
		for i, c := range counts {
			if opts.LabeledCounts {
				b = append(b, groups[i]...)
				b = append(b, ':')
			}
			b = strconv.AppendInt(b, int64(c), 10)
			b = append(b, ',')
		}
		if opts.LabeledCounts {
			b = append(b, "edges:"...)
		}
		b = strconv.AppendInt(b, int64(len(edges)), 10)
		b = append(b, '\n')
	}
	if s != nil {
		for k, id := range ids {
			s.ids[k] = id
		}
		s.next = next
	}
	return b, nil
}

// appendNodeFields writes "kind qname score provenance" (spec §5); the
// score with two decimals, rounded half to even from the exact double.
func appendNodeFields(b []byte, sy *Symbol) []byte {
	b = append(b, abbreviate(sy.Kind)...)
	b = append(b, ' ')
	b = append(b, sy.QualifiedName...)
	b = append(b, ' ')
	b = strconv.AppendFloat(b, sy.Score, 'f', 2, 64)
	b = append(b, ' ')
	return append(b, sy.Provenance...)
}

// GraphSession writes graph-profile payloads with session=true (spec §9):
// a symbol keeps its ID across calls, and one sent before is written as a
// bare "@id  # previously transmitted" reference.
type GraphSession struct{ s graphSession }

// NewGraphSession starts a session.
func NewGraphSession() *GraphSession {
	return &GraphSession{s: graphSession{ids: make(map[string]int)}}
}

// Append appends the payload of g in the session.
func (gs *GraphSession) Append(dst []byte, g *Graph) ([]byte, error) {
	return appendGraph(dst, g, GraphOptions{}, &gs.s)
}

// DecodeGraph decodes a graph-profile payload (spec §16.3): node lines,
// edge lines, group headers, comments, a summary trailer. It refuses what
// spec §16.5 lists for the graph profile with the Kinds named there.
// Bare session references are refused: this decoder holds no session.
func DecodeGraph(data []byte, opts Options) (g *Graph, err error) {
	d, doc, err := beginGraph(data, opts)
	if err != nil {
		return nil, err
	}
	defer recoverFailure(&err)
	if doc.Profile != "graph" {
		failAt(1, 13, KindUnknownProfile, "not a graph-profile payload")
	}
	if v, _ := doc.Get("delta"); v == "true" {
		failAt(1, 1, KindMalformedDelta, "a delta payload: use DecodeGraphDelta")
	}
	g = &Graph{}
	g.Tool, _ = doc.Get("tool")
	g.PackRoot, _ = doc.Get("pack_root")
	if v, ok := doc.Get("budget"); ok {
		g.TokenBudget, _ = strconv.Atoi(v)
	}
	if v, ok := doc.Get("tokens"); ok {
		g.TokensUsed, _ = strconv.Atoi(v)
	}
	d.graphBody(g)
	return g, nil
}

// beginGraph starts reading a graph-profile payload: its header.
func beginGraph(data []byte, opts Options) (d *decoder, doc *Document, err error) {
	lim, err := opts.resolve()
	if err != nil {
		return nil, nil, err
	}
	d = &decoder{state: state{lim: lim}}
	defer recoverFailure(&err)
	return d, d.begin(data), nil
}

func (d *decoder) graphBody(g *Graph) {
	names := make(map[int]int) // id -> symbol index
	distance := -1
	inEdges := false
	declared, deferred := -1, false
	var edgeLine *line
	for {
		l := d.read()
		if l == nil {
			break
		}
		c := l.Text
		if l.Depth != 0 {
			d.failIn(l, 0, KindInvalidIndent, "graph lines are not indented")
		}
		if strings.HasPrefix(c, "##!") {
			continue // the summary trailer: informational (spec §8.4.1)
		}
		if name, ok := strings.CutPrefix(c, "## "); ok {
			inEdges = false
			switch n, err := strconv.Atoi(strings.TrimPrefix(name, "distance_")); {
			case name == "targets", name == "related", name == "extended":
				distance = slices.Index([]string{"targets", "related", "extended"}, name)
			case strings.HasPrefix(name, "distance_"):
				if err != nil || n < 0 {
					d.failIn(l, 3, KindSyntax, "a distance group is distance_N: "+excerpt(name))
				}
				distance = n
			case name == "edges" || strings.HasPrefix(name, "edges ["):
				inEdges = true
				cp := *l
				edgeLine = &cp
				if name != "edges" {
					inner := strings.TrimSuffix(strings.TrimPrefix(name, "edges ["), "]")
					if inner == "?" {
						deferred = true
					} else if n, ok := ParseCount(inner); ok && strings.HasSuffix(name, "]") {
						declared = n
					} else {
						d.failIn(l, 9, KindInvalidCount, "a count is 0, a decimal without leading zeros, or ?")
					}
				}
			default:
				d.failIn(l, 3, KindSyntax, "unknown graph section "+excerpt(name))
			}
			continue
		}
		if inEdges {
			d.edgeLine(l, g, names)
			continue
		}
		if distance < 0 {
			d.failIn(l, 0, KindSyntax, "a node line before any group header")
		}
		id, sy := d.nodeLine(l, 5)
		sy.Distance = distance
		if _, dup := names[id]; dup {
			d.failIn(l, 1, KindInvalidSymbolID, "symbol @"+strconv.Itoa(id)+" is declared twice")
		}
		if len(g.Symbols) >= d.lim.maxElements {
			d.failLimitIn(l, 0, "MaxElements", "more symbols than the limit of "+strconv.Itoa(d.lim.maxElements))
		}
		names[id] = len(g.Symbols)
		g.Symbols = append(g.Symbols, sy)
	}
	if declared >= 0 && !deferred && declared != len(g.Edges) {
		d.failIn(edgeLine, 3, KindCountMismatch, "the edges section declares "+strconv.Itoa(declared)+" edges and holds "+strconv.Itoa(len(g.Edges)))
	}
}

// nodeLine reads "@id kind qname score provenance" and, with want 6, a
// trailing distance.
func (d *decoder) nodeLine(l *line, want int) (int, Symbol) {
	c := l.Text
	f := strings.Split(c, " ")
	if len(f) == 3 && f[1] == "" && f[2] == "#" || strings.HasSuffix(c, "# previously transmitted") {
		d.failIn(l, 0, KindSyntax, "a session reference; this decoder holds no session")
	}
	if len(f) != want {
		d.failIn(l, 0, KindInvalidNodeLine, "a node line has "+strconv.Itoa(want)+" space-separated fields, not "+strconv.Itoa(len(f)))
	}
	for _, x := range f {
		d.checkString(l, 0, len(x))
	}
	id, ok := parseID(f[0])
	if !ok {
		d.failIn(l, 0, KindInvalidSymbolID, "a symbol id is @ and a decimal integer: "+excerpt(f[0]))
	}
	if !isScore(f[3]) {
		d.failIn(l, len(f[0])+len(f[1])+len(f[2])+3, KindInvalidScore, "a score is [-]digits.dd: "+excerpt(f[3]))
	}
	score, _ := strconv.ParseFloat(f[3], 64)
	sy := Symbol{Kind: expand(f[1]), QualifiedName: f[2], Score: score, Provenance: f[4]}
	if want == 6 {
		n, err := strconv.Atoi(f[5])
		if err != nil || n < 0 {
			d.failIn(l, 0, KindMalformedDelta, "an added line ends with its distance: "+excerpt(f[5]))
		}
		sy.Distance = n
	}
	return id, sy
}

func parseID(s string) (int, bool) {
	if len(s) < 2 || s[0] != '@' || len(s) > 11 {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	return n, err == nil && n >= 0 && isDigit(s[1])
}

// isScore reports whether s matches [-]DIGITS.2DIGIT.
func isScore(s string) bool {
	s = strings.TrimPrefix(s, "-")
	dot := strings.IndexByte(s, '.')
	if dot < 1 || len(s)-dot != 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != dot && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// edgeLine reads "@target<@source type [status]" (spec §6).
func (d *decoder) edgeLine(l *line, g *Graph, names map[int]int) {
	f := strings.Split(l.Text, " ")
	lt := strings.IndexByte(f[0], '<')
	if lt < 0 || len(f) < 2 || len(f) > 3 {
		d.failIn(l, 0, KindInvalidEdgeSyntax, "an edge line is @target<@source type [status]: "+excerpt(l.Text))
	}
	tgt, ok1 := parseID(f[0][:lt])
	src, ok2 := parseID(f[0][lt+1:])
	if !ok1 || !ok2 {
		d.failIn(l, 0, KindInvalidSymbolID, "an edge names symbols by @id: "+excerpt(f[0]))
	}
	ti, ok1 := names[tgt]
	si, ok2 := names[src]
	if !ok1 || !ok2 {
		d.failIn(l, 0, KindUnknownEdgeReference, "edge "+excerpt(f[0])+" names a symbol not declared above")
	}
	if len(g.Edges) >= d.lim.maxElements {
		d.failLimitIn(l, 0, "MaxElements", "more edges than the limit of "+strconv.Itoa(d.lim.maxElements))
	}
	e := Edge{Source: g.Symbols[si].QualifiedName, Target: g.Symbols[ti].QualifiedName, EdgeType: f[1]}
	if len(f) == 3 {
		e.Status = f[2]
	}
	g.Edges = append(g.Edges, e)
}
