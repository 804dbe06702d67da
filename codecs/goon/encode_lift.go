package goon

import (
	"bytes"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// liftNodes appends to e.nodes the node cells of node-kind group columns,
// in first-seen order, de-duplicated by (type, id).
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

// endsInDots reports whether the value written as w ends in "...", bare or
// quoted: whether it reads as truncated. Such a value is written with the
// node's int property key_len right after it, when the two read as a
// breadcrumb (isCrumb), as a decoded truncated value was read.
func endsInDots(w []byte) bool {
	if n := len(w); n > 0 && w[n-1] == '"' {
		w = w[:n-1]
	}
	n := len(w)
	return n >= 3 && w[n-1] == '.' && w[n-2] == '.' && w[n-3] == '.'
}

// keyLen returns the int property key_len of n, if any.
func keyLen(n *wire.Node, key string) (int64, bool) {
	for _, p := range n.Properties {
		if len(p.Key) == len(key)+4 && p.Value.Kind() == wire.KindInt && isBreadcrumbKey(p.Key, key) {
			return p.Value.Int(), true
		}
	}
	return 0, false
}

// keyLenAfter reports whether n's key_len, of value total, is written
// right after the value of key.
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
		return endsInDots(w) &&
			isCrumb(key, writtenText(w), w[len(w)-1] == '"', total)
	}
	return false
}

// writtenText returns the text a value written as w reads back as, for
// counting its code points (an escape as one byte).
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
