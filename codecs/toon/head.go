package toon

import (
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// The header of a document (see the package documentation, Deltas and
// references) is a few more members of the document's top-level object:
// an IntList the inline primitive array "name[3]: 0,3,5", a Text
// "name: value", quoted by TOON's rules when it must be. They are written
// before the content's members and read by Decode's reader with them.

var _ delta.DocumentCodec = (*Codec)(nil)

// AppendDocument implements delta.DocumentCodec: it appends header's
// fields, one line each, then the TOON text of content (AppendEncode's,
// on the next line); with no fields it is AppendEncode, and a nil content
// writes the header alone. An IntList with no numbers is left out. A
// header delta.CheckHeader refuses, and a document longer than
// MaxInputBytes, are refused with a *wire.EncodeError and dst as given,
// as is anything AppendEncode refuses in content.
func (c *Codec) AppendDocument(dst []byte, header []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	if len(header) == 0 {
		return c.AppendEncode(dst, content)
	}
	if err := delta.CheckHeader(Name, header, c.core.Limits); err != nil {
		return dst, err
	}
	out := c.appendHeader(dst, header)
	var err error
	if content != nil {
		if len(out) > len(dst) {
			out = append(out, '\n')
		}
		if out, err = c.appendEncode(out, content, true); err != nil {
			return dst, err
		}
	}
	if err := c.core.CheckOutput(int64(len(out)-len(dst)), "document"); err != nil {
		return dst, err
	}
	return out, nil
}

// appendHeader appends the header's lines (checked by delta.CheckHeader),
// a newline between two; an empty list is left out.
func (c *Codec) appendHeader(dst []byte, header []delta.Field) []byte {
	e := newWriter(dst, nil)
	for _, f := range header {
		switch kind, _ := delta.FieldKind(f.Name); kind {
		case delta.IntList:
			if len(f.Ints) > 0 {
				intList(e, f.Name, f.Ints)
			}
		case delta.Text:
			e.StringField(f.Name, f.Text, 0)
		}
	}
	return e.Buf
}

// DecodeDocument implements delta.DocumentCodec: it reads what
// AppendDocument writes, and any text Decode reads (a document with no
// header), by the one reader of Decode. The document is one TOON object:
// its members named by a header field (delta.FieldKind) are the header,
// in the order read, and the others the content, nil when there are
// none. Errors are Decode's, a *wire.DecodeError at the line (and, for
// TOON syntax and limits, the column): a field given twice (a duplicate
// key), a value not of its field's kind (a list of integers, not empty;
// a string), a list past MaxElements or a text past MaxStringBytes.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	return c.read(data, &tables{lim: c.core.Limits, src: data}, true)
}

// headerField reads the member key: v of a document as a header field
// and reports true, or false when key names none or the reader reads a
// response (Decode), which has no header.
func (d *graphDecoder) headerField(key string, v jsonvalue.Value, path []pathStep) bool {
	kind, ok := delta.FieldKind(key)
	if !ok || !d.doc {
		return false
	}
	f := delta.Field{Name: key}
	if kind == delta.Text {
		f.Text, _ = d.str(v, path)
	} else if items := d.array(v, path); d.err == nil {
		if len(items) == 0 {
			d.fail(path, "an empty list is left out of the header, not written [0]")
		}
		f.Ints = make([]int, len(items))
		for i := range items {
			if f.Ints[i] = int(d.integer(items[i], append(path, indexStep(i)))); d.err != nil {
				break
			}
		}
	}
	d.header = append(d.header, f)
	return true
}
