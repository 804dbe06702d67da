package delta

import (
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Patch applies d to base and returns the result: a response equal to the
// one Diff was given as next, under wire.Exact, order included. It is
// atomic: an operation that contradicts another (ErrCorrupt) or does not
// fit the base (ErrWrongBase), or a result whose check is not d's
// (ErrWrongBase), is a *PatchError and no response. The result has lists
// of its own; its nodes' properties and its rows' cells are shared with
// base and d, read-only. It never modifies base or d.
func Patch(base *wire.GraphResponse, d *Delta) (*wire.GraphResponse, error) {
	if base == nil || d == nil {
		return nil, ErrNilResponse
	}
	fb := Fingerprint(base)
	if d.Unchanged() {
		if d.operates() {
			return nil, corrupt("content", "an unchanged delta (no content) with operations")
		}
		if MakeCheck(fb, fb) != d.Check {
			return nil, wrongBase(d.Check)
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
	c := d.Content
	fv, qt, err := d.headerOf(base)
	if err != nil {
		return nil, err
	}
	r := &wire.GraphResponse{
		FormatVersion: fv,
		QueryType:     wire.QueryType(qt),
		Columns:       cloneList(c.Columns),
		GroupColumns:  cloneList(c.GroupColumns),
	}
	if c.Pagination != nil {
		p := *c.Pagination
		r.Pagination = &p
	}
	if len(c.Nodes) != len(d.Changed)+len(d.Nodes.Added) {
		return nil, corrupt("content.nodes", "the content has "+strconv.Itoa(len(c.Nodes))+" nodes for "+
			strconv.Itoa(len(d.Changed))+" changed and "+strconv.Itoa(len(d.Nodes.Added))+" added")
	}
	if len(c.Edges) != len(d.Edges.Added) {
		return nil, corrupt("content.edges", "the content has "+strconv.Itoa(len(c.Edges))+" edges for "+strconv.Itoa(len(d.Edges.Added))+" added")
	}
	if len(c.Rows) != len(d.Rows.Added) {
		return nil, corrupt("content.rows", "the content has "+strconv.Itoa(len(c.Rows))+" rows for "+strconv.Itoa(len(d.Rows.Added))+" added")
	}
	if r.Nodes, err = patchNodes(base.Nodes, d); err != nil {
		return nil, err
	}
	if r.Edges, err = build("edges", base.Edges, &d.Edges, c.Edges, nil, false); err != nil {
		return nil, err
	}
	if c.Rows == nil && len(base.Rows)-len(d.Rows.Removed) > 0 {
		return nil, misfit("rows", "the result has no rows, yet base rows remain")
	}
	if r.Rows, err = build("rows", base.Rows, &d.Rows, c.Rows, nil, c.Rows != nil); err != nil {
		return nil, err
	}
	if MakeCheck(fb, Fingerprint(r)) != d.Check {
		return nil, wrongBase(d.Check)
	}
	return r, nil
}

// headerOf returns the result's format_version and query_type: the
// content's when not empty, else "" for a field Cleared names and the
// base's for the others.
func (d *Delta) headerOf(base *wire.GraphResponse) (fv, qt string, err error) {
	fv, qt = d.Content.FormatVersion, string(d.Content.QueryType)
	var cleared [2]bool
	for i, name := range d.Cleared {
		k := slices.Index([]string{FieldFormatVersion, FieldQueryType}, name)
		switch {
		case k < 0:
			return "", "", corrupt(opName("cleared", i), strconv.Quote(short(name))+" is not format_version or query_type")
		case cleared[k] || i > 0 && k == 0:
			return "", "", corrupt(opName("cleared", i), "cleared names "+name+" out of order or twice")
		case k == 0 && fv != "" || k == 1 && qt != "":
			return "", "", corrupt(opName("cleared", i), name+" is cleared and given in the content")
		}
		cleared[k] = true
	}
	if fv == "" && !cleared[0] {
		fv = base.FormatVersion
	}
	if qt == "" && !cleared[1] {
		qt = string(base.QueryType)
	}
	return fv, qt, nil
}

// misfit is the error of an operation that does not fit the base: a
// delta for another base (or altered).
func misfit(op, msg string) error {
	return &PatchError{Op: op, Msg: msg + " (a delta for another base?)", Err: ErrWrongBase}
}

func wrongBase(c Check) error {
	return &PatchError{Op: "check", Msg: "the response built does not match the delta's check " + c.String() +
		": the delta is for another base, or altered since it was made", Err: ErrWrongBase}
}

// cloneList copies s, keeping nil nil and empty empty.
func cloneList[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// patchNodes builds the result's nodes: d.Nodes, with the changed nodes'
// content replaced. A content node is a changed one when its type and id
// are those of a base node named in Changed and not yet matched (in the
// order of Changed), an added one otherwise (in the order of Added).
func patchNodes(base []wire.Node, d *Delta) ([]wire.Node, error) {
	var changed map[int]*wire.Node
	added := d.Content.Nodes
	if len(d.Changed) > 0 {
		gone := make([]bool, len(base))
		for _, bi := range d.Nodes.Removed {
			if bi >= 0 && bi < len(base) {
				gone[bi] = true
			}
		}
		waiting := make(map[sessionKey][]int, len(d.Changed))
		seen := make(map[int]bool, len(d.Changed))
		for i, bi := range d.Changed {
			op := opName("nodes.changed", i)
			switch {
			case bi < 0 || bi >= len(base):
				return nil, misfit(op, outside(bi, len(base), "nodes"))
			case seen[bi]:
				return nil, corrupt(op, "node "+strconv.Itoa(bi)+" is changed twice")
			case gone[bi]:
				return nil, corrupt(op, "node "+strconv.Itoa(bi)+" is removed and changed")
			}
			seen[bi] = true
			k := sessionKey{base[bi].Type, base[bi].ID}
			waiting[k] = append(waiting[k], bi)
		}
		changed = make(map[int]*wire.Node, len(d.Changed))
		added = make([]wire.Node, 0, len(d.Content.Nodes)-len(d.Changed))
		for i := range d.Content.Nodes {
			n := &d.Content.Nodes[i]
			k := sessionKey{n.Type, n.ID}
			if q := waiting[k]; len(q) > 0 {
				changed[q[0]], waiting[k] = n, q[1:]
				continue
			}
			added = append(added, *n)
		}
		if len(changed) != len(d.Changed) {
			return nil, misfit("nodes.changed", "a changed node has no node of its type and id in the content")
		}
	}
	return build("nodes", base, &d.Nodes, added, func(bi int) wire.Node {
		if n := changed[bi]; n != nil {
			return *n
		}
		return base[bi]
	}, false)
}

func outside(i, n int, what string) string {
	return "position " + strconv.Itoa(i) + " is outside the base's " + strconv.Itoa(n) + " " + what
}

// build makes the result list of o over base: moved and added elements
// (added, in order) at their positions, the other base elements, minus
// the removed ones, in base order in the positions left. get, when not
// nil, gives the element for a base position. present makes an empty
// result a non-nil list. Every position is checked before it is used.
func build[T any](what string, base []T, o *Ops, added []T, get func(bi int) T, present bool) ([]T, error) {
	if get == nil {
		get = func(bi int) T { return base[bi] }
	}
	gone := make([]bool, len(base))
	take := func(op string, bi int) error {
		switch {
		case bi < 0 || bi >= len(base):
			return misfit(op, outside(bi, len(base), what))
		case gone[bi]:
			return corrupt(op, what+" "+strconv.Itoa(bi)+" is named twice")
		}
		gone[bi] = true
		return nil
	}
	for i, bi := range o.Removed {
		if err := take(opName(what+".removed", i), bi); err != nil {
			return nil, err
		}
	}
	for i, m := range o.Moved {
		if err := take(opName(what+".moved", i), m.From); err != nil {
			return nil, err
		}
	}
	n := len(base) - len(o.Removed) + len(o.Added)
	if n == 0 && !present {
		return nil, nil
	}
	out := make([]T, n)
	filled := make([]bool, n)
	place := func(op string, at int) error {
		switch {
		case at < 0 || at >= n:
			return misfit(op, "position "+strconv.Itoa(at)+" is outside the result's "+strconv.Itoa(n)+" "+what)
		case filled[at]:
			return corrupt(op, "position "+strconv.Itoa(at)+" is taken twice")
		}
		filled[at] = true
		return nil
	}
	for i, m := range o.Moved {
		if err := place(opName(what+".moved", i), m.At); err != nil {
			return nil, err
		}
		out[m.At] = get(m.From)
	}
	for i, at := range o.Added {
		if err := place(opName(what+".added", i), at); err != nil {
			return nil, err
		}
		out[at] = added[i]
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
