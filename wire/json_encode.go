package wire

import (
	"io"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
)

// MarshalJSON returns the canonical JSON of r (see AppendJSON), so that
// encoding/json and any JSON pipeline write a response as graphwire does.
//
// Its receiver is a value, so encoding/json calls it for a GraphResponse
// held by value (a struct field, a slice element, a map value) as well as
// through a pointer; a nil *GraphResponse is written as null by
// encoding/json, as for any nil pointer. UnmarshalJSON has a pointer
// receiver, as it must: decode into a field or element that is
// addressable (json.Unmarshal's target is always a pointer).
func (r GraphResponse) MarshalJSON() ([]byte, error) { return AppendJSON(nil, &r) }

// AppendJSON appends the canonical JSON of r to dst. On error it returns
// dst unchanged.
//
// It fails for a response the canonical form cannot carry: a NaN or
// infinite float, a query type or group kind outside the enumerations, or a
// property named "type" or "id". It does not check Limits: codecs/json's
// AppendEncode, which does, calls it, and so do MarshalJSON and the
// codecs and tools that compare an encoding with canonical JSON.
func AppendJSON(dst []byte, r *GraphResponse) ([]byte, error) {
	if r == nil {
		return dst, &EncodeError{Codec: "json", Msg: "nil response"}
	}
	e := encoder{b: dst}
	if hint := sizeHint(r); cap(dst)-len(dst) < hint {
		// One allocation of about the right size, rather than the
		// doublings and copies of growing from nothing.
		e.b = slices.Grow(dst, hint)
	}
	if err := e.response(r); err != nil {
		return dst, err
	}
	return e.b, nil
}

// AppendJSONWithin appends the canonical JSON of r to dst, as AppendJSON
// does, refusing first what a decoder configured with l would refuse
// (Limits.Check, with codec "json") and then an encoding longer than
// l.MaxInputBytes, before writing anything. One walk of r checks it and
// bounds the length of its encoding (Limits.Measure), so dst grows once,
// and again only when the strings of r escape more than one byte in 32.
// On error it returns dst unchanged: a *EncodeError naming the place (see
// AppendJSON), or the limit (errors.Is(err, ErrLimit)).
//
// It is codecs/json's AppendEncode; a NaN or infinite float is reported
// before MaxInputBytes, as when the output was measured after writing it.
func AppendJSONWithin(dst []byte, r *GraphResponse, l Limits) ([]byte, error) {
	m, err := l.Measure("json", r)
	if err != nil {
		return dst, err
	}
	n, hi := m.lo, m.hi
	max := l.MaxInputBytes
	if max == 0 {
		max = DefaultMaxInputBytes
	}
	if hi > max && !m.exact {
		// Near the limit: the exact length decides.
		exact, _, err := l.checkSizes("json", r)
		if err != nil {
			return dst, err // not reached: Measure accepted r
		}
		n, hi = exact, exact
	}
	if n > max {
		// What the encoder refuses (NaN, ±Inf, ...) it refuses first;
		// found by encoding to nowhere, which holds no output.
		if err := EncodeJSONTo(io.Discard, r); err != nil {
			return dst, err
		}
		return dst, &EncodeError{Codec: "json", Limit: "MaxInputBytes",
			Msg: "the encoding of " + strconv.FormatInt(n, 10) + " bytes is longer than the limit of " + strconv.FormatInt(max, 10)}
	}
	if r == nil {
		return AppendJSON(dst, r)
	}
	// Room for the encoding with no byte escaped and a few escapes more:
	// one allocation, unless its strings escape more than one byte in 32;
	// none in a caller's buffer with room for the encoding unescaped.
	if cap(dst)-len(dst) < int(n) {
		dst = slices.Grow(dst, int(min(hi, n+n/32+64)))
	}
	e := encoder{b: dst}
	if err := e.response(r); err != nil {
		return dst, err
	}
	return e.b, nil
}

