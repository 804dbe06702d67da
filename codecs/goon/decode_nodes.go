package goon

import (
	"strings"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// nodeGroups words the errors of @nodes' groups.
var nodeGroups = groupKind{header: "a node group Type(count):", orphan: "a node row before its Type(n): group", items: "rows"}

// parseNodes reads @nodes into the response's nodes.
func (p *parser) parseNodes() (err error) {
	c := newCounted[wire.Node](p, fNodes, minNodeLine, true)
	err = grouped(p, &nodeGroups, p.nodeRow, func(n wire.Node) error {
		if !p.meterNode(c.add(n)) {
			return p.tooBig(p.line)
		}
		return nil
	})
	p.r.Nodes, err = c.done(p, err, fNodes, "@nodes", "rows")
	return err
}

// meterNode meters a node row, with the bytes its restored values added;
// an aggregation's are metered in finish, once lifted nodes are told apart.
func (p *parser) meterNode(n *wire.Node) bool {
	if p.agg {
		p.nodeLines = append(p.nodeLines, p.line)
		return true
	}
	p.restored = 0
	// Names, bare values and quoted text without escapes are their own
	// canonical JSON (checkText found the input valid UTF-8).
	p.meter.Clean = !p.escaped
	ok := p.meter.Node(n)
	p.meter.Clean, p.escaped = false, false
	return ok
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
	// With breadcrumbs, twice the properties' limit bounds the pairs.
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
	// Checked before the properties are built.
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
// breadcrumb, not a property, is compared under a key no name can have).
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
