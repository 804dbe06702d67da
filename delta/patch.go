package delta

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Patch applies d to base and returns the result: a response equal to the
// one Diff was given as next, under wire.Exact, order included. It never
// modifies base or d.
//
// Patch is atomic. It checks base's fingerprint against d.Base first (a
// mismatch is ErrWrongBase), then every operation against the base and the
// others, and the fingerprint of what it built against d.Result; anything
// wrong is a *PatchError matching ErrCorrupt, and no response is returned.
// So a Delta applied to the wrong base, truncated or altered gives an
// error, never a wrong response.
//
// The result is a new response with lists of its own; the property lists,
// row cells and values of its nodes and rows are shared with base and d,
// as the values of a response are, and are to be treated as read-only
// (wiretest.Clone makes a private copy).
func Patch(base *wire.GraphResponse, d *Delta) (*wire.GraphResponse, error) {
	if base == nil || d == nil {
		return nil, ErrNilResponse
	}
	if got := Fingerprint(base); got != d.Base {
		return nil, &PatchError{Op: "base", Msg: "the response's fingerprint is " + got.String() + ", the delta's base is " + d.Base.String(), Err: ErrWrongBase}
	}
	if d.Unchanged() {
		if d.Set != 0 || !d.Nodes.empty() || !d.Edges.empty() || !d.Rows.empty() {
			return nil, corrupt("result", "an unchanged delta with operations")
		}
		r := *base
		r.Nodes, r.Edges, r.Rows = cloneList(base.Nodes), cloneList(base.Edges), cloneList(base.Rows)
		r.Columns, r.GroupColumns = cloneList(base.Columns), cloneList(base.GroupColumns)
		if base.Pagination != nil {
			p := *base.Pagination
			r.Pagination = &p
		}
		return &r, nil
	}
	r := &wire.GraphResponse{
		FormatVersion: d.FormatVersion,
		QueryType:     d.QueryType,
		Columns:       base.Columns,
		GroupColumns:  base.GroupColumns,
		Pagination:    base.Pagination,
	}
	if d.Set.Has(SetColumns) {
		r.Columns = d.Columns
	}
	if d.Set.Has(SetGroupColumns) {
		r.GroupColumns = d.GroupColumns
	}
	if d.Set.Has(SetPagination) {
		r.Pagination = d.Pagination
	}
	r.Columns = cloneList(r.Columns)
	r.GroupColumns = cloneList(r.GroupColumns)
	if r.Pagination != nil {
		p := *r.Pagination
		r.Pagination = &p
	}
	var err error
	if r.Nodes, err = patchNodes(base.Nodes, &d.Nodes); err != nil {
		return nil, err
	}
	if r.Edges, err = patchEdges(base.Edges, &d.Edges); err != nil {
		return nil, err
	}
	if r.Rows, err = patchRows(base.Rows, &d.Rows); err != nil {
		return nil, err
	}
	if got := Fingerprint(r); got != d.Result {
		return nil, corrupt("result", "the patched response's fingerprint is "+got.String()+", the delta's result is "+d.Result.String())
	}
	return r, nil
}

