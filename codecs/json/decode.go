package json

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Decode parses canonical-shaped JSON into a response under the default
// Limits; see Codec.Decode.
func Decode(data []byte) (*wire.GraphResponse, error) { return std.Decode(data) }

// DecodeWithin is Decode under the Limits l (zero fields select their
// defaults), for a caller with no Codec at hand.
func DecodeWithin(data []byte, l wire.Limits) (*wire.GraphResponse, error) {
	d, err := newDecoder(data, l)
	if err != nil {
		return nil, err
	}
	defer d.release()
	return d.whole()
}

// whole reads a response and the end of the input.
func (d *decoder) whole() (*wire.GraphResponse, error) {
	r, err := d.response()
	if err == nil {
		err = d.End("response")
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Decode parses canonical-shaped JSON into a response, within the codec's
// Limits, as the package documentation says.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	return DecodeWithin(data, c.core.Limits)
}

// A decoder reads a response, a document or a value with the JSON
// scanner, and keeps what it builds.
type decoder struct {
	jsonvalue.Scanner
	l wire.Limits
	m wirecodec.Meter
	// fragment reads a document's content (see decoder.response).
	fragment bool
	*scratch

	// Where the response's property lists, rows and node references are
	// kept: a few backing arrays rather than an allocation each.
	keptProps slab[wire.Property]
	keptCells slab[wire.Cell]
	keptNodes slab[wire.Node]
}

// newDecoder is a decoder of data under l, once the input's length is
// within MaxInputBytes, past a UTF-8 byte order mark and white space. Its
// caller releases it.
func newDecoder(data []byte, l wire.Limits) (*decoder, error) {
	l, err := l.WithDefaults()
	if err != nil {
		return nil, &wire.DecodeError{Codec: Name, Msg: err.Error()}
	}
	if int64(len(data)) > l.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: Name, Offset: l.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(l.MaxInputBytes, 10)}
	}
	d := decoders.Get().(*decoder)
	*d = decoder{Scanner: jsonvalue.NewScanner(data), l: l, m: *wirecodec.NewMeter(l, len(data)), scratch: d.scratch}
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		d.Pos = 3
	}
	d.Space()
	return d, nil
}

// DecodeValue reads one JSON value into a wire.Value, under the codec's
// Limits: null, true or false, a number (an int when it has no fraction
// and no exponent and fits int64, a float otherwise: 1 is wire.Int(1),
// 1.0 is wire.Float(1)), a string, or an array of these, nested arrays
// included. An object is refused, and so are an integer outside int64 and
// a float outside float64's range. Errors are *wire.DecodeError with a
// byte offset. wire.Value's UnmarshalJSON calls it.
func (c *Codec) DecodeValue(data []byte) (wire.Value, error) {
	d, err := newDecoder(data, c.core.Limits)
	if err != nil {
		return wire.Value{}, err
	}
	defer d.release()
	v, err := d.value("value")
	if err != nil {
		return wire.Value{}, err
	}
	return v, d.End("value")
}

// DecodeProperties reads one JSON object into properties, in the order
// read, under the codec's Limits: each member's value as DecodeValue
// reads it. A key twice is refused. wire.NodeOf calls it for a type whose
// MarshalJSON writes its properties.
func (c *Codec) DecodeProperties(data []byte) ([]wire.Property, error) {
	d, err := newDecoder(data, c.core.Limits)
	if err != nil {
		return nil, err
	}
	defer d.release()
	var n wire.Node
	if err := d.properties("node reference", &n); err != nil {
		return nil, err
	}
	return n.Properties, d.End("object")
}
