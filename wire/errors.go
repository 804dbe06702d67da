package wire

import (
	"errors"
	"strconv"
)

// ErrUnknownCodec is matched (errors.Is) by the error of a lookup by a name
// no codec is registered under.
var ErrUnknownCodec = errors.New("unknown codec")

// ErrLimit is matched (errors.Is) by a *DecodeError or *EncodeError whose
// Limit field names the Limits field that refused the response.
var ErrLimit = errors.New("limit exceeded")

// DecodeError is the error every built-in decoder returns for bad input. It
// says which codec, where, and what was expected or found. Text formats give
// a line (and a column where they know one); byte formats give an offset.
//
// Error() is one line: "goon: line 7: expected ...", "toon: line 3, column 5:
// ...", "json: offset 120: ...".
type DecodeError struct {
	Codec  string // codec name, e.g. "json"
	Line   int    // 1-based line, 0 when not known
	Column int    // 1-based column (bytes), 0 when not known
	Offset int64  // byte offset into the input; meaningful when Line is 0
	Msg    string // what was expected or found
	Limit  string // the Limits field exceeded ("MaxInputBytes"), or ""
	Err    error  // an underlying error, if any (errors.Is and errors.As look into it)
}

func (e *DecodeError) Error() string {
	b := make([]byte, 0, len(e.Codec)+len(e.Msg)+32)
	b = append(b, e.Codec...)
	b = append(b, ": "...)
	switch {
	case e.Line > 0 && e.Column > 0:
		b = append(b, "line "...)
		b = strconv.AppendInt(b, int64(e.Line), 10)
		b = append(b, ", column "...)
		b = strconv.AppendInt(b, int64(e.Column), 10)
	case e.Line > 0:
		b = append(b, "line "...)
		b = strconv.AppendInt(b, int64(e.Line), 10)
	default:
		b = append(b, "offset "...)
		b = strconv.AppendInt(b, e.Offset, 10)
	}
	b = append(b, ": "...)
	b = append(b, e.Msg...)
	if e.Err != nil {
		if e.Msg != "" {
			b = append(b, ": "...)
		}
		b = append(b, e.Err.Error()...)
	}
	return string(b)
}

// Unwrap returns Err, if any, and ErrLimit when a limit caused e, for
// errors.Is and errors.As.
func (e *DecodeError) Unwrap() []error { return unwrap(e.Err, e.Limit) }

// EncodeError is the error every built-in encoder returns for a response it
// cannot write: a value the format cannot carry (NaN in JSON), a response
// outside the model's rules (an unknown query type), or one past the
// codec's Limits. Nothing is written when encoding fails.
//
// Path names the place refused in the syntax of the Path type, the same
// for every codec; Error() is one line, the codec, the path and what is
// wrong: "json: nodes[3].properties.scores[1]: unsupported float value
// NaN" (see the EncodeError example, which produces it).
type EncodeError struct {
	Codec string // codec name, e.g. "json"
	Path  string // where in the response, a Path's String (nodes[3].properties.score); "" for the whole
	Msg   string // what is wrong
	Limit string // the Limits field exceeded ("MaxDepth"), or ""
	Err   error  // an underlying error, if any (errors.Is and errors.As look into it)
}

func (e *EncodeError) Error() string {
	s := e.Codec + ": "
	if e.Path != "" {
		s += e.Path + ": "
	}
	s += e.Msg
	if e.Err != nil {
		if e.Msg != "" {
			s += ": "
		}
		s += e.Err.Error()
	}
	return s
}

// Unwrap returns Err, if any, and ErrLimit when a limit caused e, for
// errors.Is and errors.As.
func (e *EncodeError) Unwrap() []error { return unwrap(e.Err, e.Limit) }

// unwrap is the Unwrap of an error with the underlying error err, caused
// by the limit named limit ("" for none).
func unwrap(err error, limit string) []error {
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if limit != "" {
		errs = append(errs, ErrLimit)
	}
	return errs
}
