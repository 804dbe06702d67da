package wire

import "slices"

// Equal reports whether a and b are the same response under f: Exact
// compares every field and every value, kinds included and floats bit for
// bit; NumbersByValue lets an int and a float of the same numeric value be
// equal. Lossy promises no equality (a lossy codec promises a fixed point
// instead), so Equal compares under NumbersByValue for it.
//
// A nil and an empty Nodes, Edges, property list or Row are the same (the
// wire cannot tell them apart), while a nil and an empty Columns,
// GroupColumns or Rows differ (absent versus present). Tests compare with
// the go-cmp options of package wiretest, which follow the same rules.
func Equal(a, b *GraphResponse, f Fidelity) bool {
	if a == nil || b == nil {
		return a == b
	}
	eqv := Value.Equal
	if f != Exact {
		eqv = Value.EqualNumeric
	}
	eqNode := func(x, y Node) bool {
		return x.Type == y.Type && x.ID == y.ID && slices.EqualFunc(x.Properties, y.Properties, func(p, q Property) bool {
			return p.Key == q.Key && eqv(p.Value, q.Value)
		})
	}
	present := func(x, y bool) bool { return x == y }
	switch {
	case a.FormatVersion != b.FormatVersion, a.QueryType != b.QueryType,
		!slices.EqualFunc(a.Nodes, b.Nodes, eqNode),
		!slices.Equal(a.Edges, b.Edges),
		!present(a.Columns == nil, b.Columns == nil), !slices.Equal(a.Columns, b.Columns),
		!present(a.GroupColumns == nil, b.GroupColumns == nil), !slices.Equal(a.GroupColumns, b.GroupColumns),
		!present(a.Rows == nil, b.Rows == nil):
		return false
	}
	if !slices.EqualFunc(a.Rows, b.Rows, func(x, y Row) bool {
		return slices.EqualFunc(x, y, func(c, d Cell) bool {
			if c.Name != d.Name || (c.Node == nil) != (d.Node == nil) {
				return false
			}
			if c.Node != nil {
				return eqNode(*c.Node, *d.Node)
			}
			return eqv(c.Value, d.Value)
		})
	}) {
		return false
	}
	if a.Pagination == nil || b.Pagination == nil {
		return a.Pagination == b.Pagination
	}
	return *a.Pagination == *b.Pagination
}
