package delta

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
)

// Field is one entry of a document's header: a name FieldKind knows and a
// value of its kind, Ints or Text.
type Field struct {
	Name string
	Ints []int
	Text string
}

// Kind is the kind of a header field's value.
type Kind uint8

// The kinds of header values: a list of integers (written in a text
// format as decimal numbers separated by commas, AppendInts), or a text.
const (
	IntList Kind = iota + 1
	Text
)

// The header fields, in the order a document writes them.
const (
	FieldDelta         = "graphwire_delta" // Text: the Check; opens a delta
	FieldCleared       = "cleared"         // Text: Delta.Cleared, separated by commas
	FieldNodesChanged  = "nodes_changed"
	FieldNodesRemoved  = "nodes_removed"
	FieldNodesMoved    = "nodes_moved"    // base positions; with FieldNodesMovedTo
	FieldNodesMovedTo  = "nodes_moved_to" // their positions in the result
	FieldNodesAdded    = "nodes_added"
	FieldEdgesRemoved  = "edges_removed"
	FieldEdgesMoved    = "edges_moved"
	FieldEdgesMovedTo  = "edges_moved_to"
	FieldEdgesAdded    = "edges_added"
	FieldRowsRemoved   = "rows_removed"
	FieldRowsMoved     = "rows_moved"
	FieldRowsMovedTo   = "rows_moved_to"
	FieldRowsAdded     = "rows_added"
	FieldSentEarlier   = "sent_earlier"    // Text: the references, by type (see Session)
	FieldSentEarlierAt = "sent_earlier_at" // IntList: their positions in the response
)

// Version is the version of the delta document. A version-3 delta (its
// check hashed under another prefix) never verifies, so Patch refuses it
// with ErrWrongBase; versions 1 and 2 hold no check in graphwire_delta,
// and DecodeDelta refuses them with a *wire.DecodeError.
const Version = 4

var fieldKinds = map[string]Kind{
	FieldDelta: Text, FieldCleared: Text,
	FieldNodesChanged: IntList, FieldNodesRemoved: IntList, FieldNodesMoved: IntList, FieldNodesMovedTo: IntList, FieldNodesAdded: IntList,
	FieldEdgesRemoved: IntList, FieldEdgesMoved: IntList, FieldEdgesMovedTo: IntList, FieldEdgesAdded: IntList,
	FieldRowsRemoved: IntList, FieldRowsMoved: IntList, FieldRowsMovedTo: IntList, FieldRowsAdded: IntList,
	FieldSentEarlier: Text, FieldSentEarlierAt: IntList,
}

// FieldKind returns the kind of the header field called name, and false
// for a name no document has: a codec's reader refuses such a field.
func FieldKind(name string) (Kind, bool) {
	k, ok := fieldKinds[name]
	return k, ok
}

// DocumentCodec is the optional interface of a wire.Codec that writes and
// reads documents, found by type assertion; a codec without it is
// ErrNoSyntax. AppendDocument appends the header's fields in the codec's
// header syntax, then content (none when nil) in its ordinary syntax;
// with no fields, exactly what AppendEncode appends. DecodeDocument reads
// it back, and any response of the codec: each field name checked with
// FieldKind, once, and its value read as its kind. Both follow
// AppendEncode's and Decode's rules.
type DocumentCodec interface {
	AppendDocument(dst []byte, header []Field, content *wire.GraphResponse) ([]byte, error)
	DecodeDocument(data []byte) ([]Field, *wire.GraphResponse, error)
}

// ErrNoSyntax is matched (errors.Is) by the error of a function of this
// package given a codec that does not implement DocumentCodec: send that
// client the full response.
var ErrNoSyntax = errors.New("the codec has no document syntax")

type noSyntaxError struct{ codec string }

func (e *noSyntaxError) Error() string {
	return "delta: codec " + e.codec + " writes no documents (it does not implement delta.DocumentCodec)"
}

func (e *noSyntaxError) Is(target error) bool { return target == ErrNoSyntax }

// documentCodec is c as a DocumentCodec.
func documentCodec(c wire.Codec) (DocumentCodec, error) {
	dc, ok := c.(DocumentCodec)
	if !ok {
		return nil, &noSyntaxError{codec: c.Info().Name}
	}
	return dc, nil
}

// lookup finds the codec registered in g (the default registry when nil)
// under name.
func lookup(g *wire.Registry, name string) (wire.Codec, error) {
	return registry(g).Lookup(name)
}

// registry is g, or the default registry when g is nil.
func registry(g *wire.Registry) *wire.Registry {
	if g == nil {
		return wire.DefaultRegistry()
	}
	return g
}

