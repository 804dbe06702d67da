package goon

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The @nodes section: Type(n): groups of "id key=value ..." rows, read and
// written.

// nodeGroups words the errors of @nodes' groups.
var nodeGroups = groupKind{header: "a node group Type(count):", orphan: "a node row before its Type(n): group", items: "rows"}

// parseNodes reads @nodes into the response's nodes.
func (p *parser) parseNodes() error {
	reserve, full := p.declared(fNodes, minNodeLine, int(unsafe.Sizeof(wire.Node{})), true)
	nodes := make([]wire.Node, 0, reserve)
	err := p.grouped(&nodeGroups, func(typ string) error {
		n, err := p.nodeRow(typ)
		if err != nil {
			return err
		}
		nodes = append(room(nodes, full), n)
		if p.r.QueryType == wire.Aggregation {
			// Metered in finish, once the nodes lifted from rows are
			// told apart.
			p.nodeLines = append(p.nodeLines, p.line)
		} else if !p.meter.Node(&nodes[len(nodes)-1]) {
			return p.tooBig(p.line)
		} else {
			p.restored = 0 // counted with the node
		}
		return nil
	})
	if err != nil {
		return err
	}
	if h := p.header[fNodes]; strconv.Itoa(len(nodes)) != h.value {
		return lineError(h.line, "nodes:"+textwire.Clip(h.value)+" but @nodes has "+strconv.Itoa(len(nodes))+" rows")
	}
	p.r.Nodes = nodes
	return nil
}

// nodeRow parses "id key=value ..." into a node of type typ.
func (p *parser) nodeRow(typ string) (wire.Node, error) {
	line := p.cur
	sp := strings.IndexByte(line, ' ')
	if sp < 0 {
		sp = len(line)
	}
	id, ok := parseInt(line[:sp])
	if !ok {
		return wire.Node{}, p.errf("bad id " + textwire.Excerpt(line[:sp]) + ", expected a decimal int64")
	}
	// A property may bring a breadcrumb: twice the properties' limit
	// bounds the pairs.
	if err := p.parsePairs(line[sp:], true, 2*p.lim.MaxElements); err != nil {
		return wire.Node{}, err
	}
	pairs := p.pairs
	crumbs := 0
	for i := 0; i+1 < len(pairs); i++ {
		if isBreadcrumbKey(pairs[i+1].key, pairs[i].key) {
			if _, ok := p.breadcrumb(pairs[i], pairs[i+1]); ok {
				i++
				pairs[i].crumb = true
				crumbs++
			}
		}
	}
	if crumbs > 0 {
		crumbs = settleCrumbs(pairs)
	}
	n := len(pairs) - crumbs
	if err := p.checkElements(n, "properties"); err != nil {
		return wire.Node{}, err
	}
	// Checked before the properties are built, so that a line of repeated
	// keys costs no more than its pairs.
	if err := p.checkDuplicateKeys(pairs); err != nil {
		return wire.Node{}, err
	}
	for _, pr := range pairs {
		if priority(pr.key) == classReserved {
			return wire.Node{}, p.errf("property named " + textwire.Clip(pr.key) + " (reserved for the node itself)")
		}
	}
	props := p.props.take(n)
	n = 0
	for i := 0; i < len(pairs); i++ {
		pr := pairs[i]
		var v wire.Value
		if i+1 < len(pairs) && pairs[i+1].crumb {
			if total, ok := p.breadcrumb(pr, pairs[i+1]); ok {
				s, err := p.restore(pr.key, pr.text, total)
				if err != nil {
					return wire.Node{}, err
				}
				props[n] = wire.Property{Key: pr.key, Value: wire.String(s)}
				n++
				i++
				continue
			}
		}
		if pr.quoted {
			v = wire.String(quotedString(pr.text, false))
		} else {
			v = bareValue(pr.text)
			if v.IsNull() {
				return wire.Node{}, p.errf("null in a node row (a node row omits null; bare null appears only in @rows)")
			}
		}
		props[n] = wire.Property{Key: pr.key, Value: v}
		n++
	}
	return wire.Node{Type: typ, ID: id, Properties: props}, nil
}

// checkDuplicateKeys rejects a node row with two properties of one key (a
// key_len breadcrumb, marked crumb, is not a property: it may share its
// key with one, so it is compared under a key no name can have).
func (p *parser) checkDuplicateKeys(pairs []pair) error {
	i := keyset.FirstRepeat(len(pairs), func(i int) string {
		if pairs[i].crumb {
			return "=" + pairs[i].key
		}
		return pairs[i].key
	})
	if i >= 0 {
		return p.errf("duplicate key " + textwire.Clip(pairs[i].key))
	}
	return nil
}

func (e *encoder) writeNodes(b []byte) ([]byte, error) {
	nodes := e.nodes
	for i := 0; i < len(nodes); {
		typ := nodes[i].Type
		j := i + 1
		for j < len(nodes) && nodes[j].Type == typ {
			j++
		}
		if !isName(typ) {
			return b, notName(e.nodePath(nodes[i]).Field("type").String(), "type", typ)
		}
		b = append(b, typ...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(j-i), 10)
		b = append(b, "):\n"...)
		for ; i < j; i++ {
			var err error
			if b, err = e.nodeRow(b, nodes[i]); err != nil {
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

// nodeRow appends the row of n, without the newline: its id, then its
// properties in priority order.
func (e *encoder) nodeRow(b []byte, n *wire.Node) ([]byte, error) {
	b = strconv.AppendInt(b, n.ID, 10)
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
		if v.Kind() == wire.KindString && len(b) > start && (bytes.HasSuffix(b, dots) || bytes.HasSuffix(b, quotedDots)) {
			if total, ok := keyLen(n, key); ok && isCrumb(key, writtenText(b[start+len(key)+2:]), b[len(b)-1] == '"', total) {
				b = appendKey(b, key+"_len")
				b = strconv.AppendInt(b, total, 10)
			}
		}
	}
	return b, nil
}

// propOrder returns the properties of n in the order a row writes them,
// or the error for a key GOON cannot write. The nodes of a group mostly
// share their keys, in the same order: for a node whose keys are those of
// the node before it, the order (and the checks) of that node hold.
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
		class := priority(k)
		if class == classReserved || !isName(k) {
			e.props = ps
			return nil, e.badKey(n, i, k, class)
		}
		ps = append(ps, propRef{key: k, class: class, i: int32(i)})
	}
	sortProps(ps)
	e.props = ps
	for i := 1; i < len(ps); i++ {
		if ps[i].key == ps[i-1].key {
			return nil, &wire.EncodeError{Codec: Name, Path: e.nodePath(n).Property(int(max(ps[i].i, ps[i-1].i)), ps[i].key).String(), Msg: "two properties named " + strconv.Quote(ps[i].key)}
		}
	}
	e.keys = e.keys[:0]
	for i := range n.Properties {
		e.keys = append(e.keys, n.Properties[i].Key)
	}
	e.keysOK = true
	return ps, nil
}

// prop appends " key=value" for a node-row property, or nothing for the
// values a node row omits (null, "", NaN, ±Inf).
func (e *encoder) prop(b []byte, key string, v wire.Value) []byte {
	switch v.Kind() {
	case wire.KindBool:
		b = appendKey(b, key)
		return strconv.AppendBool(b, v.Bool())
	case wire.KindInt:
		b = appendKey(b, key)
		return strconv.AppendInt(b, v.Int(), 10)
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

func appendKey(b []byte, key string) []byte {
	b = append(b, ' ')
	b = append(b, key...)
	return append(b, '=')
}
