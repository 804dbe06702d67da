package goon

import (
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The @nodes section: Type(n): groups of "id key=value ..." rows, read.

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
		if p.agg {
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
	if err := p.checkCount(fNodes, "@nodes", len(nodes), "rows"); err != nil {
		return err
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
			if v.Kind() == wire.KindNull {
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
