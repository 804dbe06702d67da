package toon

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The header of a document (see the package documentation, Deltas and
// references): one top-level TOON line per field, before the content's
// own lines. An Int is "name: 2", an IntList the inline primitive array
// "name[3]: 0,3,5", a Text "name: value", quoted by TOON's rules when it
// must be. A line is a header line when it opens with the name of a
// header field (delta.FieldKind); the first line that does not is the
// first line of the content.

var _ delta.DocumentCodec = (*Codec)(nil)

// AppendDocument implements delta.DocumentCodec: it appends header's
// fields, one line each, then the TOON text of content (AppendEncode's,
// on the next line); with no fields it is AppendEncode, and a nil content
// writes the header alone. An IntList with no numbers is left out. A
// name FieldKind does not know or given twice, an Int field without
// exactly one number, a Text that is not UTF-8 or longer than
// MaxStringBytes, a list longer than MaxElements, and a document longer
// than MaxInputBytes are refused with a *wire.EncodeError and dst as
// given, as is anything AppendEncode refuses in content.
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
			if len(f.Ints) == 0 {
				continue
			}
			e.Line(0)
			e.Header(&f.Name, len(f.Ints), nil, false)
			e.Buf = delta.AppendInts(append(e.Buf, ' '), f.Ints)
		case delta.Text:
			e.StringField(f.Name, f.Text, 0)
		}
	}
	return e.Buf
}

// fieldIndex is the position of the field called name in h, or -1.
func fieldIndex(h []delta.Field, name string) int {
	for i := range h {
		if h[i].Name == name {
			return i
		}
	}
	return -1
}

// headerField returns the length and kind of the header field's name
// that opens line, the whole of its first word (a TOON key's letters,
// digits, underscores and dots); ok is false for a line that is no header
// line. It allocates nothing.
func headerField(line []byte) (n int, kind delta.Kind, ok bool) {
	for n < len(line) && (line[n] >= 'a' && line[n] <= 'z' || line[n] == '_') {
		n++
	}
	if n == 0 || n < len(line) && (line[n] == '.' || line[n] >= '0' && line[n] <= '9' || line[n] >= 'A' && line[n] <= 'Z') {
		return 0, 0, false
	}
	kind, ok = delta.FieldKind(string(line[:n]))
	return n, kind, ok
}

// DecodeDocument implements delta.DocumentCodec: it reads what
// AppendDocument writes, and any text Decode reads (a document with no
// header; its first line is not a header line, and the whole input goes
// to Decode as it is). The header's lines are read until the first line
// that opens with no header field's name; the rest, when there is any, is
// the content, read by Decode under the codec's limits, its errors placed
// in the whole input (line and byte offset). As in the content, a leading
// byte order mark is skipped and a CRLF line end read as LF.
//
// Errors are *wire.DecodeError with the line and column: a field given
// twice, a value not of its field's kind (an Int is a decimal integer, an
// IntList "[N]: " then N decimal integers separated by commas, N at least
// one, a Text a TOON string, quoted or not, but not a number, true, false
// or null), a list of more than MaxElements numbers or a text of more
// than MaxStringBytes bytes (Limit set), input past MaxInputBytes. A name
// that is neither a header field nor one of the layout's is refused by
// Decode as an unknown field, at its line.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	start := 0
	if bytes.HasPrefix(data, bom) {
		start = len(bom)
	}
	if _, _, ok := headerField(data[start:]); !ok {
		r, err := c.Decode(data)
		return nil, r, err
	}
	if err := c.inputFits(data); err != nil {
		return nil, nil, err
	}
	hr := headReader{src: data, lim: c.core.Limits, off: start}
	header, err := hr.read()
	if err != nil {
		return nil, nil, err
	}
	if hr.off == len(data) {
		return header, nil, nil
	}
	r, err := c.read(data[hr.off:], true)
	if err != nil {
		var de *wire.DecodeError
		if errors.As(err, &de) {
			moved := *de
			if moved.Line > 0 {
				moved.Line += hr.line
			}
			if moved.Offset > 0 || moved.Line == 0 {
				moved.Offset += int64(hr.off)
			}
			return nil, nil, &moved
		}
		return nil, nil, err
	}
	return header, r, nil
}

// bom is the UTF-8 byte order mark, which may open a document.
var bom = []byte("\uFEFF")

// headReader reads a document's header lines.
type headReader struct {
	src  []byte
	lim  wire.Limits
	off  int // the start of the line being read; after read, of the content
	line int // the lines read
}

// read reads the header's lines, up to the first line that is not one or
// the end of the input.
func (h *headReader) read() ([]delta.Field, error) {
	var header []delta.Field
	for h.off < len(h.src) {
		end := bytes.IndexByte(h.src[h.off:], '\n')
		next := h.off + end + 1
		if end < 0 {
			end, next = len(h.src)-h.off, len(h.src)
		}
		line := bytes.TrimSuffix(h.src[h.off:h.off+end], []byte{'\r'})
		n, kind, ok := headerField(line)
		if !ok {
			break
		}
		name := string(line[:n])
		h.line++
		if fieldIndex(header, name) >= 0 {
			return nil, h.fail(0, "header field "+name+" given twice", "")
		}
		f, err := h.field(line, name, kind)
		if err != nil {
			return nil, err
		}
		header = append(header, f)
		h.off = next
	}
	return header, nil
}