// sizeHint estimates the length of r's encoding from its strings and
// shape, erring on the short side: a typical id, few escapes.
func sizeHint(r *GraphResponse) int {
	const idLen = 12 // a typical id, in quotes
	n := 96 + len(r.FormatVersion)
	for i := range r.Nodes {
		nd := &r.Nodes[i]
		n += 18 + idLen + len(nd.Type) + propsHint(nd.Properties)
	}
	for i := range r.Edges {
		e := &r.Edges[i]
		n += 48 + 2*idLen + len(e.From) + len(e.To) + len(e.Type)
		if e.Depth.Valid {
			n += 10
		}
		if e.PathID.Valid {
			n += 12
		}
		if e.Step.Valid {
			n += 9
		}
	}
	for i := range r.Columns {
		c := &r.Columns[i]
		n += 26 + len(c.Name) + len(c.Function) + len(c.Target.String) + len(c.Property.String)
	}
	for i := range r.GroupColumns {
		g := &r.GroupColumns[i]
		n += 30 + len(g.Name) + len(g.Node) + len(g.Property.String) + len(g.Entity.String)
	}
	for _, row := range r.Rows {
		n += 3
		for j := range row {
			c := &row[j]
			n += 4 + len(c.Name)
			if c.Node != nil {
				n += 34 + idLen + len(c.Node.Type) + propsHint(c.Node.Properties)
			} else {
				n += valueHint(c.Value)
			}
		}
	}
	return n + n/32 // room for a few escapes
}

func propsHint(ps []Property) int {
	n := 0
	for i := range ps {
		n += 4 + len(ps[i].Key) + valueHint(ps[i].Value)
	}
	return n
}

func valueHint(v Value) int {
	switch v.Kind() {
	case KindString:
		return 2 + len(v.Text())
	case KindList:
		n := 2
		for _, x := range v.List() {
			n += 1 + valueHint(x)
		}
		return n
	case KindFloat, KindInt:
		return 8
	default:
		return 5
	}
}

type encoder struct {
	b   []byte
	out io.Writer // when set, spill writes b to it at element boundaries
	// nonFinite makes value write a NaN or infinite float as NaN, +Inf or
	// -Inf rather than fail: Value.String's form, not JSON.
	nonFinite bool
	cache     writeCache
}

// response appends r to e.b. The writing functions below take and return
// the buffer rather than keep it in e, so that appending is a store to a
// local variable: no write barrier per append while the collector runs.
func (e *encoder) response(r *GraphResponse) error {
	b, err := e.appendResponse(e.b, r)
	e.b = b
	return err
}

// value appends v to e.b; it reports false for a NaN or infinite float.
func (e *encoder) value(v Value) bool {
	b, ok := e.appendValue(e.b, v)
	e.b = b
	return ok
}

// flush is spill at an element boundary, forgetting the cached spans when
// it empties the buffer.
func (e *encoder) flush(b []byte) ([]byte, error) {
	if e.out == nil {
		return b, nil
	}
	e.b = b
	err := e.spill()
	if len(e.b) == 0 {
		e.cache.reset()
	}
	return e.b, err
}

