package goon

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

type nodeKey struct {
	typ string
	id  int64
}

// liftedRef returns the node a row's reference to k names: the last node
// row of that type and id (resolveLifted checks it), or nil, noting the
// first reference to each node.
func (p *parser) liftedRef(k nodeKey) *wire.Node {
	if p.liftIndex == nil {
		p.liftIndex = make(map[nodeKey]int)
	}
	if _, seen := p.liftIndex[k]; !seen {
		p.liftIndex[k] = len(p.lifted)
		p.lifted = append(p.lifted, cellRef{key: k, line: p.line})
	}
	if p.lastNode == nil {
		p.lastNode = make(map[nodeKey]int, len(p.r.Nodes))
		for i := range p.r.Nodes {
			p.lastNode[nodeKey{p.r.Nodes[i].Type, p.r.Nodes[i].ID}] = i
		}
	}
	if i, ok := p.lastNode[k]; ok {
		return &p.r.Nodes[i]
	}
	return nil
}

// resolveLifted splits an aggregation's @nodes into the response's own
// nodes and the lifted ones: the last node rows, which must be the rows'
// references in first-reference order.
func (p *parser) resolveLifted() error {
	order := p.lifted
	if len(order) == 0 {
		return nil
	}
	nodes := p.r.Nodes
	k := len(nodes) - len(order)
	for j, ref := range order {
		if k+j < 0 {
			return lineError(ref.line, "row references "+refString(ref.key)+", which @nodes does not list in its place (nodes lifted from rows come last, in the order rows first reference them)")
		}
		n := &nodes[k+j]
		if n.Type != ref.key.typ || n.ID != ref.key.id {
			return lineError(p.nodeLines[k+j], "expected node "+refString(ref.key)+" here, first referenced on line "+strconv.Itoa(ref.line)+
				" (nodes lifted from rows come last, in the order rows first reference them), found "+refString(nodeKey{n.Type, n.ID}))
		}
		if n.Properties == nil {
			n.Properties = []wire.Property{}
		}
	}
	p.r.Nodes = nodes[:k:k]
	return nil
}

func refString(k nodeKey) string { return textwire.Clip(k.typ) + ":" + strconv.FormatInt(k.id, 10) }

// breadcrumb reports whether v and crumb are a truncated value and its
// breadcrumb, and the declared length.
func (p *parser) breadcrumb(v, crumb pair) (int64, bool) {
	if crumb.quoted || !v.quoted && bareValue(v.text).Kind() != wire.KindString {
		return 0, false
	}
	total, ok := parseInt(crumb.text)
	if !ok || !isCrumb(v.key, v.text, v.quoted, total) {
		return 0, false
	}
	return total, true
}

// settleCrumbs returns how many marked breadcrumbs stay breadcrumbs: only
// those whose key_len the node also has as a property (the value is then
// restored); the others read back as the property key_len.
func settleCrumbs(pairs []pair) int {
	if keyset.FirstRepeat(len(pairs), func(i int) string { return pairs[i].key }) < 0 {
		for i := range pairs {
			pairs[i].crumb = false
		}
		return 0
	}
	props := make(map[string]bool, len(pairs))
	for _, pr := range pairs {
		if !pr.crumb {
			props[pr.key] = true
		}
	}
	n := 0
	for i := range pairs {
		if pairs[i].crumb && !props[pairs[i].key] {
			pairs[i].crumb = false
		}
		if pairs[i].crumb {
			n++
		}
	}
	return n
}

// restore rebuilds a truncated value that re-encodes to the same text and
// breadcrumb: the kept prefix, a fillRune for each code point quoting
// dropped, "...", then padByte up to total code points.
func (p *parser) restore(key, text string, total int64) (string, error) {
	l := int64(utf8.RuneCountInString(text))
	limit := int64(limitFor(key))
	grow := total - l
	if max := int64(p.lim.MaxStringBytes); grow > max || int64(len(text))+grow > max {
		return "", p.limitErr("MaxStringBytes", textwire.Clip(key)+"_len="+strconv.FormatInt(total, 10)+
			" restores a value longer than the limit of "+strconv.Itoa(p.lim.MaxStringBytes)+" bytes")
	}
	// The meter is asked before allocating, with the bytes restored since
	// it last counted.
	if !p.meter.Fits(p.restored + grow) {
		return "", p.tooBig(p.line)
	}
	p.restored, p.escaped = p.restored+grow, true
	var b strings.Builder
	b.Grow(len(text) + int(grow))
	b.WriteString(text[:len(text)-3])
	for i := l; i < limit; i++ {
		b.WriteByte(fillRune)
	}
	b.WriteString("...")
	for i := limit; i < total; i++ {
		b.WriteByte(padByte)
	}
	return b.String(), nil
}
