package toonread

import (
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// Sinks let the GraphResponse codec take the rows of chosen tables, and
// the items of chosen lists, as they are read, instead of their generic
// value, in the one pass that reads the rest of the document. Everything
// else about an array (header, length, cells, indentation, limits) is
// checked as for any array.
//
// Table and List are called at the header of each tabular or list array.
// path holds the keys of the objects enclosing it, "" for a list item,
// then the array's own key. They return the sink of the array, or nil for
// its generic value.
type Sinks interface {
	Table(path []string, h Header) TableSink
	List(path []string, h Header) ListSink
}

// A ListSink takes the items of one list array.
type ListSink interface {
	// Item reads one item, its generic value, which it must not keep
	// (an object item's members are reused for the next one); line is
	// the line of its "- ". An error ends the decode with it.
	Item(v jsonvalue.Value, line int) *wire.DecodeError
	// Value is what the document holds where the list is, once its items
	// are read.
	Value() jsonvalue.Value
}

// A TableSink takes the rows of one table.
type TableSink interface {
	// Row reads one row; an error ends the decode with it.
	Row(r *Row) *wire.DecodeError
	// Value is what the document holds where the table is, once its rows
	// are read.
	Value() jsonvalue.Value
}

// Header is a tabular array's header as a TableSink's reader sees it.
type Header struct{ h header }

// Len is the declared number of rows.
func (h Header) Len() int { return h.h.length }

// Fields is the number of names in the field list, group names included
// (the list is flat: a group's members follow it up to End).
func (h Header) Fields() int { return len(h.h.fields) }

// Field returns name i of the field list and the index past it and, for
// a field group, past its members.
func (h Header) Field(i int) (name string, end int) {
	return h.h.fields[i].name, int(h.h.fields[i].end)
}

// Leaves is the number of cells a row holds.
func (h Header) Leaves() int { return h.h.leaves }

// Room is an upper bound of the rows or items the rest of the input can
// hold (a row takes at least a byte a cell, an item two), to size what a
// sink keeps by what is there rather than by the declared length.
func (h Header) Room() int { return h.h.room }

// Row is one row of a table being read: its cells in the order of the
// header's leaves.
type Row struct {
	d      *decoder
	leaves int
	l      *line
	c      string
	coff   int
	cs     cells
	n      int    // cells read
	v      Scalar // the cell Next read
}

// Line is the row's line number.
func (r *Row) Line() int { return r.l.num }

// Next decodes the next cell, valid until the next call; the caller reads
// as many as the header has leaves. The cells are split as they are read:
// a row with fewer fails at the first missing, one with more once the
// sink has read its own.
func (r *Row) Next() *Scalar {
	sp := r.span()
	r.d.scalar(r.l, r.c[sp.start:sp.end], r.coff+sp.start, &r.v)
	return &r.v
}

// span splits off the next cell, failing when there is none.
func (r *Row) span() span {
	sp, ok := r.cs.next()
	if !ok {
		r.d.fail(r.l, r.coff, "row has %d values but the header declares %d fields", r.n, r.leaves)
	}
	r.n++
	return sp
}

// end fails at a cell past the header's leaves.
func (r *Row) end() {
	if sp, ok := r.cs.next(); ok {
		r.d.fail(r.l, r.coff+sp.start, "row has more than the %d values the header declares", r.leaves)
	}
}

// The kinds of a Scalar.
const (
	Null = iota
	Bool
	Number
	String
)

// Scalar is a primitive value token (spec §4), decoded: Kind, and the
// Bool, Num or Str it holds; the other two fields are left over from an
// earlier token and mean nothing.
type Scalar struct {
	Kind uint8
	Bool bool
	Num  jsonvalue.Number
	Str  string
}
