package gcf

import (
	"bytes"
	"io"
	"math"
	"strconv"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire"
)

// Name is the codec's registry name.
const Name = "gcf"

// MediaType is the media type GCF's spec names (§18).
const MediaType = "application/vnd.gcf+text"

// Options configure a Codec. The zero value gives the default Limits.
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits).
	Limits wire.Limits
}

// Codec is the gcf GraphResponse codec with fixed Options. It is
// immutable and safe for concurrent use.
type Codec struct {
	limits wire.Limits
}

// New returns a codec configured by o, or an error naming the first option
// out of range.
func New(o Options) (*Codec, error) {
	l, err := o.Limits.WithDefaults()
	if err != nil {
		return nil, err
	}
	return &Codec{limits: l}, nil
}

var std = &Codec{limits: wire.DefaultLimits()}

// Default returns the codec with default Options: the one registered in
// the default wire registry when this package is imported.
func Default() *Codec { return std }

func init() { wire.Register(std) }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.limits }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		MediaType:   MediaType,
		Description: "GCF v3.5.3 generic profile: nodes, edges, columns, group columns and rows as tables; numbers compare by value",
		Fidelity:    wire.NumbersByValue,
	}
}

// layoutDepth is how many containers of the generic document stand above
// a list value at most: the root object, the rows table, a row, a node
// cell.
const layoutDepth = 4

// valueMemFactor and valueMemSlack relate the generic layer's memory
// estimate to MaxMaterializedBytes (see valueOptions): the layout's own
// objects and sections take the slack.
const (
	valueMemFactor = 32
	valueMemSlack  = 4 << 10
)

// valueOptions are the generic layer's Options under the codec's limits.
//
// An object of the layout has at most MaxElements+2 members (a node's
// properties and its type and id) or 8 (the root, an edge). A table may
// need more columns than that: nodes has the union of its nodes' keys (at
// most MaxElements nodes of MaxElements properties each) and rows the
// union of its rows' cells, a node cell flattened into the node's
// MaxElements+2 path columns. MaxFields allows them; the response the
// document holds is then checked against the codec's Limits themselves,
// and the generic layer's memory bound holds whatever the columns.
//
// MaxMaterializedBytes bounds the response's canonical JSON; the generic
// layer bounds its own estimate of the memory of the value it builds,
// which takes up to valueMemFactor times the canonical JSON (a list of
// one-digit ints: two bytes of JSON, 48 of value, per item), so the
// generic layer gets that much room, and the response is checked against
// the limit itself once built. The generic layer's own bound, 10 times
// the input plus 10 MiB, holds either way.
func (c *Codec) valueOptions() gcfvalue.Options {
	l := c.limits
	m := int64(l.MaxElements)
	if l.MaxMaterializedBytes < (math.MaxInt64-valueMemSlack)/valueMemFactor {
		l.MaxMaterializedBytes = l.MaxMaterializedBytes*valueMemFactor + valueMemSlack
	} else {
		l.MaxMaterializedBytes = math.MaxInt64
	}
	l.MaxDepth = min(l.MaxDepth+layoutDepth, wire.HardMaxDepth)
	l.MaxElements = int(min(max(m+2, 8), math.MaxInt32))
	fields := int64(math.MaxInt32)
	if m < 1<<10 { // m*m*(m+2) fits well below 2^31
		fields = min(max(m*m*(m+2), 8), math.MaxInt32)
	}
	return gcfvalue.Options{Limits: l, MaxFields: int(fields)}
}

// genericBudget is the most memory, as the generic layer estimates it,
// that the generic value decoded from n input bytes may take: 6 times the
// input plus 6 MiB. The response read from it takes at most half as much
// again (a row's cell, 48 bytes, for a member of 32), and the value is
// held until the response is read: the two stay within a decode's 16
// times the input plus 16 MiB.
func genericBudget(n int) int64 { return 6*int64(n) + 6<<20 }

// AppendEncode appends the GCF text of r to dst (see the package
// documentation for the layout). It refuses what wire.Limits.Check
// refuses, what the layout cannot carry (a NaN or infinite float, a query
// type or group kind outside the enumerations, a pagination in neither
// shape, a property named type or id, two properties or cells of one
// name), and text longer than MaxInputBytes; on error dst comes back
// unchanged.
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return c.appendEncode(dst, r)
}

