package gcf

import (
	"bytes"
	"io"
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

// valueOptions are the generic layer's Options under the codec's limits.
func (c *Codec) valueOptions() gcfvalue.Options {
	l := c.limits
	l.MaxDepth = min(l.MaxDepth+layoutDepth, wire.HardMaxDepth)
	l.MaxElements = max(l.MaxElements, 8) // the layout's own tables and sections
	return gcfvalue.Options{Limits: l}
}

// AppendEncode appends the GCF text of r to dst (see the package
// documentation for the layout). It refuses what wire.Limits.Check
// refuses, what the layout cannot carry (a NaN or infinite float, a query
// type or group kind outside the enumerations, a pagination in neither
// shape, a property named type or id, two properties or cells of one
// name), and text longer than MaxInputBytes; on error dst comes back
// unchanged.
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	if r == nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	if err := c.limits.Check(Name, r); err != nil {
		return dst, err
	}
	doc, err := document(r)
	if err != nil {
		return dst, err
	}
	n := len(dst)
	out, err := gcfvalue.AppendEncode(dst, doc, c.valueOptions())
	if err != nil {
		return dst, err
	}
	if int64(len(out)-n) > c.limits.MaxInputBytes {
		return out[:n], &wire.EncodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the text would take " + strconv.Itoa(len(out)-n) + " bytes, more than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	return out, nil
}

// EncodeTo writes the GCF text of r to w. It builds the text in memory
// first (GCF's tables need their field union before their first row), so
// an *wire.EncodeError means nothing was written.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	out, err := c.AppendEncode(nil, r)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
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
	v, err := gcfvalue.Decode(data, c.valueOptions())
	if err != nil {
		return nil, err
	}
	r, err := response(v)
	if err != nil {
		return nil, err
	}
	if err := c.limits.Check(Name, r); err != nil {
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
// generic-profile header, 0.5 for any other GCF header ("GCF " and a
// profile field), 0 otherwise, and 0 for a delta or unchanged payload
// (see SniffDelta). A byte order mark and blank lines may come first.
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
	case isDeltaHeader(t):
		return 0 // a delta or unchanged payload (SniffDelta), not a response
	case bytes.Equal(line, []byte("GCF profile=generic")), bytes.HasPrefix(line, []byte("GCF profile=generic ")):
		return 0.95
	case bytes.HasPrefix(line, []byte("GCF profile=")):
		return 0.5
	}
	return 0
}
