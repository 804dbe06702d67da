package wirecodec

import (
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// MaterializedSize returns the length of r's canonical JSON: for a response
// the json codec accepts, exactly the length of its encoding. It counts
// rather than encodes, and counts a string or a node's properties shared by many
// places once per place (so a small response in memory may have a large
// materialised size), in time proportional to r's distinct contents.
func MaterializedSize(r *wire.GraphResponse) int64 { return measure(r).n }

// InMemorySize returns an estimate of the bytes r holds in memory as a
// decoder builds it, the measure that MaterializedLimit bounds
// beside the materialised size (see Limits.MaxExpansion):
//
//	unsafe.Sizeof(GraphResponse{}), plus unsafe.Sizeof(Pagination{}) when present
//	+ unsafe.Sizeof(Node{})        per element of nodes and per node cell of a row
//	+ unsafe.Sizeof(Property{})    per property
//	+ unsafe.Sizeof(Edge{}), Column{}, GroupColumn{} per element
//	+ unsafe.Sizeof(Row{})         per row (its slice header)
//	+ unsafe.Sizeof(Cell{})        per cell
//	+ unsafe.Sizeof(Value{})       per item of a list value
//	+ len(s)                       per string, name and key
//
// It counts what the slices hold, not their spare capacity, and a string
// per use, as if none were shared with the input or with another place,
// except that a string of 256 bytes or more, or a node's property list of
// 256 canonical JSON bytes or more, met again at the same address (a name
// table, a lifted node) is counted once.
func InMemorySize(r *wire.GraphResponse) int64 { return measure(r).mem }

// The sizes of the structs a decoded response is made of.
const (
	sizeResponse    = int64(unsafe.Sizeof(wire.GraphResponse{}))
	sizePagination  = int64(unsafe.Sizeof(wire.Pagination{}))
	sizeNode        = int64(unsafe.Sizeof(wire.Node{}))
	sizeProperty    = int64(unsafe.Sizeof(wire.Property{}))
	sizeEdge        = int64(unsafe.Sizeof(wire.Edge{}))
	sizeColumn      = int64(unsafe.Sizeof(wire.Column{}))
	sizeGroupColumn = int64(unsafe.Sizeof(wire.GroupColumn{}))
	sizeRow         = int64(unsafe.Sizeof(wire.Row{}))
	sizeCell        = int64(unsafe.Sizeof(wire.Cell{}))
	sizeValue       = int64(unsafe.Sizeof(wire.Value{}))
)

func measure(r *wire.GraphResponse) *Meter {
	m := &Meter{limit: math.MaxInt64, memLimit: math.MaxInt64, name: "MaxMaterializedBytes", cache: true}
	m.Response(r)
	return m
}

// Response adds every part of r, a response built already, then Finish.
// It reports false once the total is past the limit, with the position in
// r.Nodes of the node that passed it, or -1 when a later part did.
func (m *Meter) Response(r *wire.GraphResponse) (node int, ok bool) {
	for i := range r.Nodes {
		if !m.Node(&r.Nodes[i]) {
			return i, false
		}
	}
	for i := range r.Edges {
		if !m.Edge(&r.Edges[i]) {
			return -1, false
		}
	}
	for i := range r.Columns {
		if !m.Column(&r.Columns[i]) {
			return -1, false
		}
	}
	for i := range r.GroupColumns {
		if !m.GroupColumn(&r.GroupColumns[i]) {
			return -1, false
		}
	}
	for _, row := range r.Rows {
		if !m.Row(row) {
			return -1, false
		}
	}
	return -1, m.Finish(r)
}

// Meter adds up the materialised size of a response (see MaterializedSize)
// and its in-memory size (see InMemorySize) while a decoder builds it, so
// that the decoder can refuse a response past MaxMaterializedBytes, or
// past MaxExpansion times its input (see MaterializedLimit) in
// either measure, as soon as it gets there rather than after building
// it. Every built-in decoder uses one.
//
// Give the meter each part once, as it is decoded, in any order: Node for
// each element of nodes, Edge, Column and GroupColumn likewise, Cell for
// each cell of a row and then EndRow (or Row for a whole row), and Finish
// once with the response when its top-level fields are known. Each method
// reports false once the total is past the limit; the total is then
// MaterializedSize of the response so far, give or take the separators of
// unfinished sequences, and after Finish it is exact.
//
// A Meter remembers the size of long strings and of nodes' property lists
// by their address, so a decoder that shares one string or one property
// list among many places (a name table, a lifted node) is charged for every
// use in constant time per use.
type Meter struct {
	limit int64
	name  string // the wire.Limits field that sets limit
	input int64  // the length of the input
	ratio int64  // MaxExpansion
	n     int64  // canonical JSON bytes
	mem   int64  // estimated bytes in memory (see InMemorySize)
	over  bool   // mem, not n, passed memLimit
	// memLimit bounds mem: MaxExpansion times the input plus
	// ExpansionAllowance, whatever MaxMaterializedBytes.
	memLimit int64
	cache    bool
	// loose, for Measure, counts a string as its bytes and quotes
	// without looking at them, and slack as the most its escapes could
	// add (five bytes a byte: a control character written \u00XX): the
	// canonical JSON size is within [n, n+slack], and add compares
	// n+slack with limit.
	loose bool
	slack int64
	// Clean, set by a decoder around the charge of a part whose strings
	// it took as they were from input that holds no escape and is valid
	// UTF-8 (the json codec's reader), counts a string as its bytes and
	// quotes without reading it: exactly its canonical JSON length.
	Clean bool
	strs  map[addrKey]int64
	props map[addrKey]int64
}

type addrKey struct {
	p unsafe.Pointer
	n int
}

// cacheMin is the shortest string, in bytes, or the smallest property list,
// in canonical JSON bytes, whose size a Meter remembers.
const cacheMin = 256

// NewMeter returns the Meter of a decoder configured with l reading an
// input of n bytes: it reports false once the size passes
// l.MaterializedLimit(n), the smaller of MaxMaterializedBytes and
// MaxExpansion times n plus ExpansionAllowance. Zero fields of l select
// their defaults.
func NewMeter(l wire.Limits, n int) *Meter {
	m := newMeter(l, n)
	return &m
}

func newMeter(l wire.Limits, n int) Meter {
	limit, name := materializedLimit(l, int64(n))
	ratio := int64(l.MaxExpansion)
	if ratio <= 0 {
		ratio = int64(wire.DefaultLimits().MaxExpansion)
	}
	return Meter{limit: limit, name: name, input: int64(n), ratio: ratio, cache: true, memLimit: expansionLimit(ratio, int64(n))}
}

// Within reports whether r, decoded from an input of n bytes, is surely
// within what NewMeter(l, n) allows, without reading its strings: it
// counts each string as its bytes and quotes, and as the most its escapes
// could add, as Measure does. True settles it; false says only that a
// Meter must measure r exactly to decide (and to name the place it
// passes the limit). A decoder that builds the whole response before it
// measures it asks Within first.
func Within(l wire.Limits, n int, r *wire.GraphResponse) bool {
	m := newMeter(l, n)
	m.loose, m.cache = true, false
	_, ok := m.Response(r)
	return ok
}

// Size returns the size counted so far.
func (m *Meter) Size() int64 { return m.n }

// Limit returns the limit the meter enforces on the materialised size.
func (m *Meter) Limit() int64 { return m.limit }

// LimitName returns the Limits field that sets the limit passed, for the
// Limit of a decoder's *DecodeError: "MaxExpansion" when the in-memory
// size passed it, or when MaxExpansion times the input plus
// ExpansionAllowance is below MaxMaterializedBytes, otherwise
// "MaxMaterializedBytes".
func (m *Meter) LimitName() string {
	if m.over {
		return "MaxExpansion"
	}
	return m.name
}

// Fits reports whether n more bytes would keep the materialised size
// within the limit.
// A decoder asks before it allocates for materialisation its input does
// not hold (a value restored to a declared length), and gives the meter
// the part that holds it afterwards as usual.
func (m *Meter) Fits(n int64) bool { return n >= 0 && n <= m.limit-m.n }

// InMemory returns the in-memory size counted so far (see InMemorySize).
func (m *Meter) InMemory() int64 { return m.mem }

// MemoryRoom returns the in-memory size (see InMemorySize) the meter
// allows beyond what it has counted, at least 0: a decoder that reserves
// room for elements it has yet to read reserves no more than this (and
// one element), so that its scratch stays within what the meter would
// accept, and the meter refuses before the reserve runs out.
func (m *Meter) MemoryRoom() int64 { return max(m.memLimit-m.mem, 0) }

// Msg describes the refusal, for the Msg of a decoder's *DecodeError
// whose Limit is m.LimitName().
func (m *Meter) Msg() string {
	s := "the decoded response would take more than " + strconv.FormatInt(m.limit, 10) + " bytes as canonical JSON"
	if m.over {
		s = "the decoded response would take more than " + strconv.FormatInt(m.memLimit, 10) + " bytes in memory"
	}
	if m.over || m.name == "MaxExpansion" {
		return s + ", " + strconv.FormatInt(m.ratio, 10) + " times its input of " + strconv.FormatInt(m.input, 10) +
			" bytes plus " + strconv.Itoa(ExpansionAllowance) + " (MaxExpansion)"
	}
	return s + " (MaxMaterializedBytes)"
}

func (m *Meter) add(n, mem int64) bool {
	m.n += n
	m.mem += mem
	if m.mem > m.memLimit && m.n+m.slack <= m.limit {
		m.over = true
	}
	return m.n+m.slack <= m.limit && m.mem <= m.memLimit
}

// Node adds n as an element of the response's nodes.
func (m *Meter) Node(n *wire.Node) bool { return m.node(n, m.inlineProps(n.Properties)) }

// node adds n, whose properties take props bytes after its id
// (inlineProps).
func (m *Meter) node(n *wire.Node, props int64) bool {
	return m.add(int64(len(`{"type":`)+len(`,"id":`)+len(`}`)+len(`,`))+
		m.str(n.Type)+idLen(n.ID)+props, sizeNode)
}

// Edge adds e as an element of the response's edges.
func (m *Meter) Edge(e *wire.Edge) bool {
	s := int64(len(`{"from":`)+len(`,"from_id":`)+len(`,"to":`)+len(`,"to_id":`)+len(`,"type":`)+len(`}`)+len(`,`)) +
		m.str(e.From) + idLen(e.FromID) + m.str(e.To) + idLen(e.ToID) + m.str(e.Type)
	if e.Depth.Valid {
		s += int64(len(`,"depth":`)) + intLen(e.Depth.V)
	}
	if e.PathID.Valid {
		s += int64(len(`,"path_id":`)) + intLen(e.PathID.V)
	}
	if e.Step.Valid {
		s += int64(len(`,"step":`)) + intLen(e.Step.V)
	}
	return m.add(s, sizeEdge)
}

// Column adds c as an element of the response's columns.
func (m *Meter) Column(c *wire.Column) bool {
	s := int64(len(`{"name":`)+len(`,"function":`)+len(`}`)+len(`,`)) + m.str(c.Name) + m.str(c.Function)
	return m.add(s+m.optStr(`,"target":`, c.Target)+m.optStr(`,"property":`, c.Property), sizeColumn)
}

// optStr is the size of an optional string member, its key included: 0
// when absent.
func (m *Meter) optStr(key string, o wire.Opt[string]) int64 {
	if !o.Valid {
		return 0
	}
	return int64(len(key)) + m.str(o.V)
}

// GroupColumn adds g as an element of the response's group columns.
func (m *Meter) GroupColumn(g *wire.GroupColumn) bool {
	s := int64(len(`{"name":`)+len(`,"kind":`)+len(`,"node":`)+len(`}`)+len(`,`)) +
		m.str(g.Name) + m.str(string(g.Kind)) + m.str(g.Node)
	return m.add(s+m.optStr(`,"property":`, g.Property)+m.optStr(`,"entity":`, g.Entity), sizeGroupColumn)
}

// Cell adds c as a cell of the row being decoded; EndRow ends the row.
func (m *Meter) Cell(c *wire.Cell) bool {
	s := int64(len(`:`)+len(`,`)) + m.str(c.Name)
	mem := sizeCell
	if c.Node != nil {
		s += int64(len(`{"type":`)+len(`,"id":`)+len(`,"properties":{`)+len(`}}`)) +
			m.str(c.Node.Type) + idLen(c.Node.ID) + m.refProps(c.Node.Properties)
		mem += sizeNode
	} else {
		s += m.value(c.Value)
	}
	return m.add(s, mem)
}

// EndRow ends a row of the given number of cells, each already given to
// Cell, as an element of the response's rows.
func (m *Meter) EndRow(cells int) bool {
	s := int64(len(`{}`) + len(`,`))
	if cells > 0 {
		s-- // n cells have n-1 separators
	}
	return m.add(s, sizeRow)
}

// Row adds a whole row: Cell for each cell, then EndRow.
func (m *Meter) Row(row wire.Row) bool {
	for i := range row {
		if !m.Cell(&row[i]) {
			return false
		}
	}
	return m.EndRow(len(row))
}

// Finish adds the response's own fields and the brackets and separators of
// its sequences, whose elements must already have been given to the meter.
func (m *Meter) Finish(r *wire.GraphResponse) bool {
	s := int64(len(`{"format_version":`)+len(`,"query_type":`)+len(`,"nodes":[`)+len(`],"edges":[`)+len(`]`)+len(`}`)) +
		m.str(r.FormatVersion) + m.str(string(r.QueryType))
	// Each element was counted with a separator; a sequence of n has n-1.
	sep := func(n int) int64 {
		if n > 0 {
			return -1
		}
		return 0
	}
	s += sep(len(r.Nodes)) + sep(len(r.Edges))
	mem := sizeResponse
	if r.Columns != nil {
		s += int64(len(`,"columns":[`)+len(`]`)) + sep(len(r.Columns))
	}
	if r.GroupColumns != nil {
		s += int64(len(`,"group_columns":[`)+len(`]`)) + sep(len(r.GroupColumns))
	}
	if r.Rows != nil {
		s += int64(len(`,"rows":[`)+len(`]`)) + sep(len(r.Rows))
	}
	if p := r.Pagination; p != nil {
		mem += sizePagination
		s += int64(len(`,"pagination":{"has_more":`)+len(`}`)) + boolLen(p.HasMore)
		if p.TotalRows.Valid {
			s += int64(len(`,"total_rows":`)) + intLen(p.TotalRows.V)
		}
		if p.Truncated.Valid {
			s += int64(len(`,"truncated":`)) + boolLen(p.Truncated.V)
		}
		s += m.optStr(`,"next_cursor":`, p.NextCursor)
	}
	return m.add(s, mem)
}

// inlineProps is the size of ps written inside a node object after its id:
// a separator, key, colon and value each.
func (m *Meter) inlineProps(ps []wire.Property) int64 {
	if len(ps) == 0 {
		return 0
	}
	return inlineSize(m.props1(ps), len(ps))
}

// inlineSize is the size of n properties written inside a node object
// after its id, given props1's size of their keys, colons and values.
func inlineSize(props1 int64, n int) int64 { return props1 + int64(n) } // a ',' before each

// refProps is the size of ps inside a node reference's properties object.
func (m *Meter) refProps(ps []wire.Property) int64 {
	if len(ps) == 0 {
		return 0
	}
	return m.props1(ps) + int64(len(ps)-1)
}

// props1 is the size of the keys, colons and values of ps.
func (m *Meter) props1(ps []wire.Property) int64 {
	if m.props != nil {
		if s, ok := m.props[addrKey{unsafe.Pointer(unsafe.SliceData(ps)), len(ps)}]; ok {
			return s
		}
	}
	var s int64
	for i := range ps {
		s += m.str(ps[i].Key) + 1 + m.value(ps[i].Value)
	}
	m.mem += int64(len(ps)) * sizeProperty
	if m.cache && s >= cacheMin {
		if m.props == nil {
			m.props = make(map[addrKey]int64)
		}
		m.props[addrKey{unsafe.Pointer(unsafe.SliceData(ps)), len(ps)}] = s
	}
	return s
}

// value is the size of v in canonical JSON.
func (m *Meter) value(v wire.Value) int64 {
	switch v.Kind() {
	case wire.KindNull:
		return int64(len("null"))
	case wire.KindBool:
		return boolLen(v.Bool())
	case wire.KindInt:
		return intLen(v.Int())
	case wire.KindFloat:
		var buf [32]byte
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return int64(len(strconv.AppendFloat(buf[:0], f, 'g', -1, 64)))
		}
		return int64(len(textwire.AppendFloat(buf[:0], f)))
	case wire.KindString:
		return m.str(v.Text())
	case wire.KindList:
		s := int64(len(`[]`))
		m.mem += int64(len(v.List())) * sizeValue
		if len(v.List()) > 1 {
			s += int64(len(v.List()) - 1)
		}
		for _, x := range v.List() {
			s += m.value(x)
		}
		return s
	}
	return 0
}

