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

// AppendDocument implements delta.DocumentCodec: the header's fields as
// the entries of a map, then "content" and the content as AppendEncode
// writes it (left out for a nil content); with no fields, what
// AppendEncode appends. On error, a *wire.EncodeError, dst comes back as
// given.
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
		if b, err = c.appendEncode(*out, content, delta.Checkable(content)); err != nil {
			return dst, err
		}
	}
	if err := c.core.CheckOutput(int64(len(b)-len(dst)), "document"); err != nil {
		return dst, err
	}
	return b, nil
}

// headSink is a sink that also writes a document's map head.
type headSink interface {
	sink
	object(n int)
}

// newHeadSink returns the headSink of f appending to dst, and its bytes.
func newHeadSink(f Format, dst []byte) (headSink, *[]byte) {
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
// AppendDocument writes, and any response (told apart by its first byte,
// and read by Decode alone). Errors are *wire.DecodeError at the
// offending item's offset in the whole input.
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
	h := headReader{src: &src, c: c}
	entries := h.object()
	header := make([]delta.Field, 0, max(entries, 0))
	for i := 0; i < entries && h.err == nil; i++ {
		name := h.key()
		if h.err != nil {
			break
		}
		if name == contentKey {
			if i == 0 || i != entries-1 {
				h.fail("%q is the last entry of a document, after at least one header field", contentKey)
				break
			}
			r, err := c.decode(data[src.off:], true)
			if err != nil {
				var de *wire.DecodeError
				if errors.As(err, &de) {
					de.Offset += int64(src.off)
				}
				return nil, nil, err
			}
			return header, r, nil
		}
		header = append(header, h.field(name, header))
	}
	if h.err == nil && src.off != len(data) {
		return nil, nil, src.failAt(src.off, fmt.Sprintf("%d trailing bytes after the document", len(data)-src.off), nil)
	}
	if h.err != nil {
		return nil, nil, h.err
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

// headReader reads a document's map and fields; the first error sticks.
type headReader struct {
	src *source
	c   *Codec
	tok token
	err error
}

func (h *headReader) fail(format string, args ...any) {
	if h.err == nil {
		h.err = h.src.fail(fmt.Sprintf(format, args...))
	}
}

func (h *headReader) next() *token {
	if h.err == nil {
		h.err = h.src.next(&h.tok)
	}
	if h.err != nil {
		return nil
	}
	return &h.tok
}

// value is next for an item of the field name's value, whose errors
// name the field.
func (h *headReader) value(name string) *token {
	t := h.next()
	if t == nil {
		h.name(name)
	}
	return t
}

// name puts the field's name before the source's error message.
func (h *headReader) name(field string) {
	var de *wire.DecodeError
	if errors.As(h.err, &de) && !strings.HasPrefix(de.Msg, field+": ") {
		de.Msg = field + ": " + de.Msg
	}
}

// object reads the document's map head: its number of entries.
func (h *headReader) object() int {
	h.src.maps = true
	t := h.next()
	h.src.maps = false
	switch {
	case t == nil:
		return 0
	case t.kind != kMap || t.i == 0 || t.i > maxDocumentEntries:
		h.fail("a document's map of %d entries (1 to %d: header fields, then the content)", t.i, maxDocumentEntries)
		return 0
	}
	return int(t.i)
}

// key reads an entry's key, a string.
func (h *headReader) key() string {
	t := h.next()
	if t == nil {
		return ""
	}
	if t.kind != kString {
		h.fail("document key: expected string, found %s", t.kind)
		return ""
	}
	return t.s
}

// field reads the value of the header field name, after the fields read.
func (h *headReader) field(name string, read []delta.Field) delta.Field {
	k, ok := delta.FieldKind(name)
	if !ok {
		h.fail("unknown header field %s", textwire.Excerpt(name))
		return delta.Field{}
	}
	for _, f := range read {
		if f.Name == name {
			h.fail("header field %s given twice", name)
			return delta.Field{}
		}
	}
	f := delta.Field{Name: strings.Clone(name)}
	t := h.value(name)
	switch {
	case t == nil:
	case k == delta.IntList && t.kind == kArray:
		f.Ints = h.ints(name, int(t.i))
	case k == delta.Text && t.kind == kString:
		if len(t.s) > h.c.core.Limits.MaxStringBytes {
			h.err = h.src.failLimit("MaxStringBytes", fmt.Sprintf("%s: a text of %d bytes, longer than the limit of %d", name, len(t.s), h.c.core.Limits.MaxStringBytes))
		}
		f.Text = strings.Clone(t.s)
	default:
		h.fail("%s: expected %s, found %s", name, kindNames[k], t.kind)
	}
	return f
}

// int is the integer i of the field name as an int, which may be narrower.
func (h *headReader) int(name string, i int64) int {
	if int64(int(i)) != i {
		h.fail("%s: %d is out of range", name, i)
	}
	return int(i)
}

// kindNames names the item each kind of header value is written as.
var kindNames = [...]string{delta.IntList: "array of integers", delta.Text: "string"}

// ints reads the n integers of an IntList field's array, whose head has
// been read, into a list allocated whole (the source has checked that the
// bytes left hold n items).
func (h *headReader) ints(name string, n int) []int {
	if n > h.c.core.Limits.MaxElements {
		h.err = h.src.failLimit("MaxElements", fmt.Sprintf("%s: %d integers, more than the limit of %d", name, n, h.c.core.Limits.MaxElements))
		return nil
	}
	if n == 0 {
		return nil
	}
	v := make([]int, 0, n)
	for i := 0; i < n; i++ {
		t := h.value(name)
		if t == nil {
			return nil
		}
		if t.kind != kInt {
			h.fail("%s: number %d: expected integer, found %s", name, i, t.kind)
			return nil
		}
		v = append(v, h.int(name, t.i))
	}
	return v
}