// EncodeWith writes d as a document of the codec registered in g (nil:
// the default registry) under name (AppendDelta).
func EncodeWith(g *wire.Registry, name string, d *Delta) ([]byte, error) {
	c, err := lookup(g, name)
	if err != nil {
		return nil, err
	}
	return AppendDelta(c, nil, d)
}

// DecodeWith reads a delta document of the codec registered in g (nil:
// the default registry) under name (DecodeDelta).
func DecodeWith(g *wire.Registry, name string, data []byte) (*Delta, error) {
	c, err := lookup(g, name)
	if err != nil {
		return nil, err
	}
	return DecodeDelta(c, data)
}

// AppendDelta appends d to dst as a document of c. A Lossy codec's
// document is read back, and one that does not carry d exactly (GOON
// truncates a long string) is refused with a *wire.EncodeError and dst
// as given; a delta between two responses as the codec reads them always
// reads back.
func AppendDelta(c wire.Codec, dst []byte, d *Delta) ([]byte, error) {
	dc, err := documentCodec(c)
	if err != nil {
		return dst, err
	}
	if d == nil {
		return dst, &wire.EncodeError{Codec: c.Info().Name, Msg: "nil delta"}
	}
	out, err := dc.AppendDocument(dst, d.header(), d.Content)
	if err != nil || c.Info().Fidelity != wire.Lossy {
		return out, err
	}
	back, err := DecodeDelta(c, out[len(dst):])
	if err != nil {
		return dst, &wire.EncodeError{Codec: c.Info().Name, Msg: "the delta does not read back: " + err.Error()}
	}
	if what := Differs(d, back); what != "" {
		return dst, &wire.EncodeError{Codec: c.Info().Name, Path: what,
			Msg: "the codec does not carry the delta exactly (a value it truncates, retypes or leaves out); send the whole response"}
	}
	return out, nil
}

// DecodeDelta reads a delta document of c. A document that is not a delta
// (a response) is a *wire.DecodeError matching ErrNotDelta. The Delta is
// not trusted: Patch verifies it against its base.
func DecodeDelta(c wire.Codec, data []byte) (*Delta, error) {
	dc, err := documentCodec(c)
	if err != nil {
		return nil, err
	}
	h, content, err := dc.DecodeDocument(data)
	if err != nil {
		return nil, err
	}
	d, err := deltaOf(h, content)
	if err != nil {
		return nil, &wire.DecodeError{Codec: c.Info().Name, Msg: err.Error(), Err: err}
	}
	return d, nil
}

// ErrNotDelta is matched (errors.Is) by DecodeDelta's error for a
// document that is not a delta (a response, or one with references).
var ErrNotDelta = errors.New("delta: the document is not a delta")

// header is d's header: the fields that are not empty, in order.
func (d *Delta) header() []Field {
	h := []Field{{Name: FieldDelta, Text: d.Check.String()}}
	if len(d.Cleared) > 0 {
		h = append(h, Field{Name: FieldCleared, Text: strings.Join(d.Cleared, ",")})
	}
	add := func(name string, v []int) {
		if len(v) > 0 {
			h = append(h, Field{Name: name, Ints: v})
		}
	}
	add(FieldNodesChanged, d.Changed)
	for i, o := range d.lists() {
		names := opFields[i]
		add(names[0], o.Removed)
		from, at := make([]int, len(o.Moved)), make([]int, len(o.Moved))
		for i, m := range o.Moved {
			from[i], at[i] = m.From, m.At
		}
		add(names[1], from)
		add(names[2], at)
		add(names[3], o.Added)
	}
	return h
}

// opFields names the header fields of the operations on each list of
// lists: removed, moved, moved_to and added.
var opFields = [3][4]string{
	{FieldNodesRemoved, FieldNodesMoved, FieldNodesMovedTo, FieldNodesAdded},
	{FieldEdgesRemoved, FieldEdgesMoved, FieldEdgesMovedTo, FieldEdgesAdded},
	{FieldRowsRemoved, FieldRowsMoved, FieldRowsMovedTo, FieldRowsAdded},
}

// lists is d's operations on the nodes, the edges and the rows.
func (d *Delta) lists() [3]*Ops { return [3]*Ops{&d.Nodes, &d.Edges, &d.Rows} }

