package gcfvalue

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// GraphCanonical returns the canonical bytes gcf-pack-root-v1 hashes for a
// graph (spec §10.2): a record per symbol, "S\tkind\tqname\tscore\t
// provenance\tdistance\n" (kind abbreviated, score in canonical number
// form), then a record per edge, "E\tsource kind\tsource qname\ttarget
// kind\ttarget qname\ttype\n", each group sorted by its bytes.
func GraphCanonical(g *Graph) ([]byte, error) {
	kindOf := make(map[string]string, len(g.Symbols))
	var syms, edges [][]byte
	for _, s := range g.Symbols {
		kindOf[s.QualifiedName] = abbreviate(s.Kind)
		r := []byte("S\t" + abbreviate(s.Kind) + "\t" + s.QualifiedName + "\t")
		r = AppendFloat(r, s.Score)
		r = append(r, "\t"+s.Provenance+"\t"+strconv.Itoa(s.Distance)+"\n"...)
		syms = append(syms, r)
	}
	for _, e := range g.Edges {
		sk, ok1 := kindOf[e.Source]
		tk, ok2 := kindOf[e.Target]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("gcf: pack root: edge %s -> %s names a symbol the graph lacks: %w", e.Source, e.Target, KindUnknownEdgeReference)
		}
		edges = append(edges, []byte("E\t"+sk+"\t"+e.Source+"\t"+tk+"\t"+e.Target+"\t"+e.EdgeType+"\n"))
	}
	slices.SortFunc(syms, bytes.Compare)
	slices.SortFunc(edges, bytes.Compare)
	return bytes.Join(append(syms, edges...), nil), nil
}

// GraphPackRoot returns the gcf-pack-root-v1 root of a graph: SHA-256 of
// GraphCanonical, "sha256:" and 64 lowercase hex digits.
func GraphPackRoot(g *Graph) (string, error) {
	b, err := GraphCanonical(g)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return PackRootPrefix + hex.EncodeToString(sum[:]), nil
}

// GraphDelta is a graph-profile delta payload (spec §10).
type GraphDelta struct {
	Tool         string
	BaseRoot     string
	NewRoot      string
	TokensUsed   int      // the header's tokens=, 0 for none
	Savings      string   // the header's savings=, "" for none
	Removed      []Symbol // by kind and qualified name
	Added        []Symbol
	RemovedEdges []Edge
	AddedEdges   []Edge
}

// AppendGraphDelta appends d as a delta payload: sections removed, added
// (with each symbol's distance), edges_removed and edges_added, each left
// out when empty.
func AppendGraphDelta(dst []byte, d *GraphDelta) ([]byte, error) {
	for _, v := range []string{d.Tool, d.BaseRoot, d.NewRoot, d.Savings} {
		if v != "" && !isHeaderValue(v) {
			return dst, encodeError("", KindMalformedHeaderField, "a header value with a blank or non-ASCII character: "+excerpt(v))
		}
	}
	for i, s := range append(slices.Clone(d.Removed), d.Added...) {
		fields := []string{s.Kind, s.QualifiedName}
		if i >= len(d.Removed) {
			fields = append(fields, s.Provenance)
		}
		for _, f := range fields {
			if err := checkGraphText("a symbol field", f); err != nil {
				return dst, err
			}
		}
	}
	b := append(dst, "GCF profile=graph"...)
	if d.Tool != "" {
		b = append(b, " tool="+d.Tool...)
	}
	b = append(b, " delta=true base_root="+d.BaseRoot+" new_root="+d.NewRoot...)
	if d.TokensUsed != 0 {
		b = append(b, " tokens="+strconv.Itoa(d.TokensUsed)...)
	}
	if d.Savings != "" {
		b = append(b, " savings="+d.Savings...)
	}
	b = append(b, '\n')
	if len(d.Removed) > 0 {
		b = append(b, "## removed\n"...)
		for _, s := range d.Removed {
			b = append(b, abbreviate(s.Kind)+" "+s.QualifiedName+"\n"...)
		}
	}
	if len(d.Added) > 0 {
		b = append(b, "## added\n"...)
		for i := range d.Added {
			b = append(b, '@')
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ' ')
			b = appendNodeFields(b, &d.Added[i])
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(d.Added[i].Distance), 10)
			b = append(b, '\n')
		}
	}
	for _, sec := range []struct {
		name  string
		edges []Edge
	}{{"edges_removed", d.RemovedEdges}, {"edges_added", d.AddedEdges}} {
		if len(sec.edges) > 0 {
			b = append(b, "## "+sec.name+"\n"...)
			for _, e := range sec.edges {
				b = append(b, e.Source+" -> "+e.Target+" "+e.EdgeType+"\n"...)
			}
		}
	}
	return b, nil
}

