package wire

import (
	"io"
	"strconv"
)

// UnmarshalJSON decodes canonical-shaped JSON into r, replacing its
// contents, with DecodeJSON's strict rules under the default Limits (an
// input longer than DefaultMaxInputBytes is refused). The JSON literal null
// leaves r unchanged, as encoding/json does for a null. Errors are
// *DecodeError; r is unchanged on error.
func (r *GraphResponse) UnmarshalJSON(data []byte) error {
	if isJSONNull(data) {
		return nil
	}
	got, err := DecodeJSON(data, Limits{})
	if err != nil {
		return err
	}
	*r = *got
	return nil
}

// MarshalJSON returns the canonical JSON of v: null, true/false, an int as
// its exact decimal digits, a float in its shortest form that reads back to
// the same bits and always with a fraction or exponent (1.0, not 1), a
// string with only '"', '\\' and control characters escaped, a list as a
// JSON array. A NaN or infinite float, which JSON cannot carry, is an
// *EncodeError whose Path is the float's place inside v ("[2][0]" for a
// list, "" for v itself).
func (v Value) MarshalJSON() ([]byte, error) {
	e := encoder{}
	if !e.value(v) {
		return nil, nonFiniteError(v, Path{})
	}
	return e.b, nil
}

// UnmarshalJSON sets v from one JSON value: null, true or false, a number
// (an int when it has no fraction and no exponent and fits int64, a float
// otherwise: 1 is Int(1), 1.0 is Float(1)), a string, or an array of
// these, nested arrays included. An object is refused, and so are an
// integer outside int64, a float outside float64's range, nesting deeper
// than the default MaxDepth and input longer than the default
// MaxInputBytes. Errors are *DecodeError with a byte offset; v is unchanged
// on error.
func (v *Value) UnmarshalJSON(data []byte) error {
	if err := checkJSONSize(data); err != nil {
		return err
	}
	l := DefaultLimits()
	d := decoder{data: data, src: string(data), l: l, m: newMeter(l, len(data))}
	d.ws()
	got, err := d.value("value")
	if err != nil {
		return err
	}
	d.ws()
	if d.pos < len(d.data) {
		return d.errAt(d.pos, "unexpected data after the value: "+d.found())
	}
	if listDepth(got) > DefaultMaxDepth {
		return &DecodeError{Codec: "json", Msg: "lists nested deeper than " + strconv.Itoa(DefaultMaxDepth) + " (MaxDepth)", Limit: "MaxDepth"}
	}
	*v = got
	return nil
}

// listDepth is the list nesting of v: 0 for a scalar, 1 for a list of
// scalars.
func listDepth(v Value) int {
	if v.Kind() != KindList {
		return 0
	}
	d := 0
	for _, x := range v.List() {
		d = max(d, listDepth(x))
	}
	return d + 1
}

func isJSONNull(data []byte) bool {
	d := decoder{data: data}
	d.ws()
	if !d.lit("null") {
		return false
	}
	d.ws()
	return d.pos == len(data)
}

func checkJSONSize(data []byte) error {
	if int64(len(data)) > DefaultMaxInputBytes {
		return &DecodeError{
			Codec:  "json",
			Offset: DefaultMaxInputBytes,
			Msg:    "input is longer than the limit of " + strconv.FormatInt(DefaultMaxInputBytes, 10) + " bytes (MaxInputBytes)",
			Limit:  "MaxInputBytes",
		}
	}
	return nil
}

// streamChunk is how many bytes a streaming encoder gathers before it
// hands them to the writer; it writes at element boundaries, so one write
// may exceed it by one node, edge or row.
const streamChunk = 32 << 10

// EncodeJSONTo writes the canonical JSON of r to w as it produces it,
// in writes of about 32 KiB at node, edge and row boundaries, so the whole
// text is never held in memory. The response is checked first: an
// *EncodeError means nothing was written; only an error from w can leave
// partial output. The bytes are those of AppendJSON.
//
// The check is a first encoding pass whose output is discarded chunk by
// chunk, so streaming costs about twice AppendJSON's time for memory that
// stays bounded. codecs/json's Codec.EncodeTo calls it, as may any
// server that streams canonical JSON.
func EncodeJSONTo(w io.Writer, r *GraphResponse) error {
	if r == nil {
		return &EncodeError{Codec: "json", Msg: "nil response"}
	}
	buf := make([]byte, 0, streamChunk+streamChunk/4)
	check := encoder{b: buf, out: io.Discard}
	if err := check.response(r); err != nil {
		return err
	}
	e := encoder{b: check.b[:0], out: w}
	if err := e.response(r); err != nil {
		return err
	}
	if len(e.b) > 0 {
		if _, err := w.Write(e.b); err != nil {
			return err
		}
	}
	return nil
}

// spill hands the bytes gathered so far to the encoder's writer once they
// reach streamChunk; it does nothing when the encoder appends to a slice.
func (e *encoder) spill() error {
	if e.out == nil || len(e.b) < streamChunk {
		return nil
	}
	if _, err := e.out.Write(e.b); err != nil {
		return err
	}
	e.b = e.b[:0]
	return nil
}
