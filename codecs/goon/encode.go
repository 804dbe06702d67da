package goon

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// Encode returns the GOON text of r.
func Encode(r *wire.GraphResponse) ([]byte, error) { return AppendEncode(nil, r) }

// AppendEncode appends the GOON text of r to dst, under the default
// wire.Limits, and returns the extended slice. On error, a
// *wire.EncodeError, it returns dst unchanged: r is outside GOON's rules
// (see the package documentation) or its text would be refused by Decode
// under the same limits (see Security).
//
// The text is built in a pooled scratch buffer and copied to dst once, so
// an encode makes a fixed number of allocations whatever the size of r.
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) { return std.AppendEncode(dst, r) }

// EncodeTo writes the GOON text of r to w under the default wire.Limits.
// Nothing is written when encoding fails. The text goes to w straight from
// a pooled buffer, without a copy.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error { return std.EncodeTo(w, r) }

// AppendEncode appends the GOON text of r to dst under the codec's
// limits; see the package-level AppendEncode.
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	e := encoderPool.Get().(*encoder)
	err := c.encode(e, r)
	if err == nil {
		dst = append(dst, e.b...)
	}
	e.release()
	return dst, err
}

// EncodeTo writes the GOON text of r to w under the codec's limits, as it
// produces it, in writes of about 32 KiB at line boundaries, so the text is
// never held whole in memory. Nothing is written when encoding fails: a
// first pass checks the response and measures its text, discarding it as
// it goes, and a second writes it (about twice AppendEncode's time, for
// memory that does not grow with the output). Only an error from w can
// leave partial output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	e := encoderPool.Get().(*encoder)
	defer e.release()
	e.out = io.Discard
	if err := c.encode(e, r); err != nil {
		return err
	}
	e.reset()
	e.out = w
	if err := e.encode(r, c.version); err != nil {
		return err
	}
	if len(e.b) > 0 {
		if _, err := w.Write(e.b); err != nil {
			return err
		}
	}
	return nil
}

// streamChunk is how much text EncodeTo gathers before writing it.
const streamChunk = 32 << 10

// spill writes b to e.out once it holds streamChunk bytes and returns it
// emptied, counting what it wrote; without e.out (AppendEncode) it returns
// b as it is.
func (e *encoder) spill(b []byte) ([]byte, error) {
	if e.out == nil || len(b) < streamChunk {
		return b, nil
	}
	if _, err := e.out.Write(b); err != nil {
		return b, err
	}
	e.written += int64(len(b))
	return b[:0], nil
}

