package json

import (
	"math"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// str reads a string of at most max bytes once decoded, for field: the
// caller passes MaxStringBytes, or, for a value it compares with an
// enumeration or a schema's field names, at least 64.
func (d *decoder) str(field string, max int) (string, error) {
	if d.Peek() != '"' {
		return "", d.Expected("a string for " + field)
	}
	return d.String(max)
}

// value reads a property or cell value: null, bool, number, string or a
// list of values.
func (d *decoder) value(field string) (wire.Value, error) {
	switch c := d.Peek(); {
	case c == '"':
		s, err := d.String(d.l.MaxStringBytes)
		return wire.String(s), err
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number(field)
	case c == '[':
		return d.list(field)
	case c == '{':
		return wire.Value{}, d.Err(d.Pos, textwire.Excerpt(field)+": expected a value (null, boolean, number, string or array), found object")
	case d.Literal("null"):
		return wire.Null(), nil
	case d.Literal("true"):
		return wire.Bool(true), nil
	case d.Literal("false"):
		return wire.Bool(false), nil
	}
	return wire.Value{}, d.Expected("a value for " + textwire.Excerpt(field))
}

// list reads a list value, nested at most MaxDepth deep and of at most
// MaxElements items. Its errors quote field, which comes from the input.
func (d *decoder) list(field string) (wire.Value, error) {
	if err := d.Enter(d.l.MaxDepth, "lists"); err != nil {
		return wire.Value{}, err
	}
	var vs []wire.Value
	more, err := d.Open('[', "an")
	for ; more; more, err = d.Next(']', "") {
		if len(vs) == d.l.MaxElements {
			return wire.Value{}, d.tooMany(d.Pos, "list "+textwire.Excerpt(field))
		}
		v, err := d.value(field)
		if err != nil {
			return wire.Value{}, err
		}
		vs = append(grown(d, vs, len(vs)), v)
	}
	if err != nil { // the error's message quotes field only when there is one
		return wire.Value{}, d.Expected("',' or ']' in the list " + textwire.Excerpt(field))
	}
	d.Leave()
	return wire.ListOf(vs...), nil
}

// number reads a number: an int when it has no fraction or exponent (and
// must fit int64), a float otherwise (and must be within float64's range).
func (d *decoder) number(field string) (wire.Value, error) {
	lit, isFloat, err := d.Number(field)
	if err != nil {
		return wire.Value{}, err
	}
	start := d.Pos - len(lit)
	if !isFloat {
		i, ok := textwire.ParseInt(lit)
		if !ok {
			return wire.Value{}, d.outOfRange(start, lit, textwire.Excerpt(field))
		}
		return wire.Int(i), nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if math.IsInf(f, 0) {
		return wire.Value{}, d.Err(start, textwire.Excerpt(field)+": number "+textwire.Clip(lit)+" is out of float64 range")
	}
	if err != nil {
		return wire.Value{}, d.Err(start, textwire.Excerpt(field)+": invalid number "+textwire.Excerpt(lit))
	}
	return wire.Float(f), nil
}

// integer reads an integer number (no fraction, no exponent).
func (d *decoder) integer(field string) (int64, error) {
	start := d.Pos
	lit, isFloat, err := d.Number(field)
	switch {
	case err != nil:
		d.Pos = start
		return 0, d.Expected("an integer for " + field)
	case isFloat:
		return 0, d.Err(start, field+": expected an integer, found "+textwire.Clip(lit))
	}
	i, ok := textwire.ParseInt(lit)
	if !ok {
		return 0, d.outOfRange(start, lit, field)
	}
	return i, nil
}

// outOfRange is the error for the integer literal lit, at start, of
// field, which int64 cannot hold.
func (d *decoder) outOfRange(start int, lit, field string) error {
	return d.Err(start, field+": integer "+textwire.Clip(lit)+" is out of int64 range")
}

// id reads an id: a JSON string holding a decimal int64.
func (d *decoder) id(field string) (int64, error) {
	if d.Peek() != '"' {
		return 0, d.Expected("a decimal string for " + field)
	}
	start := d.Pos
	text := d.Text(start+1, min(d.Len(), start+25))
	if end := strings.IndexByte(text, '"'); end >= 0 {
		if i, ok := textwire.ParseInt(text[:end]); ok {
			d.Pos = start + end + 2
			return i, nil
		}
	}
	s, err := d.str(field, d.l.MaxStringBytes)
	if err != nil {
		return 0, err
	}
	return 0, d.Err(start, field+": expected a decimal int64 string, found "+textwire.Excerpt(s))
}
