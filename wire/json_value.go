package wire

import (
	"errors"
	"math"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
)

// AppendValueJSON appends v as compact canonical JSON, lists included,
// writing a float canonical JSON cannot carry (NaN, ±Inf) as null, as
// JavaScript's JSON.stringify does. goon writes a list value's text with
// it, and the scorecard keys its token cache by it; Value.MarshalJSON,
// which refuses a non-finite float instead, is the strict form.
func AppendValueJSON(dst []byte, v Value) []byte {
	b, _ := appendValue(dst, v, nullFloat)
	return b
}

// How appendValue writes a NaN or infinite float.
const (
	refuseFloat = iota // not at all: appendValue reports false
	nullFloat          // as null (AppendValueJSON)
	goFloat            // as strconv writes it, NaN, +Inf, -Inf (Value.String)
)

// appendValue appends v as canonical JSON; a NaN or infinite float is
// written as nonFinite says, and with refuseFloat it reports false.
func appendValue(dst []byte, v Value, nonFinite int) ([]byte, bool) {
	switch v.kind {
	case KindBool:
		return strconv.AppendBool(dst, v.Bool()), true
	case KindInt:
		return strconv.AppendInt(dst, v.Int(), 10), true
	case KindFloat:
		f := v.Float()
		switch {
		case !math.IsNaN(f) && !math.IsInf(f, 0):
			return textwire.AppendFloat(dst, f), true
		case nonFinite == refuseFloat:
			return dst, false
		case nonFinite == goFloat:
			return strconv.AppendFloat(dst, f, 'g', -1, 64), true
		}
	case KindString:
		return textwire.JSON.AppendQuoted(dst, v.strv()), true
	case KindList:
		dst = append(dst, '[')
		for i, x := range v.listv() {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendValue(dst, x, nonFinite); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	}
	return append(dst, "null"...), true
}

// MarshalJSON returns the canonical JSON of v: null, true/false, an int as
// its exact decimal digits, a float in its shortest form that reads back to
// the same bits and always with a fraction or exponent (1.0, not 1), a
// string with only '"', '\\' and control characters escaped, a list as a
// JSON array. A NaN or infinite float, which JSON cannot carry, is an
// *EncodeError whose Path is the float's place inside v ("[2][0]" for a
// list, "" for v itself).
func (v Value) MarshalJSON() ([]byte, error) {
	b, ok := appendValue(nil, v, refuseFloat)
	if !ok {
		at, f := firstNonFinite(v, "")
		return nil, &EncodeError{Codec: "json", Path: at, Msg: "unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)}
	}
	return b, nil
}

// firstNonFinite finds the first NaN or infinite float in v, the value at
// path p, lists included: its path and its value.
func firstNonFinite(v Value, p string) (string, float64) {
	if f := v.Float(); v.kind == KindFloat && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return p, f
	}
	for i, x := range v.listv() {
		if at, f := firstNonFinite(x, p+"["+strconv.Itoa(i)+"]"); at != "" {
			return at, f
		}
	}
	return "", 0
}

// The canonical JSON reader and writer of a response are the json codec's
// (codecs/json). The encoding/json methods below reach them through the
// codec registered as "json" in the default registry, as DecodeWith does:
// they need codecs/json imported (or codecs, which imports it).

// jsonCodec is what the methods need of the json codec beyond Codec:
// reading one JSON value, and one JSON object as properties (NodeOf).
type jsonCodec interface {
	Codec
	DecodeValue(data []byte) (Value, error)
	DecodeProperties(data []byte) ([]Property, error)
}

// errNoJSON is the error of the methods when no json codec is registered.
var errNoJSON = errors.New(`wire: the json codec is not registered (import github.com/graphwire/graphwire/codecs/json)`)

func defaultJSON() (jsonCodec, error) {
	c, err := defaultRegistry.Lookup("json")
	if err != nil {
		return nil, errNoJSON
	}
	j, ok := c.(jsonCodec)
	if !ok {
		return nil, errNoJSON
	}
	return j, nil
}

// MarshalJSON returns the canonical JSON of r, as the json codec of the
// default registry encodes it (it needs codecs/json registered, as
// EncodeWith does). It has a value receiver, so that a response held by
// value (a struct field, a slice element, a map value) is written in
// canonical JSON as one held by pointer is.
func (r GraphResponse) MarshalJSON() ([]byte, error) {
	c, err := defaultJSON()
	if err != nil {
		return nil, err
	}
	return c.AppendEncode(nil, &r)
}

// UnmarshalJSON decodes canonical JSON into r, replacing its contents, with
// the json codec of the default registry (it needs codecs/json
// registered, as DecodeWith does): strictly, under that codec's Limits.
// The JSON literal null leaves r unchanged, as encoding/json does for a
// null. Errors are *DecodeError; r is unchanged on error.
func (r *GraphResponse) UnmarshalJSON(data []byte) error {
	if isJSONNull(data) {
		return nil
	}
	return unmarshalJSON(func(c jsonCodec) error {
		got, err := c.Decode(data)
		if err == nil {
			*r = *got
		}
		return err
	})
}

// UnmarshalJSON sets v from one JSON value: null, true or false, a number
// (an int when it has no '.', 'e' or 'E' and fits int64, else a float), a
// string or an array of these; an object is refused. It reads with the
// json codec of the default registry (it needs codecs/json registered),
// under its Limits. v is unchanged on error.
func (v *Value) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(func(c jsonCodec) error {
		got, err := c.DecodeValue(data)
		if err == nil {
			*v = got
		}
		return err
	})
}

// unmarshalJSON calls read with the json codec of the default registry.
func unmarshalJSON(read func(jsonCodec) error) error {
	c, err := defaultJSON()
	if err != nil {
		return err
	}
	return read(c)
}

// isJSONNull reports whether data is the JSON literal null, white space
// around it allowed.
func isJSONNull(data []byte) bool {
	i := textwire.SkipJSONSpace(data, 0)
	if len(data)-i < len("null") || string(data[i:i+len("null")]) != "null" {
		return false
	}
	return textwire.SkipJSONSpace(data, i+len("null")) == len(data)
}

// listDepth is the list nesting of v: 0 for a scalar, 1 for a list of
// scalars.
func listDepth(v Value) int {
	if v.kind != KindList {
		return 0
	}
	d := 0
	for _, x := range v.listv() {
		d = max(d, listDepth(x))
	}
	return d + 1
}