// encode writes r into e.b, or refuses it: first whatever the codec's
// limits refuse (wire.Limits.Check), then what GOON cannot carry, then
// text longer than MaxInputBytes, or with more node lines than
// MaxElements. GOON writes a list value as its JSON text, a string that
// escaping can make up to twice as long in canonical JSON; when that could
// take the decoded response past MaxMaterializedBytes, or the string past
// MaxStringBytes, the text is decoded to make sure. Likewise for
// MaxExpansion, which Decode applies to the length of the text: a
// truncated value restored to its declared length, a type name shared by
// a group, a node lifted from rows make the response much larger than its
// text; when the response could pass MaxExpansion times the text, the
// text is decoded to make sure.
func (c *Codec) encode(e *encoder, r *wire.GraphResponse) error {
	if r == nil {
		return &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	l := c.limits
	// One walk of r in the usual case: checked against half the
	// materialised limit, and again in full only when that half is passed.
	half := l
	half.MaxMaterializedBytes = max(l.MaxMaterializedBytes/2, 1)
	nearLimit := false
	size, err := half.CheckSize(Name, r)
	if err != nil {
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || ee.Limit != "MaxMaterializedBytes" {
			return err
		}
		if size, err = l.CheckSize(Name, r); err != nil {
			return err
		}
		nearLimit = true
	}
	if err := e.encode(r, c.version); err != nil {
		return err
	}
	if n := len(e.nodes); n > l.MaxElements {
		return &wire.EncodeError{Codec: Name, Path: "nodes", Limit: "MaxElements",
			Msg: strconv.Itoa(n) + " node lines with the nodes lifted from rows, more than the limit of " + strconv.Itoa(l.MaxElements)}
	}
	if n := e.written + int64(len(e.b)); n > l.MaxInputBytes {
		return &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the text would take " + strconv.FormatInt(n, 10) + " bytes, more than the limit of " + strconv.FormatInt(l.MaxInputBytes, 10)}
	}
	if e.maxList > 0 && (nearLimit || e.maxList > l.MaxStringBytes/2) || e.mayExpand(size, l) {
		text := e.b
		if e.out != nil {
			// Streaming has handed the text on; make it again whole, to
			// decode it.
			whole := encoderPool.Get().(*encoder)
			defer whole.release()
			if err := whole.encode(r, c.version); err != nil {
				return err
			}
			text = whole.b
		}
		if _, err := c.Decode(text); err != nil {
			var de *wire.DecodeError
			if errors.As(err, &de) {
				return &wire.EncodeError{Codec: Name, Limit: de.Limit, Msg: "Decode would refuse the text: " + de.Msg}
			}
			return err
		}
	}
	return nil
}

// maxPooledBuffer bounds the scratch buffer an encoder keeps for reuse.
const maxPooledBuffer = 64 << 20

var encoderPool = sync.Pool{New: func() any { return &encoder{lifted: map[nodeKey]struct{}{}} }}

// encoder holds the scratch space of one encode; it is pooled.
type encoder struct {
	b       []byte
	nodes   []*wire.Node // server nodes, then nodes lifted from rows, in output order
	edges   []*wire.Edge // de-duplicated, in output order
	props   []propRef
	cols    []rowCol
	lifted  map[nodeKey]struct{}
	tmpA    []byte
	tmpB    []byte
	list    []byte
	maxList int       // the longest JSON text of a list value written
	fills   bool      // a truncated value's kept prefix lost control characters to quoting
	err     error     // set by a sort comparator that had to encode a node row
	out     io.Writer // EncodeTo's writer; nil when appending to a slice
	written int64     // bytes handed to out so far
}

type propRef struct {
	key   string
	class uint8
	i     int32
}

type rowCol struct {
	name     string
	nodeKind bool
}

type nodeKey struct {
	typ string
	id  int64
}

func (e *encoder) release() {
	e.reset()
	e.out = nil
	if cap(e.b) > maxPooledBuffer {
		e.b = nil
	}
	if cap(e.list) > maxPooledBuffer {
		e.list = nil
	}
	encoderPool.Put(e)
}

// reset empties the encoder's scratch space for another encode.
func (e *encoder) reset() {
	clear(e.nodes)
	clear(e.edges)
	clear(e.props)
	clear(e.cols)
	clear(e.lifted)
	e.nodes, e.edges, e.props, e.cols = e.nodes[:0], e.edges[:0], e.props[:0], e.cols[:0]
	e.err = nil
	e.maxList = 0
	e.fills = false
	e.b = e.b[:0]
	e.written = 0
}

func (e *encoder) encode(r *wire.GraphResponse, version string) error {
	if !r.QueryType.Valid() {
		return &wire.EncodeError{Codec: Name, Path: "query_type", Msg: "invalid query type " + strconv.Quote(string(r.QueryType))}
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return &wire.EncodeError{Codec: Name, Path: "pagination", Msg: err.Error()}
		}
	}
	agg := r.QueryType == wire.Aggregation
	paths := r.QueryType == wire.PathFinding

	// Nodes: server nodes, sorted by (type, id) except in aggregation,
	// where server order is kept and node cells are lifted from rows.
	e.nodes = slices.Grow(e.nodes, len(r.Nodes))
	for i := range r.Nodes {
		e.nodes = append(e.nodes, &r.Nodes[i])
	}
	if agg {
		if err := e.liftNodes(r); err != nil {
			return err
		}
	} else {
		slices.SortFunc(e.nodes, e.cmpNodes)
		if e.err != nil {
			return e.err
		}
	}

	// Edges: sorted by the full key, de-duplicated by it; path_finding
	// keeps only the edges that belong to a path.
	e.edges = slices.Grow(e.edges, len(r.Edges))
	for i := range r.Edges {
		if paths && !r.Edges[i].PathID.Valid {
			continue
		}
		e.edges = append(e.edges, &r.Edges[i])
	}
	slices.SortFunc(e.edges, cmpEdges)
	e.edges = slices.CompactFunc(e.edges, func(a, b *wire.Edge) bool { return cmpEdges(a, b) == 0 })

	if agg {
		if err := e.rowColumns(r); err != nil {
			return err
		}
	}

	b := e.b[:0]
	b = append(b, "@header\nquery_type:"...)
	b = append(b, r.QueryType...)
	b = append(b, "\ngoon_version:"...)
	b = append(b, version...)
	b = append(b, "\nnodes:"...)
	b = strconv.AppendInt(b, int64(len(e.nodes)), 10)
	b = append(b, "\nedges:"...)
	b = strconv.AppendInt(b, int64(len(e.edges)), 10)
	b = append(b, '\n')
	if p := r.Pagination; p != nil {
		if p.HasMore {
			b = append(b, "has_more:true\n"...)
		}
		if p.TotalRows.Valid {
			b = append(b, "total_rows:"...)
			b = strconv.AppendInt(b, p.TotalRows.Int, 10)
			b = append(b, '\n')
		}
		if p.Truncated.Bool {
			b = append(b, "truncated:true\n"...)
		}
		if p.NextCursor.Valid {
			b = append(b, "next_cursor:"...)
			b = appendCursor(b, p.NextCursor.String)
			b = append(b, '\n')
		}
	}
	if agg {
		var err error
		if b, err = e.aggregationHeader(b, r); err != nil {
			return err
		}
	}

	var err error
	b = append(b, "@nodes\n"...)
	if b, err = e.writeNodes(b); err != nil {
		return err
	}
	if paths {
		b = append(b, "@paths\n"...)
		b, err = e.writePaths(b)
	} else {
		b = append(b, "@edges\n"...)
		b, err = e.writeEdges(b)
	}
	if err != nil {
		return err
	}
	if r.Rows != nil {
		b = append(b, "@rows\n"...)
		if agg {
			b, err = e.writeAggregationRows(b, r)
		} else {
			b, err = e.writePlainRows(b, r)
		}
		if err != nil {
			return err
		}
	}
	e.b = b
	return nil
}

