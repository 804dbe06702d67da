package json

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// value parses a property or cell value: null, bool, number, string or a
// list of values.
func (d *decoder) value(field string) (wire.Value, error) {
	switch c := d.peek(); {
	case c == '"':
		s, err := d.str(field)
		return wire.String(s), err
	case c == 'n':
		if d.lit("null") {
			return wire.Null(), nil
		}
	case c == 't':
		if d.lit("true") {
			return wire.Bool(true), nil
		}
	case c == 'f':
		if d.lit("false") {
			return wire.Bool(false), nil
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number(field)
	case c == '[':
		return d.list(field)
	case c == '{':
		return wire.Value{}, d.errAt(d.pos, textwire.Excerpt(field)+": expected a value (null, boolean, number, string or array), found object")
	}
	return wire.Value{}, d.expected("a value for " + textwire.Excerpt(field))
}

// list parses a list value, nested at most MaxDepth deep and of at most
// MaxElements items. It is array with error messages that quote field,
// which comes from the input.
func (d *decoder) list(field string) (wire.Value, error) {
	if d.depth++; d.depth > d.l.MaxDepth {
		return wire.Value{}, d.limitAt(d.pos, "MaxDepth", "lists nested more than "+strconv.Itoa(d.l.MaxDepth)+" deep (MaxDepth)")
	}
	d.pos++ // '['
	d.ws()
	var vs []wire.Value
	if d.peek() == ']' {
		d.pos++
		d.depth--
		return wire.ListOf(), nil
	}
	for {
		d.ws()
		if len(vs) == d.l.MaxElements {
			return wire.Value{}, d.tooMany(d.pos, "list "+textwire.Excerpt(field))
		}
		v, err := d.value(field)
		if err != nil {
			return wire.Value{}, err
		}
		vs = append(grown(d, vs, len(vs)), v)
		d.ws()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return wire.ListOf(vs...), nil
		default:
			return wire.Value{}, d.expected("',' or ']' in the list " + textwire.Excerpt(field))
		}
	}
}

// scanNumber checks JSON number syntax at the current position and returns
// its end and whether it has a fraction or exponent (textwire.ScanNumber,
// the rule every text codec reads numbers by).
func (d *decoder) scanNumber() (end int, isFloat bool, ok bool) {
	return textwire.ScanNumber(d.data, d.pos)
}

func (d *decoder) number(field string) (wire.Value, error) {
	start := d.pos
	end, isFloat, ok := d.scanNumber()
	if !ok {
		d.pos = end
		return wire.Value{}, d.expected("a digit in number for " + textwire.Excerpt(field))
	}
	lit := d.data[start:end]
	if isFloat {
		f, err := strconv.ParseFloat(unsafe.String(&lit[0], len(lit)), 64)
		if err != nil && !math.IsInf(f, 0) {
			return wire.Value{}, d.errAt(start, textwire.Excerpt(field)+": invalid number "+textwire.Excerpt(string(lit)))
		}
		if math.IsInf(f, 0) {
			return wire.Value{}, d.errAt(start, textwire.Excerpt(field)+": number "+textwire.Clip(string(lit))+" is out of float64 range")
		}
		d.pos = end
		return wire.Float(f), nil
	}
	i, ok := textwire.ParseInt(lit)
	if !ok {
		return wire.Value{}, d.errAt(start, textwire.Excerpt(field)+": integer "+textwire.Clip(string(lit))+" is out of int64 range")
	}
	d.pos = end
	return wire.Int(i), nil
}

// integer parses a JSON integer number (no fraction, no exponent).
func (d *decoder) integer(field string) (int64, error) {
	start := d.pos
	end, isFloat, ok := d.scanNumber()
	if !ok || isFloat {
		if ok {
			return 0, d.errAt(start, field+": expected an integer, found "+textwire.Clip(string(d.data[start:end])))
		}
		return 0, d.expected("an integer for " + field)
	}
	i, ok := textwire.ParseInt(d.data[start:end])
	if !ok {
		return 0, d.errAt(start, field+": integer "+textwire.Clip(string(d.data[start:end]))+" is out of int64 range")
	}
	d.pos = end
	return i, nil
}

// id parses an id: a JSON string holding a decimal int64.
func (d *decoder) id(field string) (int64, error) {
	if d.peek() != '"' {
		return 0, d.expected("a decimal string for " + field)
	}
	start := d.pos
	end := start + 1
	for end < len(d.data) && d.data[end] != '"' && d.data[end] != '\\' && end-start < 24 {
		end++
	}
	if end < len(d.data) && d.data[end] == '"' {
		if i, ok := textwire.ParseInt(d.data[start+1 : end]); ok {
			d.pos = end + 1
			return i, nil
		}
	}
	s, err := d.str(field)
	if err != nil {
		return 0, err
	}
	return 0, d.errAt(start, field+": expected a decimal int64 string, found "+textwire.Excerpt(s))
}
