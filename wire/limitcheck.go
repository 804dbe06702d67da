package wire

import (
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Check reports whether a decoder configured with l would accept r, so that
// an encoder can refuse what its own decoder would refuse. It returns nil,
// or an *EncodeError for codec naming the first place past a limit (Path
// "nodes[3].properties.tags[0]", Limit "MaxDepth"), which matches
// errors.Is(err, ErrLimit).
//
// It checks, in one walk of r: list nesting against MaxDepth; the length
// of every sequence (nodes, edges, columns, group columns, rows, the cells
// of a row, the properties of a node, the items of a list) against
// MaxElements; every string, name and key against MaxStringBytes, measured
// as a decoder returns it (an invalid UTF-8 byte counts as the three bytes
// of U+FFFD, which canonical JSON writes for it); and MaterializedSize(r)
// against MaxMaterializedBytes. MaxInputBytes bounds an encoding, not a
// response: each encoder compares its own output with it.
//
// Zero fields of l select their defaults; a negative field gives an
// *EncodeError. Check does not allocate unless it fails.
func (l Limits) Check(codec string, r *GraphResponse) error {
	l, err := l.WithDefaults()
	if err != nil {
		return &EncodeError{Codec: codec, Msg: err.Error()}
	}
	if r == nil {
		return nil
	}
	c := checker{l: l, m: Meter{limit: l.MaxMaterializedBytes}}
	return c.response(codec, r)
}

// MaterializedSize returns the length of r's canonical JSON: for a response
// AppendJSON accepts, exactly len(AppendJSON(nil, r)). It counts rather
// than encodes, and counts a string or a node's properties shared by many
// places once per place (so a small response in memory may have a large
// materialised size), in time proportional to r's distinct contents.
func MaterializedSize(r *GraphResponse) int64 {
	m := NewMeter(math.MaxInt64)
	for i := range r.Nodes {
		m.Node(&r.Nodes[i])
	}
	for i := range r.Edges {
		m.Edge(&r.Edges[i])
	}
	for i := range r.Columns {
		m.Column(&r.Columns[i])
	}
	for i := range r.GroupColumns {
		m.GroupColumn(&r.GroupColumns[i])
	}
	for _, row := range r.Rows {
		m.Row(row)
	}
	m.Finish(r)
	return m.Size()
}

// Meter adds up the materialised size of a response (see MaterializedSize)
// while a decoder builds it, so that the decoder can refuse a response past
// MaxMaterializedBytes as soon as it gets there rather than after building
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
	n     int64
	cache bool
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

// NewMeter returns a Meter that reports false once the size passes limit;
// a limit ≤ 0 selects DefaultMaxMaterializedBytes. Pass a decoder's
// Limits.MaxMaterializedBytes.
func NewMeter(limit int64) *Meter {
	if limit <= 0 {
		limit = DefaultMaxMaterializedBytes
	}
	return &Meter{limit: limit, cache: true}
}

// Size returns the size counted so far.
func (m *Meter) Size() int64 { return m.n }

// Limit returns the limit the meter enforces.
func (m *Meter) Limit() int64 { return m.limit }

// Msg describes the refusal, for the Msg of a decoder's *DecodeError
// whose Limit is "MaxMaterializedBytes".
func (m *Meter) Msg() string {
	return "the decoded response would take more than " + strconv.FormatInt(m.limit, 10) +
		" bytes as canonical JSON (MaxMaterializedBytes)"
}

func (m *Meter) add(n int64) bool {
	m.n += n
	return m.n <= m.limit
}

// Node adds n as an element of the response's nodes.
func (m *Meter) Node(n *Node) bool {
	return m.add(int64(len(`{"type":`)+len(`,"id":`)+len(`}`)+len(`,`)) +
		m.str(n.Type) + idLen(n.ID) + m.inlineProps(n.Properties))
}

// Edge adds e as an element of the response's edges.
func (m *Meter) Edge(e *Edge) bool {
	s := int64(len(`{"from":`)+len(`,"from_id":`)+len(`,"to":`)+len(`,"to_id":`)+len(`,"type":`)+len(`}`)+len(`,`)) +
		m.str(e.From) + idLen(e.FromID) + m.str(e.To) + idLen(e.ToID) + m.str(e.Type)
	if e.Depth.Valid {
		s += int64(len(`,"depth":`)) + intLen(e.Depth.Int)
	}
	if e.PathID.Valid {
		s += int64(len(`,"path_id":`)) + intLen(e.PathID.Int)
	}
	if e.Step.Valid {
		s += int64(len(`,"step":`)) + intLen(e.Step.Int)
	}
	return m.add(s)
}

// Column adds c as an element of the response's columns.
func (m *Meter) Column(c *Column) bool {
	s := int64(len(`{"name":`)+len(`,"function":`)+len(`}`)+len(`,`)) + m.str(c.Name) + m.str(c.Function)
	if c.Target.Valid {
		s += int64(len(`,"target":`)) + m.str(c.Target.String)
	}
	if c.Property.Valid {
		s += int64(len(`,"property":`)) + m.str(c.Property.String)
	}
	return m.add(s)
}

// GroupColumn adds g as an element of the response's group columns.
func (m *Meter) GroupColumn(g *GroupColumn) bool {
	s := int64(len(`{"name":`)+len(`,"kind":`)+len(`,"node":`)+len(`}`)+len(`,`)) +
		m.str(g.Name) + m.str(string(g.Kind)) + m.str(g.Node)
	if g.Property.Valid {
		s += int64(len(`,"property":`)) + m.str(g.Property.String)
	}
	if g.Entity.Valid {
		s += int64(len(`,"entity":`)) + m.str(g.Entity.String)
	}
	return m.add(s)
}

// Cell adds c as a cell of the row being decoded; EndRow ends the row.
func (m *Meter) Cell(c *Cell) bool {
	s := int64(len(`:`)+len(`,`)) + m.str(c.Name)
	if c.Node != nil {
		s += int64(len(`{"type":`)+len(`,"id":`)+len(`,"properties":{`)+len(`}}`)) +
			m.str(c.Node.Type) + idLen(c.Node.ID) + m.refProps(c.Node.Properties)
	} else {
		s += m.value(c.Value)
	}
	return m.add(s)
}

// EndRow ends a row of the given number of cells, each already given to
// Cell, as an element of the response's rows.
func (m *Meter) EndRow(cells int) bool {
	s := int64(len(`{}`) + len(`,`))
	if cells > 0 {
		s-- // n cells have n-1 separators
	}
	return m.add(s)
}

// Row adds a whole row: Cell for each cell, then EndRow.
func (m *Meter) Row(row Row) bool {
	for i := range row {
		if !m.Cell(&row[i]) {
			return false
		}
	}
	return m.EndRow(len(row))
}

// Finish adds the response's own fields and the brackets and separators of
// its sequences, whose elements must already have been given to the meter.
func (m *Meter) Finish(r *GraphResponse) bool {
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
		s += int64(len(`,"pagination":{"has_more":`)+len(`}`)) + boolLen(p.HasMore)
		if p.TotalRows.Valid {
			s += int64(len(`,"total_rows":`)) + intLen(p.TotalRows.Int)
		}
		if p.Truncated.Valid {
			s += int64(len(`,"truncated":`)) + boolLen(p.Truncated.Bool)
		}
		if p.NextCursor.Valid {
			s += int64(len(`,"next_cursor":`)) + m.str(p.NextCursor.String)
		}
	}
	return m.add(s)
}