// appendEncode is AppendEncode.
func (c *Codec) appendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	if r == nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	m, err := c.limits.Measure(Name, r)
	if err != nil {
		return dst, err
	}
	n := len(dst)
	out, ok := c.appendFast(dst, r, int64(m.SizeHint()))
	if !ok {
		if err := c.refusal(r); err != nil {
			return dst, err
		}
		return dst, &wire.EncodeError{Codec: Name, Limit: "MaxDepth",
			Msg: "the document nests deeper than the limit of " + strconv.Itoa(min(c.limits.MaxDepth+layoutDepth, wire.HardMaxDepth)) + " (MaxDepth and the layout's " + strconv.Itoa(layoutDepth) + " levels)"}
	}
	if int64(len(out)-n) > c.limits.MaxInputBytes {
		return out[:n], &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the text would take " + strconv.Itoa(len(out)-n) + " bytes, more than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	return out, nil
}

// writeChunk is the most EncodeTo hands w in one Write.
const writeChunk = 32 << 10

// EncodeTo writes the GCF text of r to w, in writes of at most 32 KiB. It
// builds the text in memory first (GCF's tables need their field union
// before their first row), so an *wire.EncodeError means nothing was
// written.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	out, err := c.AppendEncode(nil, r)
	if err != nil {
		return err
	}
	for len(out) > 0 {
		n := min(len(out), writeChunk)
		if _, err := w.Write(out[:n]); err != nil {
			return err
		}
		out = out[n:]
	}
	return nil
}

// Decode parses GCF text in the codec's layout into a new response. Bad
// text gives a *wire.DecodeError: positioned (line, column) when the GCF
// is malformed, naming the place in the layout ("nodes[3].id: ...") when
// well-formed GCF does not hold a response.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	if int64(len(data)) > c.limits.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: Name, Offset: c.limits.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	return c.decode(data, true)
}

// decode is Decode, through the reader first when fast (see decodeFast),
// through the generic value otherwise.
func (c *Codec) decode(data []byte, fast bool) (*wire.GraphResponse, error) {
	return c.decodeAt(data, 0, 0, fast)
}

// decodeAt is decode of the response whose text is the GCF line then
// data[body:], after the GCF line and the fields lines of a header
// (a response's own text when body is 0); its errors are positioned in
// data. The generic path reads a copy of that text, which its memory
// budget is charged with.
func (c *Codec) decodeAt(data []byte, body, fields int, fast bool) (*wire.GraphResponse, error) {
	r, ok := (*wire.GraphResponse)(nil), false
	if fast {
		r, ok = c.decodeFast(data, body)
	}
	if !ok {
		text, scratch := data, 0
		if body > 0 {
			text = append(append(make([]byte, 0, len(gcfLine)+len(data)-body), gcfLine...), data[body:]...)
			scratch = len(text)
		}
		opts := c.valueOptions()
		opts.Limits.MaxMaterializedBytes = min(opts.Limits.MaxMaterializedBytes, genericBudget(len(data))-int64(scratch))
		v, err := gcfvalue.Decode(text, opts)
		if err != nil {
			return nil, shiftError(err, body, fields)
		}
		if r, err = response(v); err != nil {
			return nil, err
		}
	}
	// What a decoder of GCF cannot refuse as it reads (the model's rules,
	// the limits of the response as a whole) it refuses here, with the
	// encoders' own check (Measure refuses exactly what Check does).
	if _, err := c.limits.Measure(Name, r); err != nil {
		var ee *wire.EncodeError
		if e, ok := err.(*wire.EncodeError); ok {
			ee = e
		}
		de := &wire.DecodeError{Codec: Name, Msg: err.Error()}
		if ee != nil {
			de.Msg, de.Limit = ee.Path+": "+ee.Msg, ee.Limit
		}
		return nil, de
	}
	return r, nil
}

// Sniff implements wire.Sniffer: 0.95 for text whose first line is a GCF
// generic-profile header (a response, or a document of delta.DocumentCodec),
// 0.5 for any other GCF header ("GCF " and a profile field), 0 otherwise.
// A byte order mark and blank lines may come first.
func (c *Codec) Sniff(prefix []byte) float64 {
	t, ok := wire.SniffText(prefix)
	if !ok {
		return 0
	}
	line := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		line = t[:i]
	}
	line = bytes.TrimRight(line, "\r")
	switch {
	case bytes.Equal(line, []byte("GCF profile=generic")), bytes.HasPrefix(line, []byte("GCF profile=generic ")):
		return 0.95
	case bytes.HasPrefix(line, []byte("GCF profile=")):
		return 0.5
	}
	return 0
}