// cloneList copies s, keeping nil nil and empty empty.
func cloneList[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// resolver finds base positions by key and refuses a key named twice.
type resolver[K comparable] struct {
	what  string // "node", "edge"
	at    map[K]int
	taken []bool
}

func newResolver[K comparable](what string, keys []K) *resolver[K] {
	at := make(map[K]int, len(keys))
	for i, k := range keys {
		at[k] = i
	}
	return &resolver[K]{what: what, at: at, taken: make([]bool, len(keys))}
}

// take returns the base position of k, which no earlier take named.
func (r *resolver[K]) take(op string, k K, name func(K) string) (int, error) {
	bi, ok := r.at[k]
	if !ok {
		return 0, corrupt(op, "no "+r.what+" "+name(k)+" in the base")
	}
	if r.taken[bi] {
		return 0, corrupt(op, "the "+r.what+" "+name(k)+" is named twice")
	}
	r.taken[bi] = true
	return bi, nil
}

func patchNodes(base []wire.Node, o *NodeOps) ([]wire.Node, error) {
	keys := nodeKeys(base)
	res := newResolver("node", keys)
	removed := make([]int, len(o.Removed))
	gone := make([]bool, len(base))
	var err error
	for i, k := range o.Removed {
		if removed[i], err = res.take(opName("nodes.removed", i), k, nodeName); err != nil {
			return nil, err
		}
		gone[removed[i]] = true
	}
	moved := make([]Move[int], len(o.Moved))
	for i, m := range o.Moved {
		if moved[i].Key, err = res.take(opName("nodes.moved", i), m.Key, nodeName); err != nil {
			return nil, err
		}
		moved[i].At = m.At
	}
	var changed map[int]*wire.Node
	if len(o.Changed) > 0 {
		changed = make(map[int]*wire.Node, len(o.Changed))
		for i := range o.Changed {
			c := &o.Changed[i]
			op := opName("nodes.changed", i)
			bi, ok := res.at[c.Key()]
			switch {
			case !ok:
				return nil, corrupt(op, "no node "+nodeName(c.Key())+" in the base")
			case changed[bi] != nil:
				return nil, corrupt(op, "the node "+nodeName(c.Key())+" is changed twice")
			case gone[bi]:
				return nil, corrupt(op, "the node "+nodeName(c.Key())+" is removed and changed")
			}
			changed[bi] = &c.Node
		}
	}
	return build("nodes", base, removed, moved, o.Added, func(bi int) wire.Node {
		if n := changed[bi]; n != nil {
			return *n
		}
		return base[bi]
	}, false)
}

func patchEdges(base []wire.Edge, o *EdgeOps) ([]wire.Edge, error) {
	res := newResolver("edge", edgeKeys(base))
	removed := make([]int, len(o.Removed))
	var err error
	for i, k := range o.Removed {
		if removed[i], err = res.take(opName("edges.removed", i), k, edgeName); err != nil {
			return nil, err
		}
	}
	moved := make([]Move[int], len(o.Moved))
	for i, m := range o.Moved {
		if moved[i].Key, err = res.take(opName("edges.moved", i), m.Key, edgeName); err != nil {
			return nil, err
		}
		moved[i].At = m.At
	}
	return build("edges", base, removed, moved, o.Added, func(bi int) wire.Edge { return base[bi] }, false)
}

func patchRows(base []wire.Row, o *RowOps) ([]wire.Row, error) {
	taken := make([]bool, len(base))
	take := func(op string, bi int) error {
		switch {
		case bi < 0 || bi >= len(base):
			return corrupt(op, "row "+strconv.Itoa(bi)+" is not in the base, which has "+strconv.Itoa(len(base))+" rows")
		case taken[bi]:
			return corrupt(op, "row "+strconv.Itoa(bi)+" is named twice")
		}
		taken[bi] = true
		return nil
	}
	for i, bi := range o.Removed {
		if err := take(opName("rows.removed", i), bi); err != nil {
			return nil, err
		}
	}
	for i, m := range o.Moved {
		if err := take(opName("rows.moved", i), m.Key); err != nil {
			return nil, err
		}
	}
	if !o.Present && len(base)-len(o.Removed)+len(o.Added) > 0 {
		return nil, corrupt("rows", "the result has no rows, yet rows remain or are added")
	}
	return build("rows", base, o.Removed, o.Moved, o.Added, func(bi int) wire.Row { return base[bi] }, o.Present)
}

// build makes the result list: moved and added elements at their
// positions, the other base elements, minus the removed ones, in base
// order in the positions left. The removed and moved base positions are
// valid and distinct. present makes an empty result a non-nil list.
func build[T any](what string, base []T, removed []int, moved []Move[int], added []Placed[T], get func(bi int) T, present bool) ([]T, error) {
	n := len(base) - len(removed) + len(added)
	if n == 0 && !present {
		return nil, nil
	}
	out := make([]T, n)
	filled := make([]bool, n)
	place := func(op string, at int) error {
		switch {
		case at < 0 || at >= n:
			return corrupt(op, "position "+strconv.Itoa(at)+" is outside the result's "+strconv.Itoa(n)+" "+what)
		case filled[at]:
			return corrupt(op, "position "+strconv.Itoa(at)+" is taken twice")
		}
		filled[at] = true
		return nil
	}
	for i, m := range moved {
		if err := place(opName(what+".moved", i), m.At); err != nil {
			return nil, err
		}
		out[m.At] = get(m.Key)
	}
	for i, a := range added {
		if err := place(opName(what+".added", i), a.At); err != nil {
			return nil, err
		}
		out[a.At] = a.Item
	}
	gone := make([]bool, len(base))
	for _, bi := range removed {
		gone[bi] = true
	}
	for _, m := range moved {
		gone[m.Key] = true
	}
	slot := 0
	for bi := range base {
		if gone[bi] {
			continue
		}
		for filled[slot] {
			slot++
		}
		out[slot] = get(bi)
		filled[slot] = true
	}
	return out, nil
}

func opName(list string, i int) string { return list + "[" + strconv.Itoa(i) + "]" }

func nodeName(k NodeKey) string {
	s := strconv.Quote(k.Type) + " " + strconv.FormatInt(k.ID, 10)
	if k.N > 0 {
		s += " (occurrence " + strconv.Itoa(k.N) + ")"
	}
	return s
}

func edgeName(k EdgeKey) string {
	e := k.Edge
	s := strconv.Quote(e.From) + " " + strconv.FormatInt(e.FromID, 10) + " -> " + strconv.Quote(e.To) + " " + strconv.FormatInt(e.ToID, 10) + " " + strconv.Quote(e.Type)
	if k.N > 0 {
		s += " (occurrence " + strconv.Itoa(k.N) + ")"
	}
	return s
}