// inlineProps is the size of ps written inside a node object after its id:
// a separator, key, colon and value each.
func (m *Meter) inlineProps(ps []Property) int64 {
	if len(ps) == 0 {
		return 0
	}
	return m.props1(ps) + int64(len(ps)) // a ',' before each
}

// refProps is the size of ps inside a node reference's properties object.
func (m *Meter) refProps(ps []Property) int64 {
	if len(ps) == 0 {
		return 0
	}
	return m.props1(ps) + int64(len(ps)-1)
}

// props1 is the size of the keys, colons and values of ps.
func (m *Meter) props1(ps []Property) int64 {
	if m.props != nil {
		if s, ok := m.props[addrKey{unsafe.Pointer(unsafe.SliceData(ps)), len(ps)}]; ok {
			return s
		}
	}
	var s int64
	for i := range ps {
		s += m.str(ps[i].Key) + 1 + m.value(ps[i].Value)
	}
	if m.cache && s >= cacheMin {
		if m.props == nil {
			m.props = make(map[addrKey]int64)
		}
		m.props[addrKey{unsafe.Pointer(unsafe.SliceData(ps)), len(ps)}] = s
	}
	return s
}

// value is the size of v in canonical JSON.
func (m *Meter) value(v Value) int64 {
	switch v.kind {
	case KindNull:
		return int64(len("null"))
	case KindBool:
		return boolLen(v.Bool())
	case KindInt:
		return intLen(v.Int())
	case KindFloat:
		var buf [32]byte
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return int64(len(strconv.AppendFloat(buf[:0], f, 'g', -1, 64)))
		}
		return int64(len(AppendJSONFloat(buf[:0], f)))
	case KindString:
		return m.str(v.str)
	case KindList:
		s := int64(len(`[]`))
		if len(v.list) > 1 {
			s += int64(len(v.list) - 1)
		}
		for _, x := range v.list {
			s += m.value(x)
		}
		return s
	}
	return 0
}

