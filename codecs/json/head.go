package json

import (
	"errors"
	"strconv"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The header syntax of a document (package delta): one object whose keys
// are the header's fields, in order, an Int as a number, an IntList as an
// array of numbers, a Text as a string, and last "content", the response
// in canonical JSON (absent in the unchanged delta):
//
// The content is a fragment of a response: its format_version and
// query_type are written only when they are not empty, and its nodes and
// edges only when they hold something; DecodeDocument reads an absent one
// back as empty. A plain response (no header) is written and read as
// AppendEncode and Decode do, every field required.
//
//	{"graphwire_delta":2,"check":"…","nodes_changed":[0],"content":{…}}

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
// order, its content by Decode, under the codec's Limits. Errors are
// *wire.DecodeError with a byte offset into data.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	h := headReader{data: data, max: c.core.Limits.MaxElements, maxText: c.core.Limits.MaxStringBytes}
	if !h.isDocument() {
		r, err := c.Decode(data)
		return nil, r, err
	}
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, nil, err
	}
	fields, start, err := h.fields()
	if err != nil {
		return nil, nil, err
	}
	if start < 0 {
		return fields, nil, nil
	}
	end := len(data)
	for end > start && isSpace(data[end-1]) {
		end--
	}
	if end == start || data[end-1] != '}' {
		return nil, nil, h.errAt(end, `"}" expected at the end of the document`)
	}
	r, err := decode(data[start:end-1], c.core.Limits, true)
	if err != nil {
		var de *wire.DecodeError
		if errors.As(err, &de) && de.Line == 0 {
			de.Offset += int64(start)
		}
		return nil, nil, err
	}
	return fields, r, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// headReader reads a document's header object.
type headReader struct {
	data    []byte
	pos     int
	max     int // MaxElements
	maxText int
}

func (h *headReader) errAt(off int, msg string) error {
	return &wire.DecodeError{Codec: Name, Offset: int64(off), Msg: msg}
}

func (h *headReader) ws() { h.pos = textwire.SkipJSONSpace(h.data, h.pos) }

// isDocument reports whether data opens an object whose first key is a
// header field's name.
func (h *headReader) isDocument() bool {
	h.ws()
	if h.pos >= len(h.data) || h.data[h.pos] != '{' {
		return false
	}
	save := h.pos
	h.pos++
	h.ws()
	key, ok := h.key()
	h.pos = save
	_, known := delta.FieldKind(key)
	return ok && known
}

// key reads a key of letters and underscores in quotes (every field name
// and "content" is one), and reports false for anything else.
func (h *headReader) key() (string, bool) {
	if h.pos >= len(h.data) || h.data[h.pos] != '"' {
		return "", false
	}
	i := h.pos + 1
	for i < len(h.data) && (h.data[i] >= 'a' && h.data[i] <= 'z' || h.data[i] == '_') {
		i++
	}
	if i >= len(h.data) || h.data[i] != '"' {
		return "", false
	}
	k := string(h.data[h.pos+1 : i])
	h.pos = i + 1
	return k, true
}

// fields reads the header from the opening brace, and gives the offset of
// the content's value (-1 without content).
func (h *headReader) fields() ([]delta.Field, int, error) {
	h.ws()
	h.pos++ // '{', seen by isDocument
	var out []delta.Field
	seen := map[string]bool{}
	for {
		h.ws()
		off := h.pos
		key, ok := h.key()
		if !ok {
			return nil, 0, h.errAt(off, "a header field's name or \""+contentKey+"\" expected")
		}
		h.ws()
		if h.pos >= len(h.data) || h.data[h.pos] != ':' {
			return nil, 0, h.errAt(h.pos, `":" expected after "`+key+`"`)
		}
		h.pos++
		h.ws()
		if key == contentKey {
			return out, h.pos, nil
		}
		kind, known := delta.FieldKind(key)
		if !known {
			return nil, 0, h.errAt(off, strconv.Quote(key)+" is not a header field")
		}
		if seen[key] {
			return nil, 0, h.errAt(off, strconv.Quote(key)+" appears twice")
		}
		seen[key] = true
		f := delta.Field{Name: key}
		var err error
		switch kind {
		case delta.IntList:
			f.Ints, err = h.ints(key)
		default:
			f.Text, err = h.text(key)
		}
		if err != nil {
			return nil, 0, err
		}
		out = append(out, f)
		var more, found bool
		h.pos, more, found = textwire.JSONListNext(h.data, h.pos, '}')
		switch {
		case found && more:
		case found:
			h.ws()
			if h.pos != len(h.data) {
				return nil, 0, h.errAt(h.pos, "nothing expected after the document")
			}
			return out, -1, nil
		default:
			return nil, 0, h.errAt(h.pos, `"," or "}" expected after "`+key+`"`)
		}
	}
}

// int reads a decimal integer.
func (h *headReader) int(key string) (int, error) {
	i := h.pos
	if i < len(h.data) && h.data[i] == '-' {
		i++
	}
	for i < len(h.data) && h.data[i] >= '0' && h.data[i] <= '9' && i-h.pos < 20 {
		i++
	}
	x, err := strconv.Atoi(string(h.data[h.pos:i]))
	if err != nil {
		return 0, h.errAt(h.pos, "an integer expected in "+strconv.Quote(key))
	}
	h.pos = i
	return x, nil
}

// ints reads an array of integers, at most max of them.
func (h *headReader) ints(key string) ([]int, error) {
	if h.pos >= len(h.data) || h.data[h.pos] != '[' {
		return nil, h.errAt(h.pos, "an array of integers expected in "+strconv.Quote(key))
	}
	h.pos++
	var v []int
	for {
		h.ws()
		if h.pos < len(h.data) && h.data[h.pos] == ']' && len(v) == 0 {
			h.pos++
			return v, nil
		}
		if len(v) == h.max {
			return nil, &wire.DecodeError{Codec: Name, Offset: int64(h.pos), Limit: "MaxElements",
				Msg: strconv.Quote(key) + " holds more than " + strconv.Itoa(h.max) + " integers"}
		}
		x, err := h.int(key)
		if err != nil {
			return nil, err
		}
		v = append(v, x)
		var more, ok bool
		if h.pos, more, ok = textwire.JSONListNext(h.data, h.pos, ']'); !ok {
			return nil, h.errAt(h.pos, `"," or "]" expected in `+strconv.Quote(key))
		} else if !more {
			return v, nil
		}
	}
}

// text reads a JSON string of at most maxText bytes.
func (h *headReader) text(key string) (string, error) {
	if h.pos >= len(h.data) || h.data[h.pos] != '"' {
		return "", h.errAt(h.pos, "a string expected in "+strconv.Quote(key))
	}
	s, end, serr := textwire.JSONString(h.data, "", h.pos, h.maxText)
	if serr != nil {
		de := &wire.DecodeError{Codec: Name, Offset: int64(serr.Off), Msg: strconv.Quote(key) + ": " + serr.Msg}
		if serr.TooLong {
			de.Limit = "MaxStringBytes"
		}
		return "", de
	}
	h.pos = end
	return s, nil
}