// str is the size of s as a canonical JSON string, remembered by address
// for long strings. It adds the bytes of s to the in-memory size, once
// for a long string it remembers.
func (m *Meter) str(s string) int64 {
	if m.loose {
		m.mem += int64(len(s))
		m.slack += 5 * int64(len(s))
		return int64(len(s)) + 2
	}
	if len(s) < cacheMin || !m.cache {
		m.mem += int64(len(s))
		if m.Clean {
			return int64(len(s)) + 2
		}
		return jsonQuotedLen(s)
	}
	k := addrKey{unsafe.Pointer(unsafe.StringData(s)), len(s)}
	if n, ok := m.strs[k]; ok {
		return n
	}
	m.mem += int64(len(s))
	n := int64(len(s)) + 2
	if !m.Clean {
		n = jsonQuotedLen(s)
	}
	if m.strs == nil {
		m.strs = make(map[addrKey]int64)
	}
	m.strs[k] = n
	return n
}

// DecodedLen returns the length of s once each byte that is not part of
// valid UTF-8 is replaced by U+FFFD (three bytes), as canonical JSON writes
// it: the length a decoder returns for s. It is the measure of
// MaxStringBytes.
func DecodedLen(s string) int {
	if utf8.ValidString(s) {
		return len(s)
	}
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += len("\ufffd")
		} else {
			n += size
		}
		i += size
	}
	return n
}

func intLen(i int64) int64 {
	if i < 0 {
		return int64(textwire.DecimalLen(-uint64(i))) + 1
	}
	return int64(textwire.DecimalLen(uint64(i)))
}

func idLen(i int64) int64 { return intLen(i) + 2 } // in quotes

func boolLen(b bool) int64 {
	if b {
		return int64(len("true"))
	}
	return int64(len("false"))
}
