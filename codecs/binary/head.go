package binary

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The header syntax of a document (delta.DocumentCodec): see the package
// documentation, Documents.

var _ delta.DocumentCodec = (*Codec)(nil)

// contentKey is the document's last key: its value is the content.
const contentKey = "content"

// maxDocumentEntries is the most entries a document's map holds: each
// header field once, and the content.
const maxDocumentEntries = 17

// AppendDocument implements delta.DocumentCodec (see the package
// documentation, Documents); on error dst comes back as given.
func (c *Codec) AppendDocument(dst []byte, header []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	if len(header) == 0 {
		return c.AppendEncode(dst, content)
	}
	if err := c.checkHeader(header); err != nil {
		return dst, err
	}
	entries := len(header)
	if content != nil {
		entries++
	}
	s, out := newHeadSink(c.format, dst)
	s.object(entries)
	for _, f := range header {
		s.str(f.Name)
		switch k, _ := delta.FieldKind(f.Name); k {
		case delta.IntList:
			s.array(len(f.Ints))
			for _, x := range f.Ints {
				s.integer(int64(x))
			}
		default:
			s.str(f.Text)
		}
	}
	b := *out
	if content != nil {
		s.str(contentKey)
		var err error
		if b, err = c.appendEncode(*out, content, delta.Checkable(content, true)); err != nil {
			return dst, err
		}
	}
	if err := c.core.CheckOutput(int64(len(b)-len(dst)), "document"); err != nil {
		return dst, err
	}
	return b, nil
}

// newHeadSink returns the sink of f appending to dst, and its bytes.
func newHeadSink(f Format, dst []byte) (sink, *[]byte) {
	if f == CBOR {
		cs := &cborSink{b: dst}
		return cs, &cs.b
	}
	ms := &mpSink{b: dst}
	return ms, &ms.b
}

// checkHeader refuses a header DecodeDocument would refuse.
func (c *Codec) checkHeader(header []delta.Field) error {
	if len(header) >= maxDocumentEntries {
		return &wire.EncodeError{Codec: c.format.String(), Path: "header",
			Msg: fmt.Sprintf("a header of %d fields, past the %d a document has", len(header), maxDocumentEntries-1)}
	}
	return delta.CheckHeader(c.format.String(), header, c.core.Limits)
}

// DecodeDocument implements delta.DocumentCodec: it reads what
// AppendDocument writes, and any response.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	if len(data) == 0 || !c.document(data[0]) {
		r, err := c.Decode(data)
		return nil, r, err
	}
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, nil, err
	}
	// The header is read in place: its strings alias data and are cloned
	// before they are kept.
	src := source{data: data, text: unsafe.String(unsafe.SliceData(data), len(data)), format: c.format, b: &c.b, lim: &c.core.Limits}
	var d decoder
	d.reset(&src, c)
	entries := d.object()
	header := make([]delta.Field, 0, entries)
	for i := 0; i < entries && d.err == nil; i++ {
		t := d.item("document key", kString, false)
		switch {
		case t == nil:
		case t.s == contentKey && (i == 0 || i != entries-1):
			d.failf("%q is the last entry of a document, after at least one header field", contentKey)
		case t.s == contentKey:
			r, err := c.decode(data[src.off:], true)
			var de *wire.DecodeError
			if errors.As(err, &de) {
				de.Offset += int64(src.off)
			}
			if err != nil {
				return nil, nil, err
			}
			return header, r, nil
		default:
			header = append(header, d.field(t.s, header))
		}
	}
	if d.err == nil && src.off != len(data) {
		d.err = src.failAt(src.off, fmt.Sprintf("%d trailing bytes after the document", len(data)-src.off), nil)
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	return header, nil, nil
}

// document reports whether b, an encoding's first byte, opens a map.
func (c *Codec) document(b byte) bool {
	if c.format == CBOR {
		return b>>5 == cborMap
	}
	return b&0xf0 == mpFixMap || b == mpMap16 || b == mpMap32
}

// fieldItem reads an item of the value of the field name, whose errors name
// the field.
func (d *decoder) fieldItem(name string) *token {
	t := d.read()
	var de *wire.DecodeError
	if t == nil && errors.As(d.err, &de) && !strings.HasPrefix(de.Msg, name+": ") {
		de.Msg = name + ": " + de.Msg
	}
	return t
}

// object reads the document's map head: its number of entries.
func (d *decoder) object() int {
	d.src.maps = true
	t := d.read()
	d.src.maps = false
	switch {
	case t == nil:
		return 0
	case t.kind != kMap || t.i == 0 || t.i > maxDocumentEntries:
		d.failf("a document's map of %d entries (1 to %d: header fields, then the content)", t.i, maxDocumentEntries)
		return 0
	}
	return int(t.i)
}

// field reads the value of the header field name, after the fields read.
func (d *decoder) field(name string, read []delta.Field) delta.Field {
	k, ok := delta.FieldKind(name)
	if !ok {
		d.failf("unknown header field %s", textwire.Excerpt(name))
		return delta.Field{}
	}
	for _, f := range read {
		if f.Name == name {
			d.failf("header field %s given twice", name)
			return delta.Field{}
		}
	}
	f := delta.Field{Name: strings.Clone(name)}
	t := d.fieldItem(name)
	switch {
	case t == nil:
	case k == delta.IntList && t.kind == kArray:
		f.Ints = d.ints(name, int(t.i))
	case k == delta.Text && t.kind == kString:
		if len(t.s) > d.c.core.Limits.MaxStringBytes {
			d.failLimit("MaxStringBytes", "%s: a text of %d bytes, longer than the limit of %d", name, len(t.s), d.c.core.Limits.MaxStringBytes)
		}
		f.Text = strings.Clone(t.s)
	default:
		d.failf("%s: expected %s, found %s", name, kindNames[k], t.kind)
	}
	return f
}

// kindNames names the item each kind of header value is written as.
var kindNames = [...]string{delta.IntList: "array of integers", delta.Text: "string"}

// ints reads the n integers of an IntList field's array, whose head has
// been read, into a list allocated whole (the source has checked that the
// bytes left hold n items).
func (d *decoder) ints(name string, n int) []int {
	if n > d.c.core.Limits.MaxElements {
		d.failLimit("MaxElements", "%s: %d integers, more than the limit of %d", name, n, d.c.core.Limits.MaxElements)
		return nil
	}
	if n == 0 {
		return nil
	}
	v := make([]int, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		t := d.fieldItem(name)
		switch {
		case t == nil:
		case t.kind != kInt:
			d.failf("%s: number %d: expected integer, found %s", name, i, t.kind)
		case int64(int(t.i)) != t.i:
			d.failf("%s: %d is out of range", name, t.i)
		default:
			v = append(v, int(t.i))
		}
	}
	return v
}
