package goon

import (
	"bytes"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// What one line of text stands for beyond itself, written: the nodes an
// aggregation lifts from its rows into @nodes, and the key_len breadcrumb
// after a value that reads as truncated.

// liftNodes appends to e.nodes the node cells of node-kind group columns,
// in first-seen order (row by row, group column by group column),
// de-duplicated by (type, id) among themselves.
func (e *encoder) liftNodes(r *wire.GraphResponse) error {
	if r.Rows == nil {
		return nil
	}
	var nodeCols []string
	for _, g := range r.GroupColumns {
		if g.Kind == wire.GroupByNode {
			nodeCols = append(nodeCols, g.Name)
		}
	}
	if len(nodeCols) == 0 {
		return nil
	}
	for _, row := range r.Rows {
		for _, name := range nodeCols {
			c := firstCell(row, name)
			if c == nil || c.Node == nil {
				continue
			}
			k := nodeKey{c.Node.Type, c.Node.ID}
			if _, dup := e.lifted[k]; dup {
				continue
			}
			e.lifted[k] = struct{}{}
			e.nodes = append(e.nodes, c.Node)
		}
	}
	return nil
}

// A value that reads as truncated — text the encoder did not cut, which
// ends in "..." as a cut one does — is written with the node's int
// property key_len right after it, rather than in its place, when the two
// read as a truncated value and its breadcrumb (isCrumb). That is how a
// decoded truncated value, read back as its text and its key_len
// property, is written again as it was read.
var dots, quotedDots = []byte("..."), []byte(`..."`)

// keyLen returns the int property key_len of n, if any.
func keyLen(n *wire.Node, key string) (int64, bool) {
	for _, p := range n.Properties {
		if len(p.Key) == len(key)+4 && p.Value.Kind() == wire.KindInt && isBreadcrumbKey(p.Key, key) {
			return p.Value.Int(), true
		}
	}
	return 0, false
}

// keyLenAfter reports whether the property key_len of n, of int value
// total, is written right after the value of key (see dots).
func keyLenAfter(n *wire.Node, key string, total int64) bool {
	if total <= int64(limitFor(key)) {
		return false
	}
	for _, p := range n.Properties {
		if p.Key != key || p.Value.Kind() != wire.KindString {
			continue
		}
		s := p.Value.Text()
		if !strings.HasSuffix(s, "...") && !strings.HasSuffix(s, "..."+string(fillRune)) {
			return false
		}
		w := appendText(nil, key, s, true, false)
		return (bytes.HasSuffix(w, dots) || bytes.HasSuffix(w, quotedDots)) &&
			isCrumb(key, writtenText(w), w[len(w)-1] == '"', total)
	}
	return false
}

// writtenText returns the text a value written as w reads back as, for
// counting its code points: w itself when bare, the inside of the quotes
// with each escape as one byte when quoted.
func writtenText(w []byte) string {
	if len(w) < 2 || w[0] != '"' {
		return string(w)
	}
	in := w[1 : len(w)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		return string(in)
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		if in[i] == '\\' {
			i++
		}
		out = append(out, in[i])
	}
	return string(out)
}