// deltaOf is the Delta a document's header and content state.
func deltaOf(h []Field, content *wire.GraphResponse) (*Delta, error) {
	v := fieldMap(h)
	chk, ok := v[FieldDelta]
	if !ok {
		return nil, ErrNotDelta
	}
	d := &Delta{Content: content}
	var err error
	if d.Check, err = ParseCheck(chk.Text); err != nil {
		return nil, errors.New("delta: graphwire_delta " + strconv.Quote(short(chk.Text)) + " is not a check of 39 decimal digits: " +
			"not a delta of version " + strconv.Itoa(Version) + ", the one this reader reads; ask for the whole response")
	}
	if _, ok := v[FieldSentEarlier]; ok {
		return nil, errors.New("delta: a delta does not carry references (sent_earlier)")
	}
	if f, ok := v[FieldCleared]; ok {
		if content == nil {
			return nil, errors.New("delta: cleared without content")
		}
		d.Cleared = strings.Split(f.Text, ",")
	}
	d.Changed = v[FieldNodesChanged].Ints
	for i, o := range d.lists() {
		names := opFields[i]
		o.Removed, o.Added = v[names[0]].Ints, v[names[3]].Ints
		from, at := v[names[1]].Ints, v[names[2]].Ints
		if len(from) != len(at) {
			return nil, errors.New("delta: " + names[1] + " has " + strconv.Itoa(len(from)) + " positions and " + names[2] + " " + strconv.Itoa(len(at)))
		}
		if len(from) > 0 {
			o.Moved = make([]Move, len(from))
		}
		for i := range from {
			o.Moved[i] = Move{From: from[i], At: at[i]}
		}
	}
	if content == nil && d.operates() {
		return nil, errors.New("delta: operations without content")
	}
	return d, nil
}

// Checkable returns r as a codec checks and measures it (wirecodec.Measure):
// a plain response as it is, so that a missing query type is refused; a
// document's content (content set), which leaves the query type out where
// the result keeps the base's, with one given (a shallow copy, whose
// canonical JSON is a few bytes longer).
func Checkable(r *wire.GraphResponse, content bool) *wire.GraphResponse {
	if !content || r == nil || r.QueryType != "" {
		return r
	}
	c := *r
	c.QueryType = wire.Search
	return &c
}

// fieldMap indexes h by name (a codec's reader has refused a name twice).
func fieldMap(h []Field) map[string]Field {
	m := make(map[string]Field, len(h))
	for _, f := range h {
		m[f.Name] = f
	}
	return m
}

// AppendInts appends v as a text format writes an IntList: decimal
// numbers separated by commas, nothing for an empty list.
func AppendInts(dst []byte, v []int) []byte {
	for i, x := range v {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(x), 10)
	}
	return dst
}

// ParseInts reads an IntList as AppendInts writes it, at most max numbers
// (a codec's MaxElements): the list grows by what it reads. The error says
// which number is wrong and why.
func ParseInts(s string, max int) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var v []int
	for i := 0; ; {
		j := i
		for j < len(s) && s[j] != ',' {
			j++
		}
		x, err := strconv.Atoi(s[i:j])
		if err != nil || s[i] == '+' {
			return nil, errors.New("number " + strconv.Itoa(len(v)) + " of the list, " + strconv.Quote(short(s[i:j])) + ", is not a decimal integer")
		}
		if len(v) == max {
			return nil, errors.New("the list has more than " + strconv.Itoa(max) + " numbers (MaxElements)")
		}
		v = append(v, x)
		if j == len(s) {
			return v, nil
		}
		i = j + 1
	}
}

// CheckHeader returns the *wire.EncodeError, of codec, for the first field
// of h that no reader under l would read back (an unknown or repeated
// name, a value not of its kind, past MaxElements or MaxStringBytes, not
// UTF-8), or nil. Every codec's AppendDocument checks its header with it.
func CheckHeader(codec string, h []Field, l wire.Limits) error {
	for i, f := range h {
		fail := func(limit, msg string) error {
			return &wire.EncodeError{Codec: codec, Path: "header." + short(f.Name), Limit: limit,
				Msg: "header field " + strconv.Quote(short(f.Name)) + " " + msg}
		}
		k, ok := FieldKind(f.Name)
		if !ok {
			return fail("", "is not a document header field")
		}
		for _, g := range h[:i] {
			if g.Name == f.Name {
				return fail("", "is given twice")
			}
		}
		switch {
		case k == IntList && f.Text != "":
			return fail("", "holds integers, not a text")
		case k == IntList && len(f.Ints) > l.MaxElements:
			return fail("MaxElements", "holds "+strconv.Itoa(len(f.Ints))+" numbers, more than the limit of "+strconv.Itoa(l.MaxElements))
		case k == Text && f.Ints != nil:
			return fail("", "holds a text, not integers")
		case k == Text && len(f.Text) > l.MaxStringBytes:
			return fail("MaxStringBytes", "holds "+strconv.Itoa(len(f.Text))+" bytes, more than the limit of "+strconv.Itoa(l.MaxStringBytes))
		case k == Text && !utf8.ValidString(f.Text):
			return fail("", "holds text that is not valid UTF-8")
		}
	}
	return nil
}
