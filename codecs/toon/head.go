package toon

import (
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

var _ delta.DocumentCodec = (*Codec)(nil)

// AppendDocument implements delta.DocumentCodec (see Deltas and
// references): header's fields, one line each, then content's text; with
// no fields it is AppendEncode. On error dst comes back as given.
func (c *Codec) AppendDocument(dst []byte, header []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	if len(header) == 0 {
		return c.AppendEncode(dst, content)
	}
	if err := delta.CheckHeader(Name, header, c.core.Limits); err != nil {
		return dst, err
	}
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
	out := e.Buf
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

// DecodeDocument implements delta.DocumentCodec: it reads what
// AppendDocument writes, and any text Decode reads, with Decode's reader
// (see Deltas and references); its errors are Decode's.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	return c.read(data, &tables{lim: c.core.Limits, src: data}, true)
}

// headerField reads the member key: v as a header field and reports
// true, or false when key names none or Decode reads a response.
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