func (e *encoder) appendResponse(b []byte, r *GraphResponse) ([]byte, error) {
	if !r.QueryType.Valid() {
		return b, &EncodeError{Codec: "json", Path: Path{}.Field("query_type").String(), Msg: "invalid query type " + strconv.Quote(string(r.QueryType))}
	}
	c := &e.cache
	var err error
	b = append(b, `{"format_version":`...)
	b = appendJSONQuoted(b, r.FormatVersion)
	b = append(b, `,"query_type":`...)
	b = appendJSONQuoted(b, string(r.QueryType))
	b = append(b, `,"nodes":[`...)
	for i := range r.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		n := &r.Nodes[i]
		b = c.piece(b, c.types[:], `{"type":"`, n.Type, `","id":"`)
		b = textwire.AppendInt(b, n.ID)
		b = append(b, '"')
		for j := range n.Properties {
			p := &n.Properties[j]
			if p.Key == "type" || p.Key == "id" {
				return b, &EncodeError{Codec: "json", Path: NodePath(i).Property(j, p.Key).String(), Msg: "property named " + strconv.Quote(p.Key) + " (reserved for the node itself)"}
			}
			b = c.piece(b, c.keys[:], `,"`, p.Key, `":`)
			if p.Value.kind == KindString {
				b = appendJSONQuoted(b, p.Value.strv())
				continue
			}
			var ok bool
			if b, ok = e.appendValue(b, p.Value); !ok {
				return b, nonFiniteError(p.Value, NodePath(i).Property(j, p.Key))
			}
		}
		b = append(b, '}')
		if b, err = e.flush(b); err != nil {
			return b, err
		}
	}
	b = append(b, `],"edges":[`...)
	for i := range r.Edges {
		if i > 0 {
			b = append(b, ',')
		}
		ed := &r.Edges[i]
		b = c.piece(b, c.from[:], `{"from":"`, ed.From, `","from_id":"`)
		b = textwire.AppendInt(b, ed.FromID)
		b = c.piece(b, c.to[:], `","to":"`, ed.To, `","to_id":"`)
		b = textwire.AppendInt(b, ed.ToID)
		b = c.piece(b, c.etype[:], `","type":"`, ed.Type, `"`)
		b = appendOptInt(b, `,"depth":`, ed.Depth)
		b = appendOptInt(b, `,"path_id":`, ed.PathID)
		b = appendOptInt(b, `,"step":`, ed.Step)
		b = append(b, '}')
		if b, err = e.flush(b); err != nil {
			return b, err
		}
	}
	b = append(b, ']')
	if r.Columns != nil {
		b = append(b, `,"columns":[`...)
		for i := range r.Columns {
			if i > 0 {
				b = append(b, ',')
			}
			col := &r.Columns[i]
			b = append(b, `{"name":`...)
			b = appendJSONQuoted(b, col.Name)
			b = append(b, `,"function":`...)
			b = appendJSONQuoted(b, col.Function)
			b = appendOptStr(b, `,"target":`, col.Target)
			b = appendOptStr(b, `,"property":`, col.Property)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.GroupColumns != nil {
		b = append(b, `,"group_columns":[`...)
		for i := range r.GroupColumns {
			if i > 0 {
				b = append(b, ',')
			}
			g := &r.GroupColumns[i]
			if !g.Kind.Valid() {
				return b, &EncodeError{Codec: "json", Path: GroupColumnPath(i).Field("kind").String(), Msg: "invalid group kind " + strconv.Quote(string(g.Kind))}
			}
			b = append(b, `{"name":`...)
			b = appendJSONQuoted(b, g.Name)
			b = append(b, `,"kind":`...)
			b = appendJSONQuoted(b, string(g.Kind))
			b = append(b, `,"node":`...)
			b = appendJSONQuoted(b, g.Node)
			b = appendOptStr(b, `,"property":`, g.Property)
			b = appendOptStr(b, `,"entity":`, g.Entity)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.Rows != nil {
		b = append(b, `,"rows":[`...)
		for i, row := range r.Rows {
			if i > 0 {
				b = append(b, ',')
			}
			if len(row) == 0 {
				b = append(b, '{')
			}
			for j := range row {
				cell := &row[j]
				if j == 0 {
					b = c.piece(b, c.firstCell[:], `{"`, cell.Name, `":`)
				} else {
					b = c.piece(b, c.keys[:], `,"`, cell.Name, `":`)
				}
				if cell.Node != nil {
					if b, err = e.nodeRef(b, cell.Node, i, j, cell.Name); err != nil {
						return b, err
					}
					continue
				}
				var ok bool
				if b, ok = e.appendValue(b, cell.Value); !ok {
					return b, nonFiniteError(cell.Value, RowPath(i).Key(j, cell.Name))
				}
			}
			b = append(b, '}')
			if b, err = e.flush(b); err != nil {
				return b, err
			}
		}
		b = append(b, ']')
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return b, &EncodeError{Codec: "json", Path: Path{}.Field("pagination").String(), Msg: err.Error()}
		}
		b = append(b, `,"pagination":{"has_more":`...)
		b = strconv.AppendBool(b, p.HasMore)
		b = appendOptInt(b, `,"total_rows":`, p.TotalRows)
		if p.Truncated.Valid {
			b = append(b, `,"truncated":`...)
			b = strconv.AppendBool(b, p.Truncated.Bool)
		}
		b = appendOptStr(b, `,"next_cursor":`, p.NextCursor)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// nodeRef appends the node the cell named name, the cell-th of row row,
// holds; the cell's path is built only for an error.
func (e *encoder) nodeRef(b []byte, n *Node, row, cell int, name string) ([]byte, error) {
	at := func() Path { return RowPath(row).Key(cell, name) }
	c := &e.cache
	b = c.piece(b, c.types[:], `{"type":"`, n.Type, `","id":"`)
	b = textwire.AppendInt(b, n.ID)
	b = append(b, `","properties":{`...)
	for j := range n.Properties {
		p := &n.Properties[j]
		if p.Key == "type" || p.Key == "id" {
			return b, &EncodeError{Codec: "json", Path: at().Property(j, p.Key).String(), Msg: "property named " + strconv.Quote(p.Key) + " (reserved for the node itself)"}
		}
		if j == 0 {
			b = c.piece(b, c.firstKey[:], `"`, p.Key, `":`)
		} else {
			b = c.piece(b, c.keys[:], `,"`, p.Key, `":`)
		}
		var ok bool
		if b, ok = e.appendValue(b, p.Value); !ok {
			return b, nonFiniteError(p.Value, at().Property(j, p.Key))
		}
	}
	return append(b, "}}"...), nil
}

// nonFiniteError is the *EncodeError for the first NaN or infinite float
// in v, the value at p: its path goes down to the float inside lists.
func nonFiniteError(v Value, p Path) *EncodeError {
	at, f, _ := firstNonFinite(v, p)
	return &EncodeError{Codec: "json", Path: at.String(), Msg: "unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)}
}

// firstNonFinite finds the first NaN or infinite float in v, the value at
// p, lists included: its path, its value and whether there is one.
func firstNonFinite(v Value, p Path) (Path, float64, bool) {
	if v.Kind() == KindFloat {
		f := v.Float()
		return p, f, math.IsNaN(f) || math.IsInf(f, 0)
	}
	for i, x := range v.List() {
		if at, f, ok := firstNonFinite(x, p.Index(i)); ok {
			return at, f, true
		}
	}
	return p, 0, false
}

func appendOptInt(b []byte, key string, o OptInt) []byte {
	if o.Valid {
		b = append(b, key...)
		b = textwire.AppendInt(b, o.Int)
	}
	return b
}

func appendOptStr(b []byte, key string, o OptString) []byte {
	if o.Valid {
		b = append(b, key...)
		b = appendJSONQuoted(b, o.String)
	}
	return b
}

// appendValue appends v; it reports false for a NaN or infinite float.
func (e *encoder) appendValue(b []byte, v Value) ([]byte, bool) {
	switch v.kind {
	case KindNull:
		b = append(b, "null"...)
	case KindBool:
		b = strconv.AppendBool(b, v.num == 1)
	case KindInt:
		b = textwire.AppendInt(b, int64(v.num))
	case KindFloat:
		f := math.Float64frombits(v.num)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			if !e.nonFinite {
				return b, false
			}
			b = append(b, nonFiniteText(f)...)
			break
		}
		b = textwire.AppendFloat(b, f)
	case KindString:
		b = appendJSONQuoted(b, v.strv())
	case KindList:
		b = append(b, '[')
		for i, x := range v.listv() {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = e.appendValue(b, x); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	return b, true
}

// nonFiniteText is how Value.String writes a NaN or infinite float, as
// strconv.FormatFloat does.
func nonFiniteText(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// AppendJSONFloat appends f as canonical JSON writes a float: the shortest
// decimal that reads back as f, in exponent form outside 1e-6 ≤ |f| < 1e21
// exactly as encoding/json writes it, with ".0" appended when the result
// would otherwise read as an integer. f must be finite. The rule is
// textwire.AppendFloat's; this name is for code outside the module that
// writes canonical JSON by hand, and for codecs/json, delta and the
// scorecard, which write pieces of it.
func AppendJSONFloat(dst []byte, f float64) []byte { return textwire.AppendFloat(dst, f) }

// AppendJSONString appends s as a canonical JSON string: only '"', '\\' and
// control characters escaped, invalid UTF-8 replaced by U+FFFD (the rule
// table textwire.JSON). Its callers are codecs/json, delta and the
// scorecard, which write pieces of canonical JSON.
func AppendJSONString(dst []byte, s string) []byte { return textwire.JSON.AppendQuoted(dst, s) }

// safeASCII[c] is true for the ASCII bytes canonical JSON writes as they
// are, read from textwire.JSON's rule; the Meter counts lengths with it.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = textwire.JSON.Plain(string(rune(c)))
	}
	return t
}()
