package toon

import (
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// nodeList reads the items of a node group in list form, "Type[N]:"
// (n is the N) followed by N items of "- key: value" lines, the form
// Encode writes when the nodes of a type have different keys: each value
// a primitive or an inline array of primitives. It moves to the line
// after the items.
func (f *fastReader) nodeList(typ, n string) []wire.Node {
	count := f.length(n)
	if count == 0 || f.lim.MaxDepth < 1 {
		f.fail()
	}
	f.rows(count, 1, 2)
	nodes := make([]wire.Node, count)
	f.next()
	for i := range nodes {
		if !f.has || f.depth != 2 || !strings.HasPrefix(f.c, "- ") {
			f.fail()
		}
		nodes[i] = f.listNode(typ)
	}
	if f.has && f.depth > 1 {
		f.fail()
	}
	return nodes
}

// listNode reads one item of a node list, from its "- " line, and moves
// to the line after it.
func (f *fastReader) listNode(typ string) wire.Node {
	n := wire.Node{Type: typ}
	scratch := f.scratch[:0]
	haveID := false
	c := f.c[2:]
	for {
		key, v := f.member(c)
		switch key {
		case "id":
			if haveID || v.Kind() != wire.KindInt {
				f.fail()
			}
			n.ID, haveID = v.Int(), true
		case "type":
			f.fail()
		default:
			for j := range scratch {
				if scratch[j].Key == key {
					f.fail()
				}
			}
			if len(scratch) == maxFastFields || len(scratch) >= f.lim.MaxElements {
				f.fail()
			}
			scratch = append(scratch, wire.Property{Key: key, Value: v})
		}
		if !f.next() || f.depth != 3 {
			break
		}
		c = f.c
	}
	f.scratch = scratch
	if !haveID {
		f.fail()
	}
	if k := len(scratch); k > 0 {
		if len(f.slab) < k {
			f.slab = make([]wire.Property, max(k, propChunk))
		}
		n.Properties = f.slab[:k:k]
		f.slab = f.slab[k:]
		copy(n.Properties, scratch)
	}
	return n
}

// propChunk is how many properties of listed nodes one allocation holds.
const propChunk = 1024

// member reads "key: value" or "key[N]: v,v", a value being a primitive
// and the array's a list of them.
func (f *fastReader) member(c string) (string, wire.Value) {
	i := 0
	for i < len(c) && c[i] != ':' && c[i] != '[' {
		i++
	}
	if i == len(c) {
		f.fail()
	}
	key := c[:i]
	f.name(key)
	if c[i] == ':' {
		return key, f.scalar(c[i+1:])
	}
	close := strings.Index(c[i:], "]: ")
	if close < 0 {
		f.fail()
	}
	n := f.length(c[i+1 : i+close])
	vals := c[i+close+3:]
	if n == 0 || n-1 > len(vals) {
		f.fail()
	}
	vs := make([]wire.Value, n)
	j := 0
	for k := range vs {
		if j > len(vals) {
			f.fail()
		}
		vs[k], j = f.cell(vals, j)
	}
	if j <= len(vals) {
		f.fail()
	}
	return key, wire.ListOf(vs...)
}
