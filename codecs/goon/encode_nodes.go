package goon

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

func (e *encoder) writeNodes(b []byte) ([]byte, error) {
	return writeGroups(e, b, e.nodes, func(n *wire.Node) string { return n.Type }, "type", e.nodePath, e.nodeRow)
}

// writeGroups appends items (sorted by type) as groups: "Type(n):" for
// each run of n items of one type, then each item's line.
func writeGroups[T any](e *encoder, b []byte, items []*T, typeOf func(*T) string, what string,
	path func(*T) wirecodec.Path, line func([]byte, *T) ([]byte, error)) ([]byte, error) {
	for i := 0; i < len(items); {
		typ := typeOf(items[i])
		j := i + 1
		for j < len(items) && typeOf(items[j]) == typ {
			j++
		}
		if !isName(typ) {
			return b, notName(path(items[i]).Field("type").String(), what, typ)
		}
		b = append(b, typ...)
		b = append(b, '(')
		b = textwire.AppendInt(b, int64(j-i))
		b = append(b, "):\n"...)
		for ; i < j; i++ {
			var err error
			if b, err = line(b, items[i]); err != nil {
				return b, err
			}
			b = append(b, '\n')
			if b, err = e.spill(b); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// nodeRow appends the row of n, without the newline.
func (e *encoder) nodeRow(b []byte, n *wire.Node) ([]byte, error) {
	b = textwire.AppendInt(b, n.ID)
	ps, err := e.propOrder(n)
	if err != nil {
		return b, err
	}
	for i := range ps {
		key, v := ps[i].key, n.Properties[ps[i].i].Value
		if v.Kind() == wire.KindInt && strings.HasSuffix(key, "_len") && keyLenAfter(n, key[:len(key)-4], v.Int()) {
			continue // written after its value, below
		}
		start := len(b)
		b = e.prop(b, key, v)
		if v.Kind() == wire.KindString && len(b) > start && endsInDots(b) {
			if total, ok := keyLen(n, key); ok && isCrumb(key, writtenText(b[start+len(key)+2:]), b[len(b)-1] == '"', total) {
				b = appendKey(b, key+"_len")
				b = textwire.AppendInt(b, total)
			}
		}
	}
	return b, nil
}

// propOrder returns the properties of n in the order a row writes them, or
// the error for a key that is not a name (the model's check has refused a
// reserved or repeated key); a node with the keys of the node before it
// takes that node's order.
func (e *encoder) propOrder(n *wire.Node) ([]propRef, error) {
	if e.keysOK && len(n.Properties) == len(e.keys) {
		same := true
		for i := range n.Properties {
			if n.Properties[i].Key != e.keys[i] {
				same = false
				break
			}
		}
		if same {
			return e.props, nil
		}
	}
	e.keysOK = false
	ps := e.props[:0]
	for i := range n.Properties {
		k := n.Properties[i].Key
		if !isName(k) {
			e.props = ps
			return nil, notName(e.nodePath(n).Property(i, k).String(), "property key", k)
		}
		ps = append(ps, propRef{key: k, class: priority(k), i: int32(i)})
	}
	sortProps(ps)
	e.props = ps
	e.keys = e.keys[:0]
	for i := range n.Properties {
		e.keys = append(e.keys, n.Properties[i].Key)
	}
	e.keysOK = true
	return ps, nil
}

// prop appends " key=value", or nothing for null, "", NaN, ±Inf.
func (e *encoder) prop(b []byte, key string, v wire.Value) []byte {
	switch v.Kind() {
	case wire.KindBool:
		b = appendKey(b, key)
		return strconv.AppendBool(b, v.Bool())
	case wire.KindInt:
		b = appendKey(b, key)
		return textwire.AppendInt(b, v.Int())
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return b
		}
		b = appendKey(b, key)
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	case wire.KindString:
		s := v.Text()
		if s == "" {
			return b
		}
		b = appendKey(b, key)
		e.fills = e.fills || len(s) > limitFor(key) && dropsInPrefix(s, limitFor(key))
		return appendText(b, key, s, true, false)
	case wire.KindList:
		e.list = wire.AppendValueJSON(e.list[:0], v)
		e.maxList = max(e.maxList, len(e.list))
		b = appendKey(b, key)
		return appendText(b, key, e.listText(), true, false)
	}
	return b // null
}

// listText returns e.list as a string without copying it, valid until
// e.list is next written.
func (e *encoder) listText() string {
	return unsafe.String(unsafe.SliceData(e.list), len(e.list))
}

func appendKey(b []byte, key string) []byte {
	b = append(b, ' ')
	b = append(b, key...)
	return append(b, '=')
}