// str is the size of s as a canonical JSON string, remembered by address
// for long strings.
func (m *Meter) str(s string) int64 {
	if len(s) < cacheMin || !m.cache {
		return jsonStringLen(s)
	}
	k := addrKey{unsafe.Pointer(unsafe.StringData(s)), len(s)}
	if n, ok := m.strs[k]; ok {
		return n
	}
	n := jsonStringLen(s)
	if m.strs == nil {
		m.strs = make(map[addrKey]int64)
	}
	m.strs[k] = n
	return n
}

// jsonLen[c] is the length AppendJSONString writes for the ASCII byte c,
// and 0 for the bytes of multi-byte sequences.
var jsonLen = func() (t [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case safeASCII[c]:
			t[c] = 1
		case c == '"', c == '\\', c == '\n', c == '\r', c == '\t', c == '\b', c == '\f':
			t[c] = 2
		default:
			t[c] = 6 // \u00XX
		}
	}
	return t
}()

// jsonStringLen returns len(AppendJSONString(nil, s)) without writing it.
func jsonStringLen(s string) int64 {
	n := int64(2)
	for i := 0; i < len(s); {
		if l := jsonLen[s[i]]; l != 0 {
			n += int64(l)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += int64(len("\ufffd"))
		} else {
			n += int64(size)
		}
		i += size
	}
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
	n := int64(1)
	u := uint64(i)
	if i < 0 {
		n++
		u = -u
	}
	for u >= 10 {
		u /= 10
		n++
	}
	return n
}

func idLen(i int64) int64 { return intLen(i) + 2 } // in quotes

func boolLen(b bool) int64 {
	if b {
		return int64(len("true"))
	}
	return int64(len("false"))
}

// checker walks a response for Limits.Check.
type checker struct {
	l Limits
	m Meter
}

// A path names a place in a response for an *EncodeError. The walk keeps
// it on the stack, each step pointing to its parent; the string is built
// only on failure.
type path struct {
	parent *path
	key    string // a field, cell or property key; when "" the step is index
	index  int
}

func (p *path) key1(k string) path { return path{parent: p, key: k} }
func (p *path) idx(i int) path     { return path{parent: p, index: i} }

