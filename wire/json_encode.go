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
// l.MaxInputBytes, before writing anything. One walk of r both checks it
// and counts the exact length of its encoding, so dst grows at most once.
// On error it returns dst unchanged: a *EncodeError naming the place (see
// AppendJSON), or the limit (errors.Is(err, ErrLimit)).
//
// It is codecs/json's AppendEncode; a NaN or infinite float is reported
// before MaxInputBytes, as when the output was measured after writing it.
func AppendJSONWithin(dst []byte, r *GraphResponse, l Limits) ([]byte, error) {
	n, _, err := l.checkSizes("json", r)
	if err != nil {
		return dst, err
	}
	max := l.MaxInputBytes
	if max == 0 {
		max = DefaultMaxInputBytes
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
	e := encoder{b: slices.Grow(dst, int(n))}
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
}

func (e *encoder) response(r *GraphResponse) error {
	if !r.QueryType.Valid() {
		return &EncodeError{Codec: "json", Path: Path{}.Field("query_type").String(), Msg: "invalid query type " + strconv.Quote(string(r.QueryType))}
	}
	e.b = append(e.b, `{"format_version":`...)
	e.str(r.FormatVersion)
	e.b = append(e.b, `,"query_type":`...)
	e.str(string(r.QueryType))
	e.b = append(e.b, `,"nodes":[`...)
	for i := range r.Nodes {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		n := &r.Nodes[i]
		e.b = append(e.b, `{"type":`...)
		e.str(n.Type)
		e.b = append(e.b, `,"id":`...)
		e.id(n.ID)
		for j := range n.Properties {
			p := &n.Properties[j]
			if p.Key == "type" || p.Key == "id" {
				return &EncodeError{Codec: "json", Path: NodePath(i).Property(j, p.Key).String(), Msg: "property named " + strconv.Quote(p.Key) + " (reserved for the node itself)"}
			}
			e.b = append(e.b, ',')
			e.str(p.Key)
			e.b = append(e.b, ':')
			if !e.value(p.Value) {
				return nonFiniteError(p.Value, NodePath(i).Property(j, p.Key))
			}
		}
		e.b = append(e.b, '}')
		if err := e.spill(); err != nil {
			return err
		}
	}
	e.b = append(e.b, `],"edges":[`...)
	for i := range r.Edges {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		ed := &r.Edges[i]
		e.b = append(e.b, `{"from":`...)
		e.str(ed.From)
		e.b = append(e.b, `,"from_id":`...)
		e.id(ed.FromID)
		e.b = append(e.b, `,"to":`...)
		e.str(ed.To)
		e.b = append(e.b, `,"to_id":`...)
		e.id(ed.ToID)
		e.b = append(e.b, `,"type":`...)
		e.str(ed.Type)
		e.optInt(`,"depth":`, ed.Depth)
		e.optInt(`,"path_id":`, ed.PathID)
		e.optInt(`,"step":`, ed.Step)
		e.b = append(e.b, '}')
		if err := e.spill(); err != nil {
			return err
		}
	}
	e.b = append(e.b, ']')
	if r.Columns != nil {
		e.b = append(e.b, `,"columns":[`...)
		for i := range r.Columns {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			c := &r.Columns[i]
			e.b = append(e.b, `{"name":`...)
			e.str(c.Name)
			e.b = append(e.b, `,"function":`...)
			e.str(c.Function)
			e.optStr(`,"target":`, c.Target)
			e.optStr(`,"property":`, c.Property)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if r.GroupColumns != nil {
		e.b = append(e.b, `,"group_columns":[`...)
		for i := range r.GroupColumns {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			g := &r.GroupColumns[i]
			if !g.Kind.Valid() {
				return &EncodeError{Codec: "json", Path: GroupColumnPath(i).Field("kind").String(), Msg: "invalid group kind " + strconv.Quote(string(g.Kind))}
			}
			e.b = append(e.b, `{"name":`...)
			e.str(g.Name)
			e.b = append(e.b, `,"kind":`...)
			e.str(string(g.Kind))
			e.b = append(e.b, `,"node":`...)
			e.str(g.Node)
			e.optStr(`,"property":`, g.Property)
			e.optStr(`,"entity":`, g.Entity)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if r.Rows != nil {
		e.b = append(e.b, `,"rows":[`...)
		for i, row := range r.Rows {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.b = append(e.b, '{')
			for j := range row {
				c := &row[j]
				if j > 0 {
					e.b = append(e.b, ',')
				}
				e.str(c.Name)
				e.b = append(e.b, ':')
				if c.Node != nil {
					if err := e.nodeRef(c.Node, RowPath(i).Key(j, c.Name)); err != nil {
						return err
					}
					continue
				}
				if !e.value(c.Value) {
					return nonFiniteError(c.Value, RowPath(i).Key(j, c.Name))
				}
			}
			e.b = append(e.b, '}')
			if err := e.spill(); err != nil {
				return err
			}
		}
		e.b = append(e.b, ']')
	}
	if p := r.Pagination; p != nil {
		if err := p.Check(); err != nil {
			return &EncodeError{Codec: "json", Path: Path{}.Field("pagination").String(), Msg: err.Error()}
		}
		e.b = append(e.b, `,"pagination":{"has_more":`...)
		e.b = strconv.AppendBool(e.b, p.HasMore)
		e.optInt(`,"total_rows":`, p.TotalRows)
		if p.Truncated.Valid {
			e.b = append(e.b, `,"truncated":`...)
			e.b = strconv.AppendBool(e.b, p.Truncated.Bool)
		}
		e.optStr(`,"next_cursor":`, p.NextCursor)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, '}')
	return nil
}

// nodeRef appends the node a row cell holds; at is the cell's path.
func (e *encoder) nodeRef(n *Node, at Path) error {
	e.b = append(e.b, `{"type":`...)
	e.str(n.Type)
	e.b = append(e.b, `,"id":`...)
	e.id(n.ID)
	e.b = append(e.b, `,"properties":{`...)
	for j := range n.Properties {
		p := &n.Properties[j]
		if p.Key == "type" || p.Key == "id" {
			return &EncodeError{Codec: "json", Path: at.Property(j, p.Key).String(), Msg: "property named " + strconv.Quote(p.Key) + " (reserved for the node itself)"}
		}
		if j > 0 {
			e.b = append(e.b, ',')
		}
		e.str(p.Key)
		e.b = append(e.b, ':')
		if !e.value(p.Value) {
			return nonFiniteError(p.Value, at.Property(j, p.Key))
		}
	}
	e.b = append(e.b, "}}"...)
	return nil
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

func (e *encoder) id(i int64) {
	e.b = append(e.b, '"')
	e.b = strconv.AppendInt(e.b, i, 10)
	e.b = append(e.b, '"')
}

func (e *encoder) optInt(key string, o OptInt) {
	if o.Valid {
		e.b = append(e.b, key...)
		e.b = strconv.AppendInt(e.b, o.Int, 10)
	}
}

func (e *encoder) optStr(key string, o OptString) {
	if o.Valid {
		e.b = append(e.b, key...)
		e.str(o.String)
	}
}

// value appends v; it reports false for a NaN or infinite float.
func (e *encoder) value(v Value) bool {
	switch v.Kind() {
	case KindNull:
		e.b = append(e.b, "null"...)
	case KindBool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case KindInt:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			if !e.nonFinite {
				return false
			}
			e.b = append(e.b, nonFiniteText(f)...)
			break
		}
		e.b = textwire.AppendFloat(e.b, f)
	case KindString:
		e.str(v.Text())
	case KindList:
		e.b = append(e.b, '[')
		for i, x := range v.List() {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			if !e.value(x) {
				return false
			}
		}
		e.b = append(e.b, ']')
	}
	return true
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

func (e *encoder) str(s string) { e.b = textwire.JSON.AppendQuoted(e.b, s) }

// safeASCII[c] is true for the ASCII bytes canonical JSON writes as they
// are, read from textwire.JSON's rule; the Meter counts lengths with it.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = textwire.JSON.Plain(string(rune(c)))
	}
	return t
}()
