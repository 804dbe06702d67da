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

// The header syntax of a document (delta.DocumentCodec) in either format:
// a map whose keys are the header's field names, in the header's order,
// each with its value (an integer, an array of integers or a string), and
// last the key contentKey with the content's ordinary encoding as its
// value, absent when there is no content. A response's ordinary encoding
// is an array, so the first byte tells a document from a response.

var _ delta.DocumentCodec = (*Codec)(nil)

// contentKey is the document's last key: its value is the content.
const contentKey = "content"

// maxDocumentEntries is the most entries a document's map holds: each
// header field once, and the content.
const maxDocumentEntries = 17

// AppendDocument implements delta.DocumentCodec: it appends the header's
// fields, in order, as the entries of a map, then the content under the
// key "content", written as AppendEncode writes it; a nil content (the
// unchanged delta) leaves the key out. With no fields it appends exactly
// what AppendEncode appends. On error it returns dst as given and a
// *wire.EncodeError: a field DecodeDocument would refuse (a name
// delta.FieldKind does not know or given twice, a value not of the
// field's kind, a list longer than MaxElements, a text longer than
// MaxStringBytes or not UTF-8), AppendEncode's refusals of the content,
// and a document longer than MaxInputBytes.
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

// headSink is a sink that also writes the map head of a document.
type headSink interface {
	sink
	object(n int)
}

// newHeadSink returns the headSink of format f appending to dst, and where
// its bytes are.
func newHeadSink(f Format, dst []byte) (headSink, *[]byte) {
	if f == CBOR {
		cs := &cborSink{b: dst}
		return cs, &cs.b
	}
	ms := &mpSink{b: dst}
	return ms, &ms.b
}

// checkHeader refuses a header DecodeDocument would refuse: past the
// entries a document's map holds, or one delta.CheckHeader refuses.
func (c *Codec) checkHeader(header []delta.Field) error {
	if len(header) >= maxDocumentEntries {
		return &wire.EncodeError{Codec: c.format.String(), Path: "header",
			Msg: fmt.Sprintf("a header of %d fields, past the %d a document has", len(header), maxDocumentEntries-1)}
	}
	return delta.CheckHeader(c.format.String(), header, c.core.Limits)
}

// DecodeDocument implements delta.DocumentCodec: it reads what
// AppendDocument wrote, and any response Decode reads (a document with
// no header, told apart by its first byte, and then read by Decode
// alone). A document's map holds one to 17 entries: fields delta.FieldKind
// knows, each once, an array of integers (IntList, at most MaxElements) or a string (Text, at most MaxStringBytes), and last,
// if present, "content", whose value, up to the end of the input, Decode
// reads under the codec's Limits. Any other map, key or value is a
// *wire.DecodeError at the offending item's offset in the whole input
// (the content's errors included).
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	if len(data) == 0 || !c.document(data[0]) {
		r, err := c.Decode(data)
		return nil, r, err
	}
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, nil, err
	}
	// The source reads the header in place. Its strings alias data and
	// are copied before they are kept (the names are compared, the texts
	// cloned), so that the input is not copied whole as Decode copies it.
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

// document reports whether b, an encoding's first byte, opens a map: a
// document with a header.
func (c *Codec) document(b byte) bool {
	if c.format == CBOR {
		return b>>5 == cborMap
	}
	return b&0xf0 == mpFixMap || b == mpMap16 || b == mpMap32
}

// headReader reads a document's map and header fields over a source. The
// first error sticks.
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

// value is next for an item of the value of the field called name: the
// source's refusal names the field.
func (h *headReader) value(name string) *token {
	t := h.next()
	if t == nil {
		h.name(name)
	}
	return t
}

// name puts the name of the field being read before the message of the
// source's error.
func (h *headReader) name(field string) {
	var de *wire.DecodeError
	if errors.As(h.err, &de) && !strings.HasPrefix(de.Msg, field+": ") {
		de.Msg = field + ": " + de.Msg
	}
}

// object reads the map head that opens the document: its number of
// entries.
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

// field reads the value of the header field called name, the fields
// before it being read.
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

// int is the integer i of the field called name as an int, which may be
// narrower than the int64 an item holds.
func (h *headReader) int(name string, i int64) int {
	if int64(int(i)) != i {
		h.fail("%s: %d is out of range", name, i)
	}
	return int(i)
}

// kindNames names the item each kind of header value is written as.
var kindNames = [...]string{delta.IntList: "array of integers", delta.Text: "string"}

// ints reads the n integers of an IntList field's array, whose head has
// been read. The list is allocated whole: the source has checked that
// the bytes left hold n items (a byte each at least), so it takes 8 bytes
// an input byte at most, and never grows by copying.
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
