package gcf

import (
	"bytes"
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// Session references (delta.SessionCodec; see the package documentation).
// A referenced document is the plain document of the response with the
// referenced nodes' properties left out, its header line ending in
// " session=true", and each referenced node's row "Type|id|~|~" written
// "Type|id  # previously transmitted". Both directions work on the text of
// the nodes section: AppendReferenced rewrites the rows AppendEncode
// wrote, DecodeReferenced rewrites them back before Decode reads them.

const (
	sessionField = " session=true"
	refMarker    = "  # previously transmitted"
)

// AppendReferenced implements delta.SessionCodec: r with the nodes at
// positions refs (ascending, each once) written as references, their type
// and id only. With no refs it writes what AppendEncode writes.
func (c *Codec) AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	if len(refs) == 0 || r == nil {
		return c.AppendEncode(dst, r)
	}
	for k, i := range refs {
		if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] {
			return dst, &wire.EncodeError{Codec: Name, Path: "nodes", Msg: "reference positions must be ascending node positions, each once: " + strconv.Itoa(i)}
		}
	}
	// The response with the referenced nodes' properties left out: their
	// rows then hold the type, the id and ~ in every other column.
	bare := *r
	bare.Nodes = make([]wire.Node, len(r.Nodes))
	copy(bare.Nodes, r.Nodes)
	for _, i := range refs {
		bare.Nodes[i].Properties = nil
	}
	if _, err := c.limits.Measure(Name, r); err != nil {
		return dst, err
	}
	n := len(dst)
	out, err := c.AppendEncode(dst, &bare)
	if err != nil {
		return dst, err
	}
	// The text is rewritten: the header gains the session field, every
	// referenced row loses its ~ cells and gains the marker. The rewrite
	// works from a copy of the document.
	doc := append([]byte(nil), out[n:]...)
	header, _, _ := bytes.Cut(doc, []byte("\n"))
	out = append(append(out[:n], header...), sessionField...)
	next := 0
	out, err = walkRows(out, doc[len(header):], func(out []byte, k int, row []byte, width int) ([]byte, bool) {
		if next >= len(refs) || refs[next] != k {
			return out, false
		}
		next++
		for width > 2 && bytes.HasSuffix(row, []byte("|~")) {
			row = row[:len(row)-2]
			width--
		}
		out = append(out, row...)
		return append(out, refMarker...), true
	})
	if err != nil || next != len(refs) {
		return dst[:n], &wire.EncodeError{Codec: Name, Path: "nodes", Msg: "the document's node rows do not match its nodes"}
	}
	return out, nil
}

// DecodeReferenced implements delta.SessionCodec: a response written by
// AppendReferenced (or any response of the codec), with each reference a
// node of its type and id and nil Properties, and the references'
// positions among the decoded nodes, ascending. References are read only
// in a document whose header carries session=true.
func (c *Codec) DecodeReferenced(data []byte) (*wire.GraphResponse, []int, error) {
	if int64(len(data)) > c.limits.MaxInputBytes {
		r, err := c.Decode(data) // the limit error
		return r, nil, err
	}
	header, _, _ := bytes.Cut(data, []byte("\n"))
	if !bytes.HasPrefix(header, []byte("GCF profile=generic")) || !bytes.HasSuffix(header, []byte(sessionField)) {
		r, err := c.Decode(data)
		return r, nil, err
	}
	// The rewritten text is at most the input plus two bytes per absent
	// cell of each reference's row; it is bounded before it is built.
	limit := min(c.limits.MaxInputBytes, 4*int64(len(data))+1<<20)
	plain := make([]byte, 0, len(data))
	plain = append(plain, header[:len(header)-len(sessionField)]...)
	var refs []int
	plain, err := walkRows(plain, data[len(header):], func(out []byte, k int, row []byte, width int) ([]byte, bool) {
		body, ok := bytes.CutSuffix(row, []byte(refMarker))
		if !ok || !isRefRow(body) {
			return out, false
		}
		if int64(len(out)+len(body)+2*(width-2)) > limit {
			return nil, true
		}
		refs = append(refs, k)
		out = append(out, body...)
		for range width - 2 {
			out = append(out, "|~"...)
		}
		return out, true
	})
	if plain == nil && err == nil {
		return nil, nil, &wire.DecodeError{Codec: Name, Limit: "MaxInputBytes",
			Msg: "the references' rows would take more than " + strconv.FormatInt(limit, 10) + " bytes with their absent cells"}
	}
	if err != nil {
		r, err := c.Decode(data) // not a document this reads: Decode's error
		if err == nil {
			err = &wire.DecodeError{Codec: Name, Msg: "a session document whose nodes section cannot be read"}
		}
		return r, nil, err
	}
	r, err := c.Decode(plain)
	if err != nil {
		return nil, nil, err
	}
	return r, refs, nil
}

