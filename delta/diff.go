package delta

import (
	"errors"
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// ErrNilResponse is returned by Diff and Patch for a nil response.
var ErrNilResponse = errors.New("delta: nil response")

// Diff returns the Delta that turns base into next (see the package doc,
// "Positions and the check"). It never fails for two responses (a nil one
// is ErrNilResponse) and does not modify either; the Delta shares nodes,
// edges and rows of next.
func Diff(base, next *wire.GraphResponse) (*Delta, error) {
	if base == nil || next == nil {
		return nil, ErrNilResponse
	}
	fb, fn := Fingerprint(base), Fingerprint(next)
	d := &Delta{Check: MakeCheck(fb, fn)}
	if fb == fn {
		return d, nil
	}
	c := &wire.GraphResponse{
		FormatVersion: fresh(base.FormatVersion, next.FormatVersion),
		QueryType:     wire.QueryType(fresh(string(base.QueryType), string(next.QueryType))),
		Columns:       next.Columns,
		GroupColumns:  next.GroupColumns,
		Pagination:    next.Pagination,
	}
	d.Content = c
	if next.FormatVersion == "" && base.FormatVersion != "" {
		d.Cleared = append(d.Cleared, FieldFormatVersion)
	}
	if next.QueryType == "" && base.QueryType != "" {
		d.Cleared = append(d.Cleared, FieldQueryType)
	}

	nodeKey := func(n *wire.Node) sessionKey { return sessionKey{n.Type, n.ID} }
	p := planSeq(occurrences(base.Nodes, nodeKey), occurrences(next.Nodes, nodeKey))
	changed := p.changedNodes(base.Nodes, next.Nodes)
	d.Nodes = p.ops()
	// The content's nodes are the changed and the added ones in result
	// order (a codec that reorders nodes, as GOON groups them by type,
	// keeps a subsequence of what it wrote in its own order), each changed
	// one told by its identity (Patch).
	// Both lists are ascending by result position: merge them.
	for k, a := 0, 0; k < len(changed) || a < len(p.added); {
		if a == len(p.added) || k < len(changed) && changed[k].ni < p.added[a] {
			d.Changed = append(d.Changed, changed[k].bi)
			c.Nodes = append(c.Nodes, next.Nodes[changed[k].ni])
			k++
			continue
		}
		c.Nodes = append(c.Nodes, next.Nodes[p.added[a]])
		a++
	}

	edgeKey := func(e *wire.Edge) wire.Edge { return *e }
	p = planSeq(occurrences(base.Edges, edgeKey), occurrences(next.Edges, edgeKey))
	d.Edges = p.ops()
	for _, ni := range p.added {
		c.Edges = append(c.Edges, next.Edges[ni])
	}

	rowID := func(r *wire.Row) string { return rowKey(*r) }
	p = planSeq(occurrences(base.Rows, rowID), occurrences(next.Rows, rowID))
	d.Rows = p.ops()
	if next.Rows != nil {
		c.Rows = make([]wire.Row, 0, len(p.added))
	}
	for _, ni := range p.added {
		c.Rows = append(c.Rows, next.Rows[ni])
	}
	return d, nil
}

// fresh is what a delta's content holds for a header field whose value is
// base in the base and next in the result: next when they differ, "" when
// the result keeps the base's.
func fresh(base, next string) string {
	if base == next {
		return ""
	}
	return next
}

// changedNodes returns the pairs of p whose content changed, and makes
// each of them whose identity (type and id) is also an added node's a
// removal and an addition instead: Patch tells a changed node in the
// content by its identity, which an added node must not share.
func (p *plan) changedNodes(base, next []wire.Node) []pair {
	var changed []pair
	for _, m := range p.matched {
		if !sameNode(&base[m.bi], &next[m.ni]) {
			changed = append(changed, m)
		}
	}
	if len(changed) == 0 || len(p.added) == 0 {
		return changed
	}
	added := make(map[sessionKey]bool, len(p.added))
	for _, ni := range p.added {
		added[sessionKey{next[ni].Type, next[ni].ID}] = true
	}
	kept := changed[:0]
	for _, m := range changed {
		if !added[sessionKey{next[m.ni].Type, next[m.ni].ID}] {
			kept = append(kept, m)
			continue
		}
		p.removed = append(p.removed, m.bi)
		p.added = append(p.added, m.ni)
		p.moved = slices.DeleteFunc(p.moved, func(x pair) bool { return x == m })
	}
	slices.Sort(p.removed)
	slices.Sort(p.added)
	return kept
}

// ops is p as the operations of a Delta.
func (p *plan) ops() Ops {
	o := Ops{Removed: p.removed, Added: p.added}
	for _, m := range p.moved {
		o.Moved = append(o.Moved, Move{From: m.bi, At: m.ni})
	}
	return o
}

// sameNode reports whether a and b have the same content, exactly.
func sameNode(a, b *wire.Node) bool {
	return a.Type == b.Type && a.ID == b.ID && slices.EqualFunc(a.Properties, b.Properties, func(p, q wire.Property) bool {
		return p.Key == q.Key && p.Value.Equal(q.Value)
	})
}

// pair is an element at base position bi and next position ni.
type pair struct{ bi, ni int }

// plan is how a sequence of keys became another: base positions removed
// (ascending), next positions added (ascending), every pair of positions
// of one key (ascending ni), and the pairs that moved (ascending ni).
type plan struct {
	removed []int
	added   []int
	matched []pair
	moved   []pair
}

// planSeq pairs the keys of base and next (each key unique within its
// list) and chooses the fewest moves: the pairs on a longest increasing
// run of base positions, taken in next order, stay; the others move.
func planSeq[K comparable](base, next []K) plan {
	var p plan
	at := make(map[K]int, len(base))
	for i, k := range base {
		at[k] = i
	}
	used := make([]bool, len(base))
	for ni, k := range next {
		bi, ok := at[k]
		if !ok {
			p.added = append(p.added, ni)
			continue
		}
		used[bi] = true
		p.matched = append(p.matched, pair{bi: bi, ni: ni})
	}
	for bi, u := range used {
		if !u {
			p.removed = append(p.removed, bi)
		}
	}
	stay := increasingRun(p.matched)
	for i, m := range p.matched {
		if !stay[i] {
			p.moved = append(p.moved, m)
		}
	}
	return p
}

// increasingRun marks a longest strictly increasing subsequence of the
// base positions of ps (patience sorting, O(n log n)).
func increasingRun(ps []pair) []bool {
	stay := make([]bool, len(ps))
	if len(ps) == 0 {
		return stay
	}
	tails := make([]int, 0, len(ps)) // index into ps of the last element of the best run of each length
	prev := make([]int, len(ps))
	for i, p := range ps {
		j, _ := slices.BinarySearchFunc(tails, p.bi, func(t int, bi int) int { return ps[t].bi - bi })
		if j > 0 {
			prev[i] = tails[j-1]
		} else {
			prev[i] = -1
		}
		if j == len(tails) {
			tails = append(tails, i)
		} else {
			tails[j] = i
		}
	}
	for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
		stay[i] = true
	}
	return stay
}
