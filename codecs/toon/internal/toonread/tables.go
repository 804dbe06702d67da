package toonread

import (
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Sinks take the rows of chosen tables, and the items of chosen lists,
// as they are read, instead of their generic value; the rest of an array
// is checked as for any. Table and List are called at each tabular or
// list array's header with the keys enclosing it ("" for a list item) and
// its own, and return its sink, or nil for its generic value.
type Sinks interface {
	Table(path []string, h Header) TableSink
	List(path []string, h Header) ListSink
}

// A ListSink takes the items of one list array.
type ListSink interface {
	// Item reads one item, which it must not keep, its "- " on line; an
	// error ends the decode.
	Item(v jsonvalue.Value, line int) *wire.DecodeError
	// Value is what the document holds where the list is.
	Value() jsonvalue.Value
}

// A TableSink takes the rows of one table.
type TableSink interface {
	// Row reads one row; an error ends the decode with it.
	Row(r *Row) *wire.DecodeError
	// Value is what the document holds where the table is.
	Value() jsonvalue.Value
}

// Header is a tabular array's header as a TableSink's reader sees it.
type Header struct{ h header }

// Len is the declared number of rows.
func (h Header) Len() int { return h.h.length }

// Fields is the number of names in the flat field list, groups included.
func (h Header) Fields() int { return len(h.h.fields) }

// Field returns name i of the field list and the index past it and its
// group's members.
func (h Header) Field(i int) (name string, end int) {
	return h.h.fields[i].name, int(h.h.fields[i].end)
}

// Leaves is the number of cells a row holds.
func (h Header) Leaves() int { return h.h.leaves }

// Room is an upper bound of the rows or items the rest of the input can
// hold, to size what a sink keeps.
func (h Header) Room() int { return h.h.room }

// Row is one row of a table being read: its cells in the order of the
// header's leaves.
type Row struct {
	d      *decoder
	leaves int
	l      *textwire.Line
	c      string
	coff   int
	cs     cells
	n      int    // cells read
	v      Scalar // the cell Next read
}

// Line is the row's line number.
func (r *Row) Line() int { return r.l.Num }

// Next decodes the next cell, valid until the next call; a sink reads as
// many as the header has leaves (a missing one fails, as does one more).
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

// Scalar is a decoded primitive token (spec §4): Kind, and the field of
// that kind (the others mean nothing).
type Scalar struct {
	Kind uint8
	Bool bool
	Num  jsonvalue.Number
	Str  string
}