// sessionHint adds to a decoding error of a document whose header has
// session=true that its references are DecodeReferenced's to read.
func sessionHint(data []byte, err error) error {
	header, _, _ := bytes.Cut(data, []byte("\n"))
	if de, ok := err.(*wire.DecodeError); ok && bytes.HasPrefix(header, []byte("GCF ")) && bytes.HasSuffix(header, []byte(sessionField)) {
		de.Msg += " (a session=true document: its references are read by DecodeReferenced)"
	}
	return err
}

// isRefRow reports whether row is "type|id": a type cell (bare or quoted)
// and an integer, the two cells of a reference.
func isRefRow(row []byte) bool {
	i := 0
	if len(row) > 0 && row[0] == '"' {
		i = 1
		for i < len(row) && row[i] != '"' {
			if row[i] == '\\' {
				i++
			}
			i++
		}
		i++
		if i >= len(row) || row[i] != '|' {
			return false
		}
	} else {
		i = bytes.IndexByte(row, '|')
		if i <= 0 {
			return false
		}
	}
	id := row[i+1:]
	if len(id) > 0 && id[0] == '-' {
		id = id[1:]
	}
	if len(id) == 0 || len(id) > 1 && id[0] == '0' {
		return false
	}
	for _, b := range id {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// walkRows copies doc (the text after the header line, which out already
// holds) to out, handing each row line of the nodes section to row, with
// the node's position k and its table's width: row appends the line's
// replacement (without its '\n') and reports true, or false to have the
// line copied as it is. It reports an error when the nodes section is not
// in the layout AppendEncode writes.
func walkRows(out, doc []byte, row func(out []byte, k int, row []byte, width int) ([]byte, bool)) ([]byte, error) {
	errLayout := &wire.DecodeError{Codec: Name, Msg: "no nodes section in the layout"}
	// The header's line end, format_version and query_type.
	i := 0
	for range 3 {
		j := bytes.IndexByte(doc[i:], '\n')
		if j < 0 {
			return out, errLayout
		}
		i += j + 1
	}
	out = append(out, doc[:i]...)
	line := func() []byte {
		j := bytes.IndexByte(doc[i:], '\n')
		if j < 0 {
			return nil
		}
		l := doc[i : i+j]
		i += j + 1
		return l
	}
	head := line()
	rest, ok := bytes.CutPrefix(head, []byte("## nodes "))
	if !ok {
		return out, errLayout
	}
	out = append(append(out, head...), '\n')
	grouped := bytes.HasSuffix(rest, []byte("]"))
	width := declWidth(rest)
	indent := 0
	if grouped {
		indent = 2
	}
	k := 0
	for i < len(doc) {
		start := i
		l := line()
		if l == nil {
			return out, errLayout
		}
		if bytes.HasPrefix(l, []byte("## ")) {
			i = start
			break
		}
		if grouped && len(l) > 0 && l[0] == '@' {
			width = declWidth(l)
			out = append(append(out, l...), '\n')
			continue
		}
		body := l
		isRow := len(l) > indent && string(l[:indent]) == "  "[:indent] && l[indent] != ' ' && l[indent] != '.'
		if isRow {
			body = l[indent:]
			var done bool
			out = append(out, l[:indent]...)
			if body[0] != '@' {
				if out, done = row(out, k, body, width); out == nil {
					return nil, nil
				}
			}
			if !done {
				out = append(out, body...)
			}
			out = append(out, '\n')
			k++
			continue
		}
		out = append(append(out, l...), '\n')
	}
	return append(out, doc[i:]...), nil
}

// declWidth counts the columns of the declaration "{...}" that ends a
// table header, quoted names included; 0 without one.
func declWidth(h []byte) int {
	j := bytes.IndexByte(h, '{')
	if j < 0 {
		return 0
	}
	n, quoted := 1, false
	for i := j + 1; i < len(h); i++ {
		switch c := h[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == ',':
			n++
		}
	}
	return n
}
