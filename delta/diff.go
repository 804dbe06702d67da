package delta

import (
	"errors"
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// ErrNilResponse is returned by Diff and Patch for a nil response.
var ErrNilResponse = errors.New("delta: nil response")

// Diff returns the Delta that turns base into next. It never fails for two
// responses (a nil one is ErrNilResponse) and does not modify either; the
// Delta shares nodes, edges and rows of next rather than copying them.
//
// The Delta is small where the change is small: a node, edge or row that
// kept its identity and its content costs nothing, and one that kept its
// content but not its place costs a Move only when it is out of the
// longest run of elements that kept their relative order (so appending,
// inserting or removing moves nothing, and swapping two elements moves
// one).
func Diff(base, next *wire.GraphResponse) (*Delta, error) {
	if base == nil || next == nil {
		return nil, ErrNilResponse
	}
	d := &Delta{Base: Fingerprint(base), Result: Fingerprint(next)}
	if d.Unchanged() {
		return d, nil
	}
	d.FormatVersion, d.QueryType = next.FormatVersion, next.QueryType
	if !slices.Equal(base.Columns, next.Columns) || (base.Columns == nil) != (next.Columns == nil) {
		d.Set |= SetColumns
		d.Columns = next.Columns
	}
	if !slices.Equal(base.GroupColumns, next.GroupColumns) || (base.GroupColumns == nil) != (next.GroupColumns == nil) {
		d.Set |= SetGroupColumns
		d.GroupColumns = next.GroupColumns
	}
	if !samePagination(base.Pagination, next.Pagination) {
		d.Set |= SetPagination
		d.Pagination = next.Pagination
	}

	bk, nk := nodeKeys(base.Nodes), nodeKeys(next.Nodes)
	p := planSeq(bk, nk)
	for _, bi := range p.removed {
		d.Nodes.Removed = append(d.Nodes.Removed, bk[bi])
	}
	for _, m := range p.moved {
		d.Nodes.Moved = append(d.Nodes.Moved, Move[NodeKey]{Key: bk[m.bi], At: m.ni})
	}
	for _, m := range p.matched {
		if !sameNode(&base.Nodes[m.bi], &next.Nodes[m.ni]) {
			d.Nodes.Changed = append(d.Nodes.Changed, Changed{N: bk[m.bi].N, Node: next.Nodes[m.ni]})
		}
	}
	for _, ni := range p.added {
		d.Nodes.Added = append(d.Nodes.Added, Placed[wire.Node]{At: ni, Item: next.Nodes[ni]})
	}

	bek := edgeKeys(base.Edges)
	p = planSeq(bek, edgeKeys(next.Edges))
	for _, bi := range p.removed {
		d.Edges.Removed = append(d.Edges.Removed, bek[bi])
	}
	for _, m := range p.moved {
		d.Edges.Moved = append(d.Edges.Moved, Move[EdgeKey]{Key: bek[m.bi], At: m.ni})
	}
	for _, ni := range p.added {
		d.Edges.Added = append(d.Edges.Added, Placed[wire.Edge]{At: ni, Item: next.Edges[ni]})
	}

	d.Rows.Present = next.Rows != nil
	p = planSeq(rowKeys(base.Rows), rowKeys(next.Rows))
	d.Rows.Removed = p.removed
	for _, m := range p.moved {
		d.Rows.Moved = append(d.Rows.Moved, Move[int]{Key: m.bi, At: m.ni})
	}
	for _, ni := range p.added {
		d.Rows.Added = append(d.Rows.Added, Placed[wire.Row]{At: ni, Item: next.Rows[ni]})
	}
	return d, nil
}

func samePagination(a, b *wire.Pagination) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
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