func (p *path) append(b []byte) []byte {
	if p == nil {
		return b
	}
	b = p.parent.append(b)
	if p.key == "" {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p.index), 10)
		return append(b, ']')
	}
	if len(b) > 0 {
		b = append(b, '.')
	}
	return append(b, p.key...)
}

func (c *checker) fail(codec, limit, msg string, p *path) error {
	return &EncodeError{Codec: codec, Path: string(p.append(nil)), Msg: msg, Limit: limit}
}

func (c *checker) tooMany(codec string, n int, p *path) error {
	return c.fail(codec, "MaxElements", strconv.Itoa(n)+" elements, more than the limit of "+strconv.Itoa(c.l.MaxElements), p)
}

func (c *checker) tooLong(codec string, s string, p *path) error {
	return c.fail(codec, "MaxStringBytes", "a string of "+strconv.Itoa(DecodedLen(s))+" bytes, longer than the limit of "+strconv.Itoa(c.l.MaxStringBytes), p)
}

func (c *checker) tooBig(codec string, p *path) error {
	return c.fail(codec, "MaxMaterializedBytes", "the response would take more than "+strconv.FormatInt(c.l.MaxMaterializedBytes, 10)+" bytes as canonical JSON", p)
}

// strOK reports whether s is within MaxStringBytes, without scanning it
// when even three bytes for each of its bytes would be.
func (c *checker) strOK(s string) bool {
	return len(s) <= c.l.MaxStringBytes/3 || DecodedLen(s) <= c.l.MaxStringBytes
}

// field is a named string field, for checking several in a loop.
type field struct {
	name string
	v    string
}

func (c *checker) fields(codec string, p *path, fs ...field) error {
	for _, f := range fs {
		if !c.strOK(f.v) {
			fp := p.key1(f.name)
			return c.tooLong(codec, f.v, &fp)
		}
	}
	return nil
}

func (c *checker) response(codec string, r *GraphResponse) error {
	// The query type and group kinds are enumerations, short whatever
	// the limit; decoders compare them with their values, not a length.
	if err := c.fields(codec, nil, field{"format_version", r.FormatVersion}); err != nil {
		return err
	}
	if pg := r.Pagination; pg != nil && pg.NextCursor.Valid && !c.strOK(pg.NextCursor.String) {
		p := path{key: "pagination"}
		fp := p.key1("next_cursor")
		return c.tooLong(codec, pg.NextCursor.String, &fp)
	}
	p := path{key: "nodes"}
	if len(r.Nodes) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Nodes), &p)
	}
	for i := range r.Nodes {
		n := &r.Nodes[i]
		np := p.idx(i)
		if err := c.node(codec, n, &np); err != nil {
			return err
		}
		if !c.m.Node(n) {
			return c.tooBig(codec, &np)
		}
	}
	p = path{key: "edges"}
	if len(r.Edges) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Edges), &p)
	}
	for i := range r.Edges {
		e := &r.Edges[i]
		ep := p.idx(i)
		if err := c.fields(codec, &ep, field{"from", e.From}, field{"to", e.To}, field{"type", e.Type}); err != nil {
			return err
		}
		if !c.m.Edge(e) {
			return c.tooBig(codec, &ep)
		}
	}
	p = path{key: "columns"}
	if len(r.Columns) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Columns), &p)
	}
	for i := range r.Columns {
		col := &r.Columns[i]
		cp := p.idx(i)
		if err := c.fields(codec, &cp, field{"name", col.Name}, field{"function", col.Function},
			field{"target", col.Target.String}, field{"property", col.Property.String}); err != nil {
			return err
		}
		if !c.m.Column(col) {
			return c.tooBig(codec, &cp)
		}
	}
	p = path{key: "group_columns"}
	if len(r.GroupColumns) > c.l.MaxElements {
		return c.tooMany(codec, len(r.GroupColumns), &p)
	}
	for i := range r.GroupColumns {
		g := &r.GroupColumns[i]
		gp := p.idx(i)
		if err := c.fields(codec, &gp, field{"name", g.Name}, field{"node", g.Node},
			field{"property", g.Property.String}, field{"entity", g.Entity.String}); err != nil {
			return err
		}
		if !c.m.GroupColumn(g) {
			return c.tooBig(codec, &gp)
		}
	}
	p = path{key: "rows"}
	if len(r.Rows) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Rows), &p)
	}
	for i, row := range r.Rows {
		rp := p.idx(i)
		if len(row) > c.l.MaxElements {
			return c.tooMany(codec, len(row), &rp)
		}
		for j := range row {
			cell := &row[j]
			if !c.strOK(cell.Name) {
				cp := rp.idx(j)
				return c.tooLong(codec, cell.Name, &cp)
			}
			cp := rp.key1(cell.Name)
			if n := cell.Node; n != nil {
				if err := c.node(codec, n, &cp); err != nil {
					return err
				}
			} else if err := c.value(codec, cell.Value, &cp); err != nil {
				return err
			}
			if !c.m.Cell(cell) {
				return c.tooBig(codec, &cp)
			}
		}
		if !c.m.EndRow(len(row)) {
			return c.tooBig(codec, &rp)
		}
	}
	if !c.m.Finish(r) {
		return c.tooBig(codec, nil)
	}
	return nil
}

