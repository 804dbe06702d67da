// Package deltatest draws pairs of responses for the property tests of
// package delta and of every codec that writes deltas: a base and the base
// after random edits. It imports pgregory.net/rapid and is for tests only.
package deltatest

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// PairGen draws a base response and a next one: a copy of the base (10%),
// an unrelated response (10%), or the base after random edits of every
// part (80%): nodes added, removed, changed, duplicated and reordered;
// edges and rows likewise; pagination, columns, group columns, format
// version and query type replaced; rows made absent or present.
func PairGen() *rapid.Generator[[2]*wire.GraphResponse] { return PairGenWith(wiretest.Options{}) }

// PairGenWith is PairGen with responses shaped by o.
func PairGenWith(o wiretest.Options) *rapid.Generator[[2]*wire.GraphResponse] {
	return rapid.Custom(func(t *rapid.T) [2]*wire.GraphResponse {
		base := wiretest.ResponseWith(o).Draw(t, "base")
		mode := rapid.IntRange(0, 9).Draw(t, "mode")
		if mode == 0 {
			return [2]*wire.GraphResponse{base, wiretest.Clone(base)}
		}
		other := wiretest.ResponseWith(o).Draw(t, "other")
		if mode == 1 {
			return [2]*wire.GraphResponse{base, other}
		}
		next := wiretest.Clone(base)
		Edit(t, next, other, o.NonFinite)
		return [2]*wire.GraphResponse{base, next}
	})
}

func chance(t *rapid.T, pct int, label string) bool {
	return rapid.IntRange(0, 99).Draw(t, label) < pct
}

// Edit applies random edits of every part of next, drawing new material
// from other: what PairGen does to the base.
func Edit(t *rapid.T, next, other *wire.GraphResponse, nonFinite bool) {
	other = wiretest.Clone(other)
	if chance(t, 15, "format_version") {
		next.FormatVersion = other.FormatVersion
	}
	if chance(t, 10, "query_type") {
		next.QueryType = other.QueryType
	}
	if chance(t, 15, "columns") {
		next.Columns = other.Columns
	}
	if chance(t, 15, "group_columns") {
		next.GroupColumns = other.GroupColumns
	}
	if chance(t, 20, "pagination") {
		next.Pagination = other.Pagination
	}
	next.Nodes = editList(t, "nodes", next.Nodes, other.Nodes, func(n wire.Node) wire.Node {
		switch rapid.IntRange(0, 2).Draw(t, "node_change") {
		case 0: // new properties
			if len(other.Nodes) > 0 {
				n.Properties = other.Nodes[rapid.IntRange(0, len(other.Nodes)-1).Draw(t, "props_of")].Properties
				return n
			}
			fallthrough
		case 1: // one value replaced
			if len(n.Properties) > 0 {
				n.Properties = slices.Clone(n.Properties)
				i := rapid.IntRange(0, len(n.Properties)-1).Draw(t, "prop")
				n.Properties[i].Value = wiretest.ValueGen(2, nonFinite).Draw(t, "value")
				return n
			}
			fallthrough
		default: // a property added, or replaced if added before
			v := wiretest.ValueGen(1, nonFinite).Draw(t, "value")
			n.Properties = slices.DeleteFunc(slices.Clone(n.Properties), func(p wire.Property) bool { return p.Key == "added_property" })
			n.Properties = append(n.Properties, wire.Prop("added_property", v))
			return n
		}
	})
	next.Edges = editList(t, "edges", next.Edges, other.Edges, func(e wire.Edge) wire.Edge {
		e.Depth = wire.Some[int64](e.Depth.V + 1)
		return e
	})
	if chance(t, 10, "rows_presence") {
		if next.Rows == nil {
			next.Rows = []wire.Row{}
		} else {
			next.Rows = nil
		}
	}
	if next.Rows != nil {
		next.Rows = editList(t, "rows", next.Rows, other.Rows, func(row wire.Row) wire.Row {
			row = slices.Clone(row)
			if len(row) == 0 {
				return append(row, wire.Cell{Name: "count", Value: wire.Int(1)})
			}
			i := rapid.IntRange(0, len(row)-1).Draw(t, "cell")
			row[i].Node, row[i].Value = nil, wiretest.ValueGen(1, nonFinite).Draw(t, "cell_value")
			return row
		})
		if next.Rows == nil {
			next.Rows = []wire.Row{}
		}
	}
}

// editList applies up to 8 random edits to list: remove, insert (an
// element of pool or a duplicate of one in the list), move, swap, change.
func editList[T any](t *rapid.T, what string, list, pool []T, change func(T) T) []T {
	list = slices.Clone(list)
	n := rapid.IntRange(0, 8).Draw(t, what+"_edits")
	for range n {
		op := rapid.IntRange(0, 4).Draw(t, what+"_op")
		if len(list) == 0 {
			op = 1
		}
		pos := func(label string, n int) int { return rapid.IntRange(0, n-1).Draw(t, what+"_"+label) }
		switch op {
		case 0:
			i := pos("remove", len(list))
			list = slices.Delete(list, i, i+1)
		case 1:
			var x T
			switch {
			case len(pool) > 0 && (len(list) == 0 || chance(t, 80, what+"_from_pool")):
				x = pool[pos("pool", len(pool))]
			case len(list) > 0:
				x = list[pos("dup", len(list))]
			default:
				continue
			}
			list = slices.Insert(list, pos("insert", len(list)+1), x)
		case 2:
			i := pos("move_from", len(list))
			x := list[i]
			list = slices.Delete(list, i, i+1)
			list = slices.Insert(list, pos("move_to", len(list)+1), x)
		case 3:
			i, j := pos("swap_a", len(list)), pos("swap_b", len(list))
			list[i], list[j] = list[j], list[i]
		case 4:
			i := pos("change", len(list))
			list[i] = change(list[i])
		}
	}
	return list
}

// ChangeRate returns (a re-query of r in the corpus tests) r after pct% of its nodes (every 100/pct-th) and of
// its rows changed: a node's first string property gets " (edited)", or
// its first int grows by one, or it gains "edited": true; a row's first
// int cell grows by one.
func ChangeRate(r *wire.GraphResponse, pct int) *wire.GraphResponse {
	next := wiretest.Clone(r)
	step := 100 / pct
	for i := 0; i < len(next.Nodes); i += step {
		n := &next.Nodes[i]
		n.Properties = slices.Clone(n.Properties)
		done := false
		for j, p := range n.Properties {
			switch p.Value.Kind() {
			case wire.KindString:
				n.Properties[j].Value = wire.String(p.Value.Text() + " (edited)")
				done = true
			case wire.KindInt:
				n.Properties[j].Value = wire.Int(p.Value.Int() + 1)
				done = true
			}
			if done {
				break
			}
		}
		if !done {
			n.Properties = append(n.Properties, wire.Prop("edited", wire.Bool(true)))
		}
	}
	for i := 0; i < len(next.Rows); i += step {
		row := slices.Clone(next.Rows[i])
		for j, c := range row {
			if c.Node == nil && c.Value.Kind() == wire.KindInt {
				row[j].Value = wire.Int(c.Value.Int() + 1)
				break
			}
		}
		next.Rows[i] = row
	}
	return next
}
