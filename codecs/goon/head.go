package goon

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

var _ delta.DocumentCodec = (*Codec)(nil)

// headerMarker is the first line of every GOON text.
const headerMarker = "@header\n"

// AppendDocument implements delta.DocumentCodec: "@header", the fields as
// name:value lines, then the content as a fragment (see the package
// documentation, Deltas and references). With no fields it appends what
// AppendEncode appends. On error, a *wire.EncodeError, dst comes back as
// it was.
func (c *Codec) AppendDocument(dst []byte, header []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	if len(header) == 0 {
		return c.AppendEncode(dst, content)
	}
	if err := delta.CheckHeader(Name, header, c.core.Limits); err != nil {
		return dst, err
	}
	out, err := c.appendFields(append(dst, headerMarker...), header)
	if err != nil {
		return dst, err
	}
	if content != nil {
		e := encoderPool.Get().(*encoder)
		defer e.release()
		e.fragment = true
		if err := c.encode(e, content); err != nil {
			return dst, err
		}
		out = append(out, e.b[len(headerMarker):]...)
	}
	if err := c.core.CheckOutput(int64(len(out)-len(dst)), "document"); err != nil {
		return dst, err
	}
	return out, nil
}

// appendFields appends the header's field lines; a text GOON's quoting
// does not carry is refused.
func (c *Codec) appendFields(b []byte, header []delta.Field) ([]byte, error) {
	for _, f := range header {
		b = append(b, f.Name...)
		b = append(b, ':')
		switch kind, _ := delta.FieldKind(f.Name); kind {
		case delta.IntList:
			b = delta.AppendInts(b, f.Ints)
		case delta.Text:
			if !quotable(f.Text) {
				return b, fieldError(f.Name, "holds a control character, which GOON's quoting does not carry")
			}
			b = appendCursor(b, f.Text)
		}
		b = append(b, '\n')
	}
	return b, nil
}

func fieldError(name, msg string) error {
	return &wire.EncodeError{Codec: Name, Msg: "header field " + textwire.Excerpt(name) + " " + msg}
}

// DecodeDocument implements delta.DocumentCodec: it reads what
// AppendDocument writes, and any GOON response. The fields are the lines
// at the top of @header whose name delta.FieldKind knows; the first other
// line starts the content, metered against its own length.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	if !opensDocument(data) {
		r, err := c.Decode(data)
		return nil, r, err
	}
	return c.read(data, true, true)
}

// opensDocument reports whether data opens with "@header" and then a
// document header field.
func opensDocument(data []byte) bool {
	data = bytes.TrimPrefix(data, bom)
	switch {
	case bytes.HasPrefix(data, []byte(headerMarker)):
		data = data[len(headerMarker):]
	case bytes.HasPrefix(data, []byte("@header\r\n")):
		data = data[len("@header\r\n"):]
	default:
		return false
	}
	i := bytes.IndexByte(data[:min(len(data), maxFieldName+1)], ':')
	if i < 0 {
		return false
	}
	_, ok := delta.FieldKind(string(data[:i]))
	return ok
}

// maxFieldName bounds a document field's name (the longest has 15 bytes).
const maxFieldName = 32

// documentField reads a document's header field name:val of kind k.
func (p *parser) documentField(name, val string, k delta.Kind) error {
	for i, f := range p.fields {
		if f.Name == name {
			return p.errf("header field " + name + " twice (first on line " + strconv.Itoa(p.fieldLines[i]) + ")")
		}
	}
	f := delta.Field{Name: name}
	switch k {
	case delta.IntList:
		if strings.Count(val, ",") >= p.lim.MaxElements {
			return p.checkElements(p.lim.MaxElements+1, "numbers in "+name)
		}
		v, err := delta.ParseInts(val, p.lim.MaxElements)
		if err != nil {
			return p.errf(name + ": " + err.Error())
		}
		f.Ints = v
	case delta.Text:
		s, _, err := p.headerString(val, name)
		if err != nil {
			return err
		}
		f.Text = s
	}
	p.fields, p.fieldLines = append(p.fields, f), append(p.fieldLines, p.line)
	p.contentLen = len(p.lines.Rest())
	return nil
}