// field reads the value of the header line that opens with name.
func (h *headReader) field(line []byte, name string, kind delta.Kind) (delta.Field, error) {
	f := delta.Field{Name: name}
	if !utf8.Valid(line) {
		return f, h.fail(0, "the line is not valid UTF-8", "")
	}
	// The line, read in place: a text is copied out of it (toonString).
	rest, at := unsafe.String(unsafe.SliceData(line), len(line))[len(name):], len(name)
	if kind == delta.IntList {
		n, list, err := h.listHeader(rest, at, name)
		if err != nil {
			return f, err
		}
		at += len(rest) - len(list)
		f.Ints, err = delta.ParseInts(list, h.lim.MaxElements)
		if err != nil {
			limit := ""
			if bytes.Count(line, []byte{','}) >= h.lim.MaxElements {
				limit = "MaxElements"
			}
			return f, h.fail(at, name+": "+err.Error(), limit)
		}
		if len(f.Ints) != n {
			return f, h.fail(at, name+"["+strconv.Itoa(n)+"] holds "+strconv.Itoa(len(f.Ints))+" numbers", "")
		}
		return f, nil
	}
	if len(rest) < 2 || rest[:2] != ": " {
		return f, h.fail(at, "expected \": \" and a value after the header field "+name+", found "+textwire.Excerpt(rest), "")
	}
	tok, at := rest[2:], at+2
	text, msg, off := toonString(tok)
	if msg != "" {
		return f, h.fail(at+off, name+": "+msg, "")
	}
	if len(text) > h.lim.MaxStringBytes {
		return f, h.fail(at, name+": a text of "+strconv.Itoa(len(text))+" bytes, longer than the limit of "+strconv.Itoa(h.lim.MaxStringBytes), "MaxStringBytes")
	}
	f.Text = text
	return f, nil
}

// listHeader reads "[N]: " at the start of rest, the opening of an inline
// array, and returns N and the text after it, the list.
func (h *headReader) listHeader(rest string, at int, name string) (int, string, error) {
	rb := -1 // the closing bracket
	if strings.HasPrefix(rest, "[") {
		rb = strings.IndexByte(rest, ']')
	}
	if rb < 0 {
		return 0, "", h.fail(at, "expected the list "+name+"[N]: followed by N integers, found "+textwire.Excerpt(rest), "")
	}
	n, ok := textwire.ParseInt(rest[1:rb])
	switch {
	case !ok || n < 0:
		return 0, "", h.fail(at+1, name+": the length "+textwire.Excerpt(rest[1:rb])+" is not a count (a decimal integer, nothing else between the brackets)", "")
	case n == 0:
		return 0, "", h.fail(at+1, name+": an empty list is left out of the header, not written [0]", "")
	case n > int64(h.lim.MaxElements):
		return 0, "", h.fail(at+1, name+": "+strconv.FormatInt(n, 10)+" numbers, more than the limit of "+strconv.Itoa(h.lim.MaxElements), "MaxElements")
	case len(rest) < rb+3 || rest[rb+1:rb+3] != ": ":
		return 0, "", h.fail(at+rb+1, "expected \": \" and "+strconv.FormatInt(n, 10)+" integers after "+name+rest[:rb+1]+", found "+textwire.Excerpt(rest[rb+1:]), "")
	}
	return int(n), rest[rb+3:], nil
}

// toonString reads tok, a TOON value token, as a string (a copy, tok
// being the input's): a quoted string with TOON's escapes, or the token
// as it is, which TOON reads as a string unless it is a number, true,
// false or null. It returns the message of what is wrong, and where,
// instead.
func toonString(tok string) (string, string, int) {
	if tok == "" || tok[0] == ' ' || tok[len(tok)-1] == ' ' {
		return "", "expected a string, found " + textwire.Excerpt(tok) + " (a TOON string with spaces around it is quoted)", 0
	}
	if tok[0] != '"' {
		if _, isNum := jsonvalue.LiteralNumber(tok); isNum || tok == "true" || tok == "false" || tok == "null" {
			return "", "expected a string, found " + textwire.Excerpt(tok) + " (quoted, it is a string)", 0
		}
		return strings.Clone(tok), "", 0
	}
	end := 1
	for end < len(tok) && tok[end] != '"' {
		if tok[end] == '\\' {
			end++
		}
		end++
	}
	switch {
	case end >= len(tok):
		return "", "unterminated string " + textwire.Excerpt(tok), 0
	case end != len(tok)-1:
		return "", "unexpected characters after the closing quote: " + textwire.Excerpt(tok[end+1:]), end + 1
	}
	b, err := textwire.TOONUnescaping.Unescape(make([]byte, 0, end-1), tok[1:end])
	if err != nil {
		return "", err.Msg, 1 + err.Off
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), "", 0 // b is the text's own
}

// fail returns the error of the line being read, at byte at of it.
func (h *headReader) fail(at int, msg, limit string) error {
	return &wire.DecodeError{Codec: Name, Line: h.line, Column: at + 1, Offset: int64(h.off + at), Msg: msg, Limit: limit}
}