// DecodeGraphDelta decodes a graph delta payload; an unknown section or a
// line of the wrong form for its section is KindMalformedDelta.
func DecodeGraphDelta(data []byte, opts Options) (gd *GraphDelta, err error) {
	d, doc, err := beginGraph(data, opts)
	if err != nil {
		return nil, err
	}
	defer recoverFailure(&err)
	if v, _ := doc.Get("delta"); doc.Profile != "graph" || v != "true" {
		failAt(1, 1, KindMalformedDelta, "not a graph delta payload (profile=graph delta=true)")
	}
	gd = &GraphDelta{}
	gd.Tool, _ = doc.Get("tool")
	gd.BaseRoot, _ = doc.Get("base_root")
	gd.NewRoot, _ = doc.Get("new_root")
	gd.Savings, _ = doc.Get("savings")
	if v, ok := doc.Get("tokens"); ok {
		gd.TokensUsed, _ = strconv.Atoi(v)
	}
	section := ""
	for {
		l := d.read()
		if l == nil {
			break
		}
		c := l.Text
		if name, ok := strings.CutPrefix(c, "## "); ok {
			switch name {
			case "removed", "added", "edges_removed", "edges_added":
				section = name
			default:
				d.failIn(l, 3, KindMalformedDelta, "a graph delta has no section "+excerpt(name))
			}
			continue
		}
		if l.Depth != 0 {
			d.failIn(l, 0, KindInvalidIndent, "graph lines are not indented")
		}
		n := len(gd.Removed) + len(gd.Added) + len(gd.RemovedEdges) + len(gd.AddedEdges)
		if n >= d.lim.maxElements {
			d.failLimitIn(l, 0, "MaxElements", "more delta lines than the limit of "+strconv.Itoa(d.lim.maxElements))
		}
		f := strings.Split(c, " ")
		switch section {
		case "removed":
			if len(f) != 2 {
				d.failIn(l, 0, KindMalformedDelta, "a removed line is kind qname")
			}
			gd.Removed = append(gd.Removed, Symbol{Kind: expand(f[0]), QualifiedName: f[1]})
		case "added":
			_, s := d.nodeLine(l, 6)
			gd.Added = append(gd.Added, s)
		case "edges_removed", "edges_added":
			if len(f) != 4 || f[1] != "->" {
				d.failIn(l, 0, KindMalformedDelta, "an edge delta line is source -> target type")
			}
			e := Edge{Source: f[0], Target: f[2], EdgeType: f[3]}
			if section == "edges_removed" {
				gd.RemovedEdges = append(gd.RemovedEdges, e)
			} else {
				gd.AddedEdges = append(gd.AddedEdges, e)
			}
		default:
			d.failIn(l, 0, KindMalformedDelta, "a line before any delta section")
		}
	}
	return gd, nil
}

// Apply applies d to base atomically (spec §10.4): the base's root must be
// d.BaseRoot, every removal must name a symbol or edge of the base, no
// addition may exist already, and the result's root must be d.NewRoot
// (KindRootMismatch otherwise; KindDelta for a contradiction). base is not
// modified.
func (d *GraphDelta) Apply(base *Graph) (*Graph, error) {
	root, err := GraphPackRoot(base)
	if err != nil {
		return nil, err
	}
	if root != d.BaseRoot {
		return nil, fmt.Errorf("gcf: delta: base_root %s is not the held root %s: %w", excerpt(d.BaseRoot), root, KindRootMismatch)
	}
	next := &Graph{Tool: base.Tool, TokenBudget: base.TokenBudget, TokensUsed: base.TokensUsed}
	symKey := func(s Symbol) string { return symbolKey(s.Kind, s.QualifiedName) }
	if next.Symbols, err = applyOps(base.Symbols, d.Removed, d.Added, symKey, func(s Symbol) string { return "symbol " + excerpt(s.QualifiedName) }); err != nil {
		return nil, err
	}
	edgeKey := func(e Edge) string { return e.Source + "\x00" + e.Target + "\x00" + e.EdgeType }
	if next.Edges, err = applyOps(base.Edges, d.RemovedEdges, d.AddedEdges, edgeKey, func(e Edge) string { return "edge " + e.Source + " -> " + e.Target }); err != nil {
		return nil, err
	}
	got, err := GraphPackRoot(next)
	if err != nil {
		return nil, fmt.Errorf("gcf: delta: %w", err)
	}
	if got != d.NewRoot {
		return nil, fmt.Errorf("gcf: delta: the applied graph's root %s is not new_root %s: %w", got, excerpt(d.NewRoot), KindRootMismatch)
	}
	return next, nil
}

// applyOps returns base without removed and with added appended, refusing
// (KindDelta) the removal of an element base lacks or one removed twice,
// and the addition of one base holds and keeps; key identifies an
// element, name names it in an error.
func applyOps[T any](base, removed, added []T, key, name func(T) string) ([]T, error) {
	have := make(map[string]bool, len(base))
	for _, x := range base {
		have[key(x)] = true
	}
	gone := make(map[string]bool, len(removed))
	for _, x := range removed {
		k := key(x)
		if !have[k] || gone[k] {
			return nil, fmt.Errorf("gcf: delta: removed %s is not in the base: %w", name(x), KindDelta)
		}
		gone[k] = true
	}
	var next []T
	for _, x := range base {
		if !gone[key(x)] {
			next = append(next, x)
		}
	}
	for _, x := range added {
		if k := key(x); have[k] && !gone[k] {
			return nil, fmt.Errorf("gcf: delta: added %s already exists in the base: %w", name(x), KindDelta)
		}
		next = append(next, x)
	}
	return next, nil
}