// cmpNodes orders nodes by (type bytewise, id numerically); nodes that
// share both are ordered by the text of their rows, so that the order is
// total and the output does not depend on the input order.
func (e *encoder) cmpNodes(a, b *wire.Node) int {
	if c := strings.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ID, b.ID); c != 0 || a == b {
		return c
	}
	var err error
	if e.tmpA, err = e.nodeRow(e.tmpA[:0], a); err != nil {
		e.err = err
		return 0
	}
	if e.tmpB, err = e.nodeRow(e.tmpB[:0], b); err != nil {
		e.err = err
		return 0
	}
	return bytes.Compare(e.tmpA, e.tmpB)
}

// cmpEdges is the total edge order of GOON: (path_id, step, type, from,
// from_id, to, to_id, depth), absent path_id and step after present ones,
// absent depth before present.
func cmpEdges(a, b *wire.Edge) int {
	if c := cmpAbsentLast(a.PathID, b.PathID); c != 0 {
		return c
	}
	if c := cmpAbsentLast(a.Step, b.Step); c != 0 {
		return c
	}
	if c := strings.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := strings.Compare(a.From, b.From); c != 0 {
		return c
	}
	if c := cmp.Compare(a.FromID, b.FromID); c != 0 {
		return c
	}
	if c := strings.Compare(a.To, b.To); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ToID, b.ToID); c != 0 {
		return c
	}
	switch {
	case a.Depth.Valid != b.Depth.Valid:
		if a.Depth.Valid {
			return 1
		}
		return -1
	case a.Depth.Valid:
		return cmp.Compare(a.Depth.Int, b.Depth.Int)
	}
	return 0
}

