package delta

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// UnmarshalJSON sets d from its JSON form with DecodeJSON under the
// default wire.Limits. The JSON literal null leaves d unchanged, as
// encoding/json does for a null; so does an error.
func (d *Delta) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	got, err := DecodeJSON(data, wire.Limits{})
	if err != nil {
		return err
	}
	*d = *got
	return nil
}

// DecodeJSON reads the JSON form of a Delta (see the package
// documentation) within l (zero fields select their defaults): the input's
// length (MaxInputBytes), every list's length (MaxElements), every string
// (MaxStringBytes), and the content under every limit of wire.DecodeJSON.
// It is strict: an unknown or repeated key, a missing one, a value of the
// wrong type, a number where a position belongs that is negative or not an
// integer, content that does not match the operations. What it builds is
// held with a Meter to MaxExpansion times the input plus
// wire.ExpansionAllowance bytes in memory (see the package documentation,
// Limits and security). Like wire.DecodeJSON it accepts any whitespace
// and a leading UTF-8 byte order mark. Errors are
// *wire.DecodeError with a byte offset ("delta: offset 120: ..."); one
// caused by a limit matches errors.Is(err, wire.ErrLimit).
//
// DecodeJSON checks the form, not the base: Patch checks the Delta against
// its base and its result.
func DecodeJSON(data []byte, l wire.Limits) (*Delta, error) {
	l, err := l.WithDefaults()
	if err != nil {
		return nil, &wire.DecodeError{Codec: codecName, Msg: err.Error()}
	}
	if int64(len(data)) > l.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: codecName, Offset: l.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(l.MaxInputBytes, 10)}
	}
	r := &reader{data: data, l: l, m: NewMeter(l, len(data))}
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		r.data, r.shift = data[3:], 3 // a UTF-8 byte order mark, as wire.DecodeJSON allows
	}
	r.dec = json.NewDecoder(bytes.NewReader(r.data))
	r.dec.UseNumber()
	d, err := r.delta()
	if err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, r.fail(r.here(), "unexpected data after the delta")
	}
	return d, nil
}

// reader walks the tokens of encoding/json's Decoder, strictly. Offsets
// are into data; errors add shift, the length of a byte order mark
// before it.
type reader struct {
	data  []byte
	shift int64
	l     wire.Limits
	m     *Meter
	dec   *json.Decoder
}

// add appends x to *list, charged to r.m (Append), or refuses at off.
func add[T any](r *reader, off int64, list *[]T, x T) error {
	l, ok := Append(r.m, *list, x)
	if !ok {
		return r.refused(off)
	}
	*list = l
	return nil
}

// refused is the error of a charge to r.m that did not fit, at off.
func (r *reader) refused(off int64) error { return r.limit(off, r.m.LimitName(), r.m.Msg()) }

// here is the offset of the next token.
func (r *reader) here() int64 {
	i := r.dec.InputOffset()
	for i < int64(len(r.data)) {
		switch r.data[i] {
		case ' ', '\t', '\n', '\r', ':', ',':
			i++
			continue
		}
		break
	}
	return i
}

func (r *reader) fail(off int64, msg string) error {
	return &wire.DecodeError{Codec: codecName, Offset: off + r.shift, Msg: msg}
}

func (r *reader) limit(off int64, limit, msg string) error {
	return &wire.DecodeError{Codec: codecName, Offset: off + r.shift, Msg: msg, Limit: limit}
}

// token reads the next token, turning a syntax error or the end of the
// input into a positioned error.
func (r *reader) token(what string) (json.Token, int64, error) {
	off := r.here()
	t, err := r.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, se.Offset, r.fail(se.Offset, what+": "+se.Error())
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, int64(len(r.data)), r.fail(int64(len(r.data)), what+": unexpected end of input")
		}
		return nil, off, r.fail(off, what+": "+err.Error())
	}
	return t, off, nil
}

