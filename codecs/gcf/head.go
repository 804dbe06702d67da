package gcf

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

var _ delta.DocumentCodec = (*Codec)(nil)

// gcfLine opens every document this codec writes.
const gcfLine = "GCF profile=generic\n"

// AppendDocument appends a document of header and content to dst (see
// delta.DocumentCodec and the package documentation); with no fields, what
// AppendEncode appends, and a nil content writes the header alone. On
// error dst comes back as given.
func (c *Codec) AppendDocument(dst []byte, header []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	if len(header) == 0 {
		return c.AppendEncode(dst, content)
	}
	if err := delta.CheckHeader(Name, header, c.core.Limits); err != nil {
		return dst, err
	}
	n := len(dst)
	out := c.appendFields(append(dst, gcfLine...), header)
	var err error
	if content != nil {
		at := len(out)
		if out, err = c.appendEncode(out, content, true); err != nil {
			return dst[:n], err
		}
		// The content's GCF line is the document's, written already.
		if !bytes.HasPrefix(out[at:], []byte(gcfLine)) {
			return dst[:n], &wire.EncodeError{Codec: Name, Msg: "the content's text does not open with " + strconv.Quote(gcfLine)}
		}
		out = append(out[:at], out[at+len(gcfLine):]...)
	}
	if err := c.core.CheckOutput(int64(len(out)-n), "document"); err != nil {
		return dst[:n], err
	}
	return out, nil
}

// appendFields appends the header's lines (checked by
// delta.CheckHeader); an empty list is not written.
func (c *Codec) appendFields(b []byte, header []delta.Field) []byte {
	for _, f := range header {
		k, _ := delta.FieldKind(f.Name)
		if k == delta.IntList && len(f.Ints) == 0 {
			continue
		}
		b = append(append(b, f.Name...), '=')
		if k == delta.Text {
			b, _ = gcfvalue.AppendValidString(b, f.Text) // valid UTF-8: checked
		} else {
			b = delta.AppendInts(b, f.Ints)
		}
		b = append(b, '\n')
	}
	return b
}

// contentMembers are the names of the layout's members at the top of a
// response: a name=value line of one of them opens the content.
var contentMembers = []string{"format_version", "query_type", "nodes", "edges", "columns", "group_columns", "rows", "pagination"}

// fieldName is the name of the header field that the line starting at
// data[i] writes (lower-case letters and underscores, then '='), and
// false when the line is not one.
func fieldName(data []byte, i int) (string, bool) {
	j := i
	for j < len(data) && ('a' <= data[j] && data[j] <= 'z' || data[j] == '_') {
		j++
	}
	if j == i || j == len(data) || data[j] != '=' {
		return "", false
	}
	for _, m := range contentMembers {
		if string(data[i:j]) == m {
			return "", false
		}
	}
	return string(data[i:j]), true
}

// DecodeDocument reads a document (see delta.DocumentCodec and the
// package documentation): a text with no fields is a response, read by
// Decode itself. Every error is a *wire.DecodeError with the line and
// column in data.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	fields := false
	if bytes.HasPrefix(data, []byte(gcfLine)) {
		_, fields = fieldName(data, len(gcfLine))
	}
	if !fields {
		r, err := c.Decode(data)
		return nil, r, err
	}
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, nil, err
	}
	h, body, err := c.readFields(data)
	if err != nil {
		return nil, nil, err
	}
	if body == len(data) {
		return h, nil, nil // the unchanged delta
	}
	r, err := c.decodeAt(data, body, len(h), true)
	if err != nil {
		return nil, nil, err
	}
	return h, r, nil
}

// readFields reads the header's lines, from the one after the GCF line,
// and reports where the content starts.
func (c *Codec) readFields(data []byte) ([]delta.Field, int, error) {
	var h []delta.Field
	i := len(gcfLine)
	for line := 2; ; line++ {
		name, ok := fieldName(data, i)
		if !ok {
			return h, i, nil
		}
		fail := func(col int, limit, msg string) error {
			return &wire.DecodeError{Codec: Name, Line: line, Column: col, Limit: limit, Msg: "header field " + textwire.Clip(name) + ": " + msg}
		}
		k, known := delta.FieldKind(name)
		switch {
		case !known:
			return nil, 0, fail(1, "", "not a field of a document")
		case slices.ContainsFunc(h, func(f delta.Field) bool { return f.Name == name }):
			return nil, 0, fail(1, "", "given twice")
		}
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			return nil, 0, fail(len(data)-i+1, "", "the document ends within the field's line")
		}
		value := string(data[i+len(name)+1 : i+end])
		col := len(name) + 2 // the value's column
		f := delta.Field{Name: name}
		var err error
		switch k {
		case delta.IntList:
			if strings.Count(value, ",") >= c.core.Limits.MaxElements {
				return nil, 0, fail(col, "MaxElements", "more than "+strconv.Itoa(c.core.Limits.MaxElements)+" numbers (MaxElements)")
			}
			f.Ints, err = delta.ParseInts(value, c.core.Limits.MaxElements)
		case delta.Text:
			f.Text, err = readText(value)
		}
		switch {
		case err != nil:
			return nil, 0, fail(col, "", err.Error())
		case k != delta.Text && len(f.Ints) == 0:
			return nil, 0, fail(col, "", "no value")
		case k == delta.Text && len(f.Text) > c.core.Limits.MaxStringBytes:
			return nil, 0, fail(col, "MaxStringBytes", "a text of "+strconv.Itoa(len(f.Text))+" bytes, more than the limit of "+strconv.Itoa(c.core.Limits.MaxStringBytes))
		}
		h = append(h, f)
		i += end + 1
	}
}

// readText reads a text value as appendFields writes it: a quoted
// string, or the bare one that GCF does not quote.
func readText(v string) (string, error) {
	if !utf8.ValidString(v) {
		return "", errors.New("the text is not UTF-8")
	}
	if !strings.HasPrefix(v, `"`) {
		if gcfvalue.NeedsQuotes(v) {
			return "", errors.New("a text that GCF writes quoted is bare: " + textwire.Excerpt(v))
		}
		return v, nil
	}
	s, end, ok := gcfvalue.Unquote(v, 0)
	switch {
	case !ok:
		return "", errors.New("a malformed quoted string: " + textwire.Excerpt(v))
	case end != len(v):
		return "", errors.New("text after the closing quote: " + textwire.Excerpt(v[end:]))
	}
	return s, nil
}

// shiftError moves the position of an error in the content's text (the
// GCF line, then data from body on, after fields header lines) to its
// place in data.
func shiftError(err error, body, fields int) error {
	de, ok := err.(*wire.DecodeError)
	if !ok || body == 0 {
		return err
	}
	switch {
	case de.Line > 1:
		de.Line += fields
	case de.Line == 0 && de.Offset >= int64(len(gcfLine)):
		de.Offset += int64(body - len(gcfLine))
	}
	return err
}