func cmpAbsentLast(a, b wire.OptInt) int {
	switch {
	case a.Valid && b.Valid:
		return cmp.Compare(a.Int, b.Int)
	case a.Valid:
		return -1
	case b.Valid:
		return 1
	}
	return 0
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

// liftNodes appends to e.nodes the node cells of node-kind group columns,
// in first-seen order (row by row, group column by group column),
// de-duplicated by (type, id) among themselves.
func (e *encoder) liftNodes(r *wire.GraphResponse) error {
	if r.Rows == nil {
		return nil
	}
	var nodeCols []string
	for _, g := range r.GroupColumns {
		if g.Kind == wire.GroupByNode {
			nodeCols = append(nodeCols, g.Name)
		}
	}
	if len(nodeCols) == 0 {
		return nil
	}
	for _, row := range r.Rows {
		for _, name := range nodeCols {
			c := firstCell(row, name)
			if c == nil || c.Node == nil {
				continue
			}
			k := nodeKey{c.Node.Type, c.Node.ID}
			if _, dup := e.lifted[k]; dup {
				continue
			}
			e.lifted[k] = struct{}{}
			e.nodes = append(e.nodes, c.Node)
		}
	}
	return nil
}

// rowColumns fills e.cols with the cells an aggregation row is written
// with: group columns, then metric columns. Their names must differ, since
// a row names its cells by them.
func (e *encoder) rowColumns(r *wire.GraphResponse) error {
	for i, g := range r.GroupColumns {
		if err := e.addColumn("group_columns["+strconv.Itoa(i)+"]", g.Name, g.Kind == wire.GroupByNode); err != nil {
			return err
		}
	}
	for i, c := range r.Columns {
		if err := e.addColumn("columns["+strconv.Itoa(i)+"]", c.Name, false); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) addColumn(path, name string, nodeKind bool) error {
	if !isName(name) {
		return notName(path, "name", name)
	}
	for _, c := range e.cols {
		if c.name == name {
			return &wire.EncodeError{Codec: Name, Path: path, Msg: "column name " + strconv.Quote(name) + " repeats (group and metric columns name row cells, so they must differ)"}
		}
	}
	e.cols = append(e.cols, rowCol{name: name, nodeKind: nodeKind})
	return nil
}

func (e *encoder) aggregationHeader(b []byte, r *wire.GraphResponse) ([]byte, error) {
	if r.Rows != nil {
		n := 0
		for _, row := range r.Rows {
			if e.rowWrites(row) {
				n++
			}
		}
		b = append(b, "rows:"...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '\n')
	}
	if len(r.GroupColumns) > 0 {
		b = append(b, "group_by:"...)
		for i, g := range r.GroupColumns {
			if i > 0 {
				b = append(b, ',')
			}
			path := "group_columns[" + strconv.Itoa(i) + "]"
			b = append(b, g.Name...)
			switch g.Kind {
			case wire.GroupByNode:
				b = append(b, "(node"...)
				if g.Entity.Valid {
					if !isName(g.Entity.String) {
						return b, notName(path, "entity", g.Entity.String)
					}
					b = append(b, ':')
					b = append(b, g.Entity.String...)
				}
			case wire.GroupByProperty:
				b = append(b, "(property"...)
				if g.Property.Valid && g.Property.String != g.Name {
					if !isName(g.Property.String) {
						return b, notName(path, "property", g.Property.String)
					}
					b = append(b, ':')
					b = append(b, g.Property.String...)
				}
			default:
				return b, &wire.EncodeError{Codec: Name, Path: path, Msg: "invalid group kind " + strconv.Quote(string(g.Kind))}
			}
			b = append(b, ')')
		}
		b = append(b, '\n')
	}
	if len(r.Columns) > 0 {
		b = append(b, "aggregations:"...)
		for i, c := range r.Columns {
			if i > 0 {
				b = append(b, ',')
			}
			path := "columns[" + strconv.Itoa(i) + "]"
			if !isName(c.Function) {
				return b, notName(path, "function", c.Function)
			}
			b = append(b, c.Name...)
			b = append(b, '(')
			b = append(b, c.Function...)
			if c.Target.Valid {
				if !isName(c.Target.String) {
					return b, notName(path, "target", c.Target.String)
				}
				b = append(b, ':')
				b = append(b, c.Target.String...)
				if c.Property.Valid {
					if !isName(c.Property.String) {
						return b, notName(path, "property", c.Property.String)
					}
					b = append(b, '.')
					b = append(b, c.Property.String...)
				}
			}
			b = append(b, ')')
		}
		b = append(b, '\n')
	}
	return b, nil
}

func (e *encoder) writeNodes(b []byte) ([]byte, error) {
	nodes := e.nodes
	for i := 0; i < len(nodes); {
		typ := nodes[i].Type
		j := i + 1
		for j < len(nodes) && nodes[j].Type == typ {
			j++
		}
		if !isName(typ) {
			return b, notName("node "+strconv.FormatInt(nodes[i].ID, 10), "type", typ)
		}
		b = append(b, typ...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(j-i), 10)
		b = append(b, "):\n"...)
		for ; i < j; i++ {
			var err error
			if b, err = e.nodeRow(b, nodes[i]); err != nil {
				return b, err
			}
			b = append(b, '\n')
			if b, err = e.spill(b); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// nodeRow appends the row of n, without the newline: its id, then its
// properties in priority order.
func (e *encoder) nodeRow(b []byte, n *wire.Node) ([]byte, error) {
	b = strconv.AppendInt(b, n.ID, 10)
	ps := e.props[:0]
	for i := range n.Properties {
		k := n.Properties[i].Key
		class := priority(k)
		if class == classReserved || !isName(k) {
			return b, e.badKey(n, k, class)
		}
		ps = append(ps, propRef{key: k, class: class, i: int32(i)})
	}
	if len(ps) <= 12 {
		for i := 1; i < len(ps); i++ {
			x := ps[i]
			j := i
			for ; j > 0 && lessProp(x, ps[j-1]); j-- {
				ps[j] = ps[j-1]
			}
			ps[j] = x
		}
	} else {
		slices.SortFunc(ps, func(x, y propRef) int {
			if x.class != y.class {
				return cmp.Compare(x.class, y.class)
			}
			return strings.Compare(x.key, y.key)
		})
	}
	for i := range ps {
		if i > 0 && ps[i].key == ps[i-1].key {
			e.props = ps
			return b, &wire.EncodeError{Codec: Name, Path: nodePath(n), Msg: "two properties named " + strconv.Quote(ps[i].key)}
		}
		b = e.prop(b, ps[i].key, n.Properties[ps[i].i].Value)
	}
	e.props = ps
	return b, nil
}

func lessProp(x, y propRef) bool {
	if x.class != y.class {
		return x.class < y.class
	}
	return x.key < y.key
}

func nodePath(n *wire.Node) string {
	return "node " + n.Type + ":" + strconv.FormatInt(n.ID, 10)
}

func (e *encoder) badKey(n *wire.Node, k string, class uint8) error {
	if class == classReserved {
		return &wire.EncodeError{Codec: Name, Path: nodePath(n), Msg: "property named " + strconv.Quote(k) + " (reserved for the node itself)"}
	}
	return notName(nodePath(n), "property key", k)
}

// prop appends " key=value" for a node-row property, or nothing for the
// values a node row omits (null, "", NaN, ±Inf).
func (e *encoder) prop(b []byte, key string, v wire.Value) []byte {
	switch v.Kind() {
	case wire.KindBool:
		b = appendKey(b, key)
		return strconv.AppendBool(b, v.Bool())
	case wire.KindInt:
		b = appendKey(b, key)
		return strconv.AppendInt(b, v.Int(), 10)
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return b
		}
		b = appendKey(b, key)
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	case wire.KindString:
		s := v.Text()
		if s == "" {
			return b
		}
		b = appendKey(b, key)
		e.fills = e.fills || len(s) > limitFor(key) && dropsInPrefix(s, limitFor(key))
		return appendText(b, key, s, true, false)
	case wire.KindList:
		e.list = appendJSON(e.list[:0], v)
		e.maxList = max(e.maxList, len(e.list))
		b = appendKey(b, key)
		return appendText(b, key, e.listText(), true, false)
	}
	return b // null
}

// listText returns the JSON text in e.list as a string without copying it.
// The string is valid until e.list is next written; appendText, which it is
// passed to, reads it and keeps nothing.
func (e *encoder) listText() string {
	return unsafe.String(unsafe.SliceData(e.list), len(e.list))
}

func appendKey(b []byte, key string) []byte {
	b = append(b, ' ')
	b = append(b, key...)
	return append(b, '=')
}

// appendJSON appends v as compact canonical JSON (a float that cannot be
// written, NaN or ±Inf, becomes null).
func appendJSON(b []byte, v wire.Value) []byte {
	switch v.Kind() {
	case wire.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case wire.KindInt:
		return strconv.AppendInt(b, v.Int(), 10)
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return append(b, "null"...)
		}
		return gjson.AppendFloat(b, f)
	case wire.KindString:
		return gjson.AppendString(b, v.Text())
	case wire.KindList:
		b = append(b, '[')
		for i, x := range v.List() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, x)
		}
		return append(b, ']')
	}
	return append(b, "null"...)
}

// appendText appends the string s written under key: truncated past the
// key's limit (with a key_len breadcrumb when breadcrumb is set), a
// ClickHouse datetime in T-form, bare when it may be, quoted otherwise.
// forceQuote writes it quoted even when it could be bare. s is not empty.
func appendText(b []byte, key, s string, breadcrumb, forceQuote bool) []byte {
	limit := limitFor(key)
	body, count, trunc := s, 0, false
	if len(s) > limit {
		if count = utf8.RuneCountInString(s); count > limit {
			trunc = true
			body = s[:runeOffset(s, limit-3)]
		}
	}
	switch {
	case !trunc && isClickHouseDatetime(body):
		if forceQuote {
			b = append(b, '"')
		}
		b = append(b, body[:10]...)
		b = append(b, 'T')
		b = append(b, body[11:]...)
		if forceQuote {
			b = append(b, '"')
		}
	case !forceQuote && isBare(body) && (trunc || !isKeyword(body)):
		b = append(b, body...)
		if trunc {
			b = append(b, "..."...)
		}
	default:
		b = append(b, '"')
		b = appendEscaped(b, body)
		if trunc {
			b = append(b, "..."...)
		}
		b = append(b, '"')
	}
	if trunc && breadcrumb {
		b = append(b, ' ')
		b = append(b, key...)
		b = append(b, "_len="...)
		b = strconv.AppendInt(b, int64(count), 10)
	}
	return b
}

// appendCursor appends a next_cursor token: as it is when the value rule
// lets it be bare (GKG's tokens always are), otherwise quoted and escaped
// by the value rule. A cursor is never truncated and never put in T-form:
// it is opaque, and a shortened one would fetch nothing.
func appendCursor(b []byte, s string) []byte {
	if cursorBare(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// cursorBare reports whether a cursor is written bare.
func cursorBare(s string) bool { return s != "" && isBare(s) && !isKeyword(s) }

// runeOffset returns the byte offset of the n-th code point of s (each
// invalid byte counting as one).
func runeOffset(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

func isBare(s string) bool {
	for i := 0; i < len(s); i++ {
		if !bareByte[s[i]] {
			return false
		}
	}
	return true
}

// appendEscaped appends the inside of a quoted value: \\ \" \n \r \t
// escaped, every other control character (U+0000–U+001F, U+007F) dropped,
// invalid UTF-8 written as U+FFFD.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

func (e *encoder) writeEdges(b []byte) ([]byte, error) {
	edges := e.edges
	for i := 0; i < len(edges); {
		typ := edges[i].Type
		j := i + 1
		for j < len(edges) && edges[j].Type == typ {
			j++
		}
		if !isName(typ) {
			return b, notName("edges", "relationship type", typ)
		}
		b = append(b, typ...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(j-i), 10)
		b = append(b, "):\n"...)
		for ; i < j; i++ {
			ed := edges[i]
			if !isName(ed.From) {
				return b, notName("edges", "node type", ed.From)
			}
			if !isName(ed.To) {
				return b, notName("edges", "node type", ed.To)
			}
			b = append(b, ed.From...)
			b = append(b, ':')
			b = strconv.AppendInt(b, ed.FromID, 10)
			b = append(b, " --> "...)
			b = append(b, ed.To...)
			b = append(b, ':')
			b = strconv.AppendInt(b, ed.ToID, 10)
			if ed.Depth.Valid {
				b = append(b, " depth="...)
				b = strconv.AppendInt(b, ed.Depth.Int, 10)
			}
			if ed.PathID.Valid {
				b = append(b, " path_id="...)
				b = strconv.AppendInt(b, ed.PathID.Int, 10)
			}
			if ed.Step.Valid {
				b = append(b, " step="...)
				b = strconv.AppendInt(b, ed.Step.Int, 10)
			}
			b = append(b, '\n')
			var err error
			if b, err = e.spill(b); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// writePaths writes one chain per path id: the first edge's source, then
// --REL--> target for every edge of the path in edge order.
func (e *encoder) writePaths(b []byte) ([]byte, error) {
	edges := e.edges
	for i := 0; i < len(edges); {
		pid := edges[i].PathID.Int
		b = append(b, "path="...)
		b = strconv.AppendInt(b, pid, 10)
		b = append(b, ": "...)
		if !isName(edges[i].From) {
			return b, notName("edges", "node type", edges[i].From)
		}
		b = append(b, edges[i].From...)
		b = append(b, ':')
		b = strconv.AppendInt(b, edges[i].FromID, 10)
		for ; i < len(edges) && edges[i].PathID.Int == pid; i++ {
			ed := edges[i]
			if !isName(ed.Type) {
				return b, notName("edges", "relationship type", ed.Type)
			}
			if !isName(ed.To) {
				return b, notName("edges", "node type", ed.To)
			}
			b = append(b, " --"...)
			b = append(b, ed.Type...)
			b = append(b, "--> "...)
			b = append(b, ed.To...)
			b = append(b, ':')
			b = strconv.AppendInt(b, ed.ToID, 10)
		}
		b = append(b, '\n')
		var err error
		if b, err = e.spill(b); err != nil {
			return b, err
		}
	}
	return b, nil
}

// cellWrites reports whether a row cell writes anything: every value does
// except "", NaN and ±Inf.
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

// writeAggregationRows writes each row's cells in group_by then
// aggregations order. A row with nothing to write is left out.
func (e *encoder) writeAggregationRows(b []byte, r *wire.GraphResponse) ([]byte, error) {
	for i, row := range r.Rows {
		start := len(b)
		for _, col := range e.cols {
			c := firstCell(row, col.name)
			if c == nil || !cellWrites(c) {
				continue
			}
			if len(b) > start {
				b = append(b, ' ')
			}
			var err error
			if b, err = e.appendCell(b, c, col.nodeKind, i); err != nil {
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

// writePlainRows writes the rows of a response that is not an aggregation
// (GKG never sends one; the header declares no columns for them): every
// cell, in stored order.
func (e *encoder) writePlainRows(b []byte, r *wire.GraphResponse) ([]byte, error) {
	for i, row := range r.Rows {
		start := len(b)
		for j := range row {
			c := &row[j]
			if !isName(c.Name) {
				return b, notName("rows["+strconv.Itoa(i)+"]", "cell name", c.Name)
			}
			if !cellWrites(c) {
				continue
			}
			if len(b) > start {
				b = append(b, ' ')
			}
			var err error
			if b, err = e.appendCell(b, c, false, i); err != nil {
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

// appendCell appends name=value for a row cell that writes something: a
// node reference as Type:id, null as bare null, a string quoted when
// forceQuote is set (node-kind group columns, where a bare Type:id is a
// reference).
func (e *encoder) appendCell(b []byte, c *wire.Cell, forceQuote bool, row int) ([]byte, error) {
	b = append(b, c.Name...)
	b = append(b, '=')
	if n := c.Node; n != nil {
		if !isName(n.Type) {
			return b, notName("rows["+strconv.Itoa(row)+"]."+c.Name, "node type", n.Type)
		}
		b = append(b, n.Type...)
		b = append(b, ':')
		return strconv.AppendInt(b, n.ID, 10), nil
	}
	v := c.Value
	switch v.Kind() {
	case wire.KindNull:
		return append(b, "null"...), nil
	case wire.KindBool:
		return strconv.AppendBool(b, v.Bool()), nil
	case wire.KindInt:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case wire.KindFloat:
		return strconv.AppendFloat(b, v.Float(), 'f', -1, 64), nil
	case wire.KindString:
		return appendText(b, c.Name, v.Text(), false, forceQuote), nil
	default: // list
		e.list = appendJSON(e.list[:0], v)
		e.maxList = max(e.maxList, len(e.list))
		return appendText(b, c.Name, e.listText(), false, forceQuote), nil
	}
}

// mayExpand reports whether the response, of materialised size size, may
// decode from the text in e past the limit Decode applies to a text that
// long (wire.Limits.MaterializedLimit: MaxExpansion times its length, or
// MaxMaterializedBytes).
// What Decode builds from the text is at most twice size: a list's JSON
// text escaped again as a string, a path edge's source taken from the
// edge before, a group column's property restored from its name; and a
// truncated value whose kept prefix lost control characters to quoting
// gains a fillRune, six bytes of canonical JSON, for each of them.
func (e *encoder) mayExpand(size int64, l wire.Limits) bool {
	limit := l.MaterializedLimit(e.written + int64(len(e.b)))
	factor := int64(2)
	if e.fills {
		factor = 6
	}
	return size > limit/factor
}

// dropsInPrefix reports whether the part of s that truncation under limit
// keeps holds a character quoting drops (see appendEscaped).
func dropsInPrefix(s string, limit int) bool {
	for i, n := 0, 0; i < len(s) && n < limit-3; n++ {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			return true
		}
		i += size
	}
	return false
}
