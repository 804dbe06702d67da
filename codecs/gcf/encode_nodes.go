package gcf

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

func hasList(ps []wire.Property) bool {
	for i := range ps {
		if ps[i].Value.Kind() == wire.KindList {
			return true
		}
	}
	return false
}

// key writes a key, bare or quoted.
func (w *writer) key(k string) {
	switch {
	case len(k) > w.maxStr:
		w.fail = true
	case gcfvalue.IsBareKey(k): // ASCII: valid
		w.b = append(w.b, k...)
	case !textwire.ValidUTF8(k):
		w.fail = true
	default:
		w.b = gcfvalue.AppendKey(w.b, k)
	}
}

// attach writes the attachment ".name ..." of a row at rowDepth, its body
// two levels beneath the row (see headed).
func (w *writer) attach(name string, v wire.Value, node *wire.Node, rowDepth, level int) {
	w.indent(rowDepth)
	w.b = append(w.b, '.')
	w.key(name)
	w.b = append(w.b, ' ')
	w.headed(v, node, rowDepth+2, level)
}

// headed writes, after a head ("@i ", ".name ", a key), a node's members
// ("{}" then the members at depth), a list, or "=value"; level is the
// value's nesting in the generic value.
func (w *writer) headed(v wire.Value, node *wire.Node, depth, level int) {
	switch {
	case node != nil:
		w.b = append(w.b, "{}\n"...)
		w.nodeMembers(node, depth, level)
	case v.Kind() == wire.KindList:
		w.list(v.List(), depth, level)
	default:
		w.b = append(w.b, '=')
		w.scalar(v)
		w.b = append(w.b, '\n')
	}
}

// nodeMembers writes a node as the members of an object at depth: type,
// id, then its properties; level is the object's nesting.
func (w *writer) nodeMembers(n *wire.Node, depth, level int) {
	if level > w.maxDepth {
		w.fail = true
		return
	}
	w.indent(depth)
	w.b = append(w.b, "type="...)
	w.str(n.Type)
	w.b = append(w.b, '\n')
	w.indent(depth)
	w.b = append(w.b, "id="...)
	w.b = textwire.AppendInt(w.b, n.ID)
	w.b = append(w.b, '\n')
	for k := range n.Properties {
		w.member(n.Properties[k].Key, n.Properties[k].Value, nil, depth, level+1)
	}
}

// member writes the member name of an object at depth: a node as a
// section, a list inline ("name[N]: a,b") when it holds scalars and as a
// section otherwise, a scalar as name=value.
func (w *writer) member(name string, v wire.Value, node *wire.Node, depth, level int) {
	w.indent(depth)
	switch {
	case node != nil:
		w.b = append(w.b, "## "...)
		w.key(name)
		w.b = append(w.b, '\n')
		w.nodeMembers(node, depth+1, level)
	case v.Kind() == wire.KindList && (len(v.List()) == 0 || !scalars(v.List())):
		w.b = append(w.b, "## "...)
		w.key(name)
		w.b = append(w.b, ' ')
		w.list(v.List(), depth, level)
	default:
		w.key(name)
		w.headed(v, nil, depth, level)
	}
}

// scalars reports whether no item is a list.
func scalars(items []wire.Value) bool {
	for i := range items {
		if items[i].Kind() == wire.KindList {
			return false
		}
	}
	return true
}

// list writes, after a header prefix, the body of a list: "[0]", the
// inline "[N]: a,b" of scalars, or "[N]" and its items at depth.
func (w *writer) list(items []wire.Value, depth, level int) {
	if level > w.maxDepth {
		w.fail = true
		return
	}
	w.b = append(w.b, '[')
	w.b = strconv.AppendInt(w.b, int64(len(items)), 10)
	switch {
	case len(items) == 0:
		w.b = append(w.b, "]\n"...)
	case scalars(items):
		w.b = append(w.b, "]:"...)
		for i := range items {
			if i == 0 {
				w.b = append(w.b, ' ')
			} else {
				w.b = append(w.b, ',')
			}
			w.scalar(items[i])
		}
		w.b = append(w.b, '\n')
	default:
		w.b = append(w.b, "]\n"...)
		for i := range items {
			w.indent(depth)
			w.marker(i)
			w.headed(items[i], nil, depth+1, level+1)
		}
	}
}
