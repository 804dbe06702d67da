package goon

import (
	"math"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// rowColumns fills e.cols with an aggregation's group columns, then
// metric columns, whose names must differ.
func (e *encoder) rowColumns(r *wire.GraphResponse) error {
	for i, g := range r.GroupColumns {
		if err := e.addColumn(wirecodec.GroupColumnPath, i, g.Name, g.Kind == wire.GroupByNode); err != nil {
			return err
		}
	}
	for i, c := range r.Columns {
		if err := e.addColumn(wirecodec.ColumnPath, i, c.Name, false); err != nil {
			return err
		}
	}
	return nil
}

// addColumn adds the column name, the i-th of those whose path is at.
func (e *encoder) addColumn(at func(int) wirecodec.Path, i int, name string, nodeKind bool) error {
	if !isName(name) {
		return notName(at(i).Field("name").String(), "name", name)
	}
	for _, c := range e.cols {
		if c.name == name {
			return &wire.EncodeError{Codec: Name, Path: at(i).Field("name").String(), Msg: "column name " + strconv.Quote(name) + " repeats (group and metric columns name row cells, so they must differ)"}
		}
	}
	e.cols = append(e.cols, rowCol{name: name, nodeKind: nodeKind})
	return nil
}

// firstCell returns the first cell of row named name, or nil.
func firstCell(row wire.Row, name string) *wire.Cell {
	for i := range row {
		if row[i].Name == name {
			return &row[i]
		}
	}
	return nil
}

// cellWrites reports whether a cell writes anything (not "", NaN, ±Inf).
func cellWrites(c *wire.Cell) bool {
	if c.Node != nil {
		return true
	}
	switch c.Value.Kind() {
	case wire.KindString:
		return c.Value.Text() != ""
	case wire.KindFloat:
		f := c.Value.Float()
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return true
}

func (e *encoder) rowWrites(row wire.Row) bool {
	for _, col := range e.cols {
		if c := firstCell(row, col.name); c != nil && cellWrites(c) {
			return true
		}
	}
	return false
}

// writeRows writes a line a row: an aggregation's cells in column order,
// any other row's every cell, in stored order; an empty row is left out.
func (e *encoder) writeRows(b []byte, r *wire.GraphResponse) ([]byte, error) {
	agg := e.agg
	for i, row := range r.Rows {
		start := len(b)
		n := len(row)
		if agg {
			n = len(e.cols)
		}
		for j := 0; j < n; j++ {
			var c *wire.Cell
			nodeKind := false
			if agg {
				c, nodeKind = firstCell(row, e.cols[j].name), e.cols[j].nodeKind
			} else if c = &row[j]; !isName(c.Name) {
				return b, notName(wirecodec.RowPath(i).Key(j, c.Name).String(), "cell name", c.Name)
			}
			if c == nil || !cellWrites(c) {
				continue
			}
			if len(b) > start {
				b = append(b, ' ')
			}
			var err error
			if b, err = e.appendCell(b, c, nodeKind, row, i); err != nil {
				return b, err
			}
		}
		if len(b) > start {
			b = append(b, '\n')
		}
		var err error
		if b, err = e.spill(b); err != nil {
			return b, err
		}
	}
	return b, nil
}

// appendCell appends name=value for a row cell: a node reference as
// Type:id, a string always quoted with forceQuote.
func (e *encoder) appendCell(b []byte, c *wire.Cell, forceQuote bool, row wire.Row, i int) ([]byte, error) {
	b = append(b, c.Name...)
	b = append(b, '=')
	if n := c.Node; n != nil {
		if !isName(n.Type) {
			j := 0
			for j < len(row) && &row[j] != c {
				j++
			}
			return b, notName(wirecodec.RowPath(i).Key(j, c.Name).Field("type").String(), "node type", n.Type)
		}
		b = append(b, n.Type...)
		b = append(b, ':')
		return textwire.AppendInt(b, n.ID), nil
	}
	v := c.Value
	switch v.Kind() {
	case wire.KindNull:
		return append(b, "null"...), nil
	case wire.KindBool:
		return strconv.AppendBool(b, v.Bool()), nil
	case wire.KindInt:
		return textwire.AppendInt(b, v.Int()), nil
	case wire.KindFloat:
		return strconv.AppendFloat(b, v.Float(), 'f', -1, 64), nil
	case wire.KindString:
		return appendText(b, c.Name, v.Text(), false, forceQuote), nil
	default: // list
		e.list = wire.AppendValueJSON(e.list[:0], v)
		e.maxList = max(e.maxList, len(e.list))
		return appendText(b, c.Name, e.listText(), false, forceQuote), nil
	}
}