// node checks the type and the properties of the node at p, an element of
// nodes or a row cell.
func (c *checker) node(codec string, n *Node, p *path) error {
	if err := c.fields(codec, p, field{"type", n.Type}); err != nil {
		return err
	}
	return c.props(codec, n.Properties, p)
}

// props checks the properties of the node at p.
func (c *checker) props(codec string, ps []Property, p *path) error {
	pp := p.key1("properties")
	if len(ps) > c.l.MaxElements {
		return c.tooMany(codec, len(ps), &pp)
	}
	for j := range ps {
		pr := &ps[j]
		if !c.strOK(pr.Key) {
			kp := pp.idx(j)
			return c.tooLong(codec, pr.Key, &kp)
		}
		if pr.Value.kind == KindString || pr.Value.kind == KindList {
			kp := pp.key1(pr.Key)
			if err := c.value(codec, pr.Value, &kp); err != nil {
				return err
			}
		}
	}
	return nil
}

// value checks v at p.
func (c *checker) value(codec string, v Value, p *path) error {
	f := c.value1(v, 0)
	if f == nil {
		return nil
	}
	b := p.append(nil)
	for i := len(f.at) - 1; i >= 0; i-- {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(f.at[i]), 10)
		b = append(b, ']')
	}
	return &EncodeError{Codec: codec, Path: string(b), Msg: f.msg, Limit: f.limit}
}

// valueFail is a failure inside a value: at holds the list indices leading
// to it, innermost first, collected as the walk unwinds.
type valueFail struct {
	limit, msg string
	at         []int
}

// value1 checks v, inside depth lists.
func (c *checker) value1(v Value, depth int) *valueFail {
	switch v.kind {
	case KindString:
		if !c.strOK(v.str) {
			return &valueFail{limit: "MaxStringBytes", msg: "a string of " + strconv.Itoa(DecodedLen(v.str)) +
				" bytes, longer than the limit of " + strconv.Itoa(c.l.MaxStringBytes)}
		}
	case KindList:
		depth++
		if depth > c.l.MaxDepth {
			return &valueFail{limit: "MaxDepth", msg: "lists nested more than " + strconv.Itoa(c.l.MaxDepth) + " deep"}
		}
		if len(v.list) > c.l.MaxElements {
			return &valueFail{limit: "MaxElements", msg: strconv.Itoa(len(v.list)) + " elements, more than the limit of " + strconv.Itoa(c.l.MaxElements)}
		}
		for i, x := range v.list {
			if x.kind != KindString && x.kind != KindList {
				continue
			}
			if f := c.value1(x, depth); f != nil {
				f.at = append(f.at, i)
				return f
			}
		}
	}
	return nil
}