// describe names a token for an error message.
func describe(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
		return strconv.Quote(v.String())
	case string:
		return "the string " + textwire.Excerpt(v)
	case json.Number:
		return "the number " + textwire.Excerpt(string(v))
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	}
	return "a value"
}

func (r *reader) expect(what string, t json.Token, off int64, want string) error {
	return r.fail(off, what+": expected "+want+", found "+describe(t))
}

// object reads an object, calling fn with each key; a key seen twice is an
// error.
func (r *reader) object(what string, fn func(key string, off int64) error) error {
	t, off, err := r.token(what)
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return r.expect(what, t, off, "an object")
	}
	var seen []string
	for r.dec.More() {
		t, off, err := r.token(what)
		if err != nil {
			return err
		}
		key, _ := t.(string)
		for _, s := range seen {
			if s == key {
				return r.fail(off, what+": duplicate key "+textwire.Excerpt(key))
			}
		}
		seen = append(seen, key)
		if err := fn(key, off); err != nil {
			return err
		}
	}
	_, _, err = r.token(what)
	return err
}

// array reads an array, calling fn for each element, at most MaxElements.
func (r *reader) array(what string, fn func(i int) error) error {
	t, off, err := r.token(what)
	if err != nil {
		return err
	}
	if t != json.Delim('[') {
		return r.expect(what, t, off, "an array")
	}
	n := 0
	for r.dec.More() {
		if n == r.l.MaxElements {
			return r.limit(r.here(), "MaxElements", what+": more than "+strconv.Itoa(r.l.MaxElements)+" elements (MaxElements)")
		}
		if err := fn(n); err != nil {
			return err
		}
		n++
	}
	_, _, err = r.token(what)
	return err
}

func (r *reader) str(what string) (string, error) {
	t, off, err := r.token(what)
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", r.expect(what, t, off, "a string")
	}
	if len(s) > r.l.MaxStringBytes {
		return "", r.limit(off, "MaxStringBytes", what+": a string of "+strconv.Itoa(len(s))+" bytes, longer than "+strconv.Itoa(r.l.MaxStringBytes)+" (MaxStringBytes)")
	}
	return s, nil
}

// integer reads a JSON integer (no fraction, no exponent) within int64.
func (r *reader) integer(what string) (int64, int64, error) {
	t, off, err := r.token(what)
	if err != nil {
		return 0, off, err
	}
	n, ok := t.(json.Number)
	if !ok {
		return 0, off, r.expect(what, t, off, "an integer")
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, off, r.fail(off, what+": expected an integer within int64, found "+textwire.Excerpt(string(n)))
	}
	return i, off, nil
}

// position reads a non-negative integer that fits an int.
func (r *reader) position(what string) (int, error) {
	i, off, err := r.integer(what)
	if err != nil {
		return 0, err
	}
	if i < 0 || int64(int(i)) != i {
		return 0, r.fail(off, what+": expected a non-negative position, found "+strconv.FormatInt(i, 10))
	}
	return int(i), nil
}

// id reads an id: a string of decimal digits within int64, as canonical
// JSON writes ids.
func (r *reader) id(what string) (int64, error) {
	off := r.here()
	s, err := r.str(what)
	if err != nil {
		return 0, err
	}
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil || s == "" || s[0] == '+' {
		return 0, r.fail(off, what+": expected an id, a string of decimal digits within int64, found "+textwire.Excerpt(s))
	}
	return i, nil
}

func (r *reader) hash(what string) (Hash, error) {
	off := r.here()
	s, err := r.str(what)
	if err != nil {
		return Hash{}, err
	}
	h, err := ParseHash(s)
	if err != nil {
		return h, r.fail(off, what+`: expected "sha256:" and 64 lowercase hex digits, found `+textwire.Excerpt(s))
	}
	return h, nil
}

func (r *reader) unknown(what, key string, off int64) error {
	return r.fail(off, what+": unknown key "+textwire.Excerpt(key))
}

func (r *reader) missing(what, key string, off int64) error {
	return r.fail(off, what+": missing key "+strconv.Quote(key))
}
