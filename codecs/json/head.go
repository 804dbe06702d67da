package json

import (
	"strconv"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The header syntax of a document (package delta): see the package
// documentation, "Documents".

var _ delta.DocumentCodec = (*Codec)(nil)

// contentKey is the key of a document's content.
const contentKey = "content"

// AppendDocument implements delta.DocumentCodec: with no header it is
// AppendEncode; otherwise the object above.
func (c *Codec) AppendDocument(dst []byte, header []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	if len(header) == 0 {
		return c.AppendEncode(dst, content)
	}
	if err := delta.CheckHeader(Name, header, c.core.Limits); err != nil {
		return dst, err
	}
	b := append(dst, '{')
	for i, f := range header {
		k, _ := delta.FieldKind(f.Name)
		if i > 0 {
			b = append(b, ',')
		}
		b = textwire.JSON.AppendQuoted(b, f.Name)
		b = append(b, ':')
		switch k {
		case delta.IntList:
			b = append(delta.AppendInts(append(b, '['), f.Ints), ']')
		default:
			b = textwire.JSON.AppendQuoted(b, f.Text)
		}
	}
	if content != nil {
		b = append(b, `,"`+contentKey+`":`...)
		var err error
		if b, err = appendWithin(b, content, c.core.Limits, true); err != nil {
			return dst, err
		}
	}
	return append(b, '}'), nil
}

// DecodeDocument implements delta.DocumentCodec: a response (its first key
// not a header field's name) is Decode's; a document's fields are read in
// order, then its content as Decode reads a response, under the codec's
// Limits. Errors are *wire.DecodeError with a byte offset into data.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	d, err := newDecoder(data, c.core.Limits)
	if err != nil {
		return nil, nil, err
	}
	defer d.release()
	if !d.isDocument() {
		r, err := d.whole()
		return nil, r, err
	}
	d.fragment = true
	var fields []delta.Field
	more, err := d.Open('{', "document")
	for ; more; more, err = d.Next('}', "document") {
		key, off, err := d.Key(max(d.l.MaxStringBytes, 64))
		if err != nil {
			return nil, nil, err
		}
		if key == contentKey {
			r, err := d.response()
			if err == nil {
				d.Space()
				if d.Peek() != '}' {
					return nil, nil, d.Expected("'}' at the end of the document")
				}
				d.Pos++
				err = d.End("document")
			}
			if err != nil {
				return nil, nil, err
			}
			return fields, r, nil
		}
		f, err := d.headField(fields, key, off)
		if err != nil {
			return nil, nil, err
		}
		fields = append(fields, f)
	}
	if err == nil {
		err = d.End("document")
	}
	if err != nil {
		return nil, nil, err
	}
	return fields, nil, nil
}

// isDocument reports whether the input opens an object whose first key is
// a header field's name.
func (d *decoder) isDocument() bool {
	save := d.Pos
	defer func() { d.Pos = save }()
	more, err := d.Open('{', "document")
	if !more || err != nil {
		return false
	}
	key, _, err := d.Key(64)
	_, known := delta.FieldKind(key)
	return err == nil && known
}

// headField reads the value of the header field key, at off, which must
// not be among those read.
func (d *decoder) headField(read []delta.Field, key string, off int) (delta.Field, error) {
	f := delta.Field{Name: key}
	kind, known := delta.FieldKind(key)
	if !known {
		return f, d.Err(off, textwire.Excerpt(key)+" is not a header field")
	}
	for _, g := range read {
		if g.Name == key {
			return f, d.Err(off, strconv.Quote(key)+" appears twice")
		}
	}
	var err error
	if kind == delta.IntList {
		f.Ints, err = d.ints(key)
	} else {
		f.Text, err = d.str(strconv.Quote(key), d.l.MaxStringBytes)
	}
	return f, err
}

// ints reads an array of at most MaxElements integers.
func (d *decoder) ints(key string) ([]int, error) {
	var v []int
	name := strconv.Quote(key)
	more, err := d.Open('[', name+": an integer")
	for ; more; more, err = d.Next(']', name) {
		if len(v) == d.l.MaxElements {
			return nil, d.tooMany(d.Pos, name)
		}
		x, err := d.integer(name)
		if err != nil {
			return nil, err
		}
		v = append(v, int(x))
	}
	return v, err
}
