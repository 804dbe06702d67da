package wiretest

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
)

// Refusal names a shape of response that every decoder refuses, so every
// encoder must too (wire.Limits.Check); Options.Refuse generates it.
type Refusal string

// The refused shapes.
const (
	RefuseRepeatedProperty Refusal = "repeated_property" // two properties of one node share a key.
	RefuseReservedProperty Refusal = "reserved_property" // a property is named "type" or "id".
	RefuseRepeatedCell     Refusal = "repeated_cell"     // two cells of one row share a name.
	RefuseQueryType        Refusal = "query_type"        // the query type is none of the five.
	RefuseGroupKind        Refusal = "group_kind"        // a group column's kind is neither node nor property.
	RefusePagination       Refusal = "pagination"        // a pagination in neither schema v2 nor v5.
	RefuseDepth            Refusal = "depth"             // a list value nested past Limits.MaxDepth.
	RefuseElements         Refusal = "elements"          // a list value of more than Limits.MaxElements items.
	RefuseStringBytes      Refusal = "string_bytes"      // a string value longer than Limits.MaxStringBytes.
)

// Refusals lists every refused shape.
func Refusals() []Refusal {
	return []Refusal{RefuseRepeatedProperty, RefuseReservedProperty, RefuseRepeatedCell, RefuseQueryType,
		RefuseGroupKind, RefusePagination, RefuseDepth, RefuseElements, RefuseStringBytes}
}

// Limit returns the wire.Limits field a shape goes past ("MaxDepth"), or
// "" for a rule of the model.
func (s Refusal) Limit() string {
	return map[Refusal]string{RefuseDepth: "MaxDepth", RefuseElements: "MaxElements", RefuseStringBytes: "MaxStringBytes"}[s]
}

// refuse breaks g.o.Refuse's rule once in r.
func (g gen) refuse(r *wire.GraphResponse) {
	l, err := g.o.Limits.WithDefaults()
	if err != nil {
		panic(fmt.Sprintf("wiretest: Options.Limits: %v", err))
	}
	switch g.o.Refuse {
	case RefuseRepeatedProperty, RefuseReservedProperty:
		n := g.someNode(r)
		var k string
		switch {
		case g.o.Refuse == RefuseReservedProperty:
			k = rapid.SampledFrom([]string{"type", "id"}).Draw(g.t, "reserved_key")
		case len(n.Properties) > 0:
			k = n.Properties[g.intn(len(n.Properties), "repeated_of")].Key
		default:
			k = g.key("repeated_key")
			n.Properties = append(n.Properties, wire.Prop(k, g.value(0)))
		}
		at := g.intn(len(n.Properties)+1, "refused_at")
		n.Properties = append(n.Properties[:at], append([]wire.Property{wire.Prop(k, g.value(0))}, n.Properties[at:]...)...)
	case RefuseRepeatedCell:
		if len(r.Rows) == 0 {
			r.Rows = append(r.Rows, wire.Row{{Name: g.colName("cell"), Value: g.value(0)}})
		}
		i := g.intn(len(r.Rows), "row")
		row := r.Rows[i]
		if len(row) == 0 {
			row = append(row, wire.Cell{Name: g.colName("cell"), Value: g.value(0)})
		}
		c := wire.Cell{Name: row[g.intn(len(row), "repeated_of")].Name, Value: g.value(0)}
		at := g.intn(len(row)+1, "refused_at")
		r.Rows[i] = append(row[:at:at], append(wire.Row{c}, row[at:]...)...)
	case RefuseQueryType:
		r.QueryType = rapid.SampledFrom([]wire.QueryType{"", "walk", "Traversal", "path-finding", "search "}).Draw(g.t, "bad_query_type")
	case RefuseGroupKind:
		gc := wire.GroupColumn{Name: "g_" + g.colName("group_name"), Node: g.colName("group_node"),
			Kind: rapid.SampledFrom([]wire.GroupKind{"", "edge", "Node", "properties"}).Draw(g.t, "bad_kind")}
		at := g.intn(len(r.GroupColumns)+1, "refused_at")
		r.GroupColumns = append(r.GroupColumns[:at:at], append([]wire.GroupColumn{gc}, r.GroupColumns[at:]...)...)
	case RefusePagination:
		p := &wire.Pagination{HasMore: rapid.Bool().Draw(g.t, "has_more")}
		switch g.intn(4, "bad_pagination") {
		case 0: // has_more alone
		case 1:
			p.TotalRows, p.Truncated = wire.Some[int64](3), wire.Some(false)
		case 2:
			p.TotalRows, p.Truncated, p.NextCursor = wire.Some[int64](3), wire.Some(true), wire.Some("c")
		default:
			p.NextCursor = wire.Some(g.cursor())
		}
		r.Pagination = p
	case RefuseDepth, RefuseElements, RefuseStringBytes:
		var v wire.Value
		switch g.o.Refuse {
		case RefuseDepth:
			v = wire.ListOf(wire.Int(1))
			for range l.MaxDepth {
				v = wire.ListOf(v)
			}
		case RefuseElements:
			items := make([]wire.Value, l.MaxElements+1)
			for i := range items {
				items[i] = wire.Int(int64(i))
			}
			v = wire.ListOf(items...)
		default:
			v = wire.String(strings.Repeat("x", l.MaxStringBytes+1))
		}
		n := g.someNode(r)
		for j := range n.Properties {
			if n.Properties[j].Key == "refused" {
				n.Properties[j].Value = v
				return
			}
		}
		n.Properties = append(n.Properties, wire.Prop("refused", v))
	default:
		panic(fmt.Sprintf("wiretest: unknown Refusal %q", g.o.Refuse))
	}
}

// someNode returns a node of r or of its rows' cells (adding one when r
// has none), with properties not shared with another node.
func (g gen) someNode(r *wire.GraphResponse) *wire.Node {
	var cells []*wire.Cell
	for i := range r.Rows {
		for j := range r.Rows[i] {
			if r.Rows[i][j].Node != nil {
				cells = append(cells, &r.Rows[i][j])
			}
		}
	}
	if len(cells) > 0 && (len(r.Nodes) == 0 || g.chance(30, "in_cell")) {
		c := cells[g.intn(len(cells), "cell")]
		n := *c.Node
		n.Properties = append([]wire.Property(nil), n.Properties...)
		c.Node = &n
		return &n
	}
	if len(r.Nodes) == 0 {
		r.Nodes = append(r.Nodes, wire.Node{Type: g.typeName("type"), ID: g.id("node_id")})
	}
	n := &r.Nodes[g.intn(len(r.Nodes), "node")]
	n.Properties = append([]wire.Property(nil), n.Properties...)
	return n
}
