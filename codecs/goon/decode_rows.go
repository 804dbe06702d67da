package goon

import (
	"strings"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

type rowCol struct {
	name     string
	nodeKind bool
}

func (p *parser) parseRows() (err error) {
	p.r.Rows, err = collect(p, fRows, minRowLine, true, "@rows", "rows", func(row *wire.Row) bool { return p.meter.Row(*row) }, func(add func(wire.Row) error) error {
		return p.eachLine(func() error {
			if err := p.parsePairs(p.cur, false, p.lim.MaxElements); err != nil {
				return err
			}
			if p.agg {
				row, err := p.aggregationRow()
				if err != nil {
					return err
				}
				return add(row)
			}
			// A row names each cell once (the model's rule).
			if i := keyset.FirstRepeat(len(p.pairs), func(i int) string { return p.pairs[i].key }); i >= 0 {
				return p.errf("duplicate cell " + textwire.Clip(p.pairs[i].key))
			}
			row := p.cells.take(len(p.pairs))
			for i, pr := range p.pairs {
				row[i] = wire.Cell{Name: pr.key, Value: cellValue(pr)}
			}
			return add(row)
		})
	})
	return err
}

// aggregationRow matches an @rows line's pairs to the header's columns,
// once each, in order.
func (p *parser) aggregationRow() (wire.Row, error) {
	row := p.cells.take(len(p.pairs))[:0]
	next := 0
	for _, pr := range p.pairs {
		k := p.column(pr.key)
		switch {
		case k < 0:
			return nil, p.errf("cell " + textwire.Clip(pr.key) + " is not a column the header declares")
		case k < next:
			return nil, p.errf("cell " + textwire.Clip(pr.key) + " repeats or is out of order (cells follow group_by, then aggregations, once each)")
		}
		next = k + 1
		c := wire.Cell{Name: pr.key}
		switch {
		case pr.quoted:
			c.Value = wire.String(quotedString(pr.text, p.cols[k].nodeKind))
		case p.cols[k].nodeKind:
			if typ, id, ok := nodeRef(pr.text); ok {
				c.Node = p.liftedRef(nodeKey{typ, id})
				break
			}
			c.Value = bareValue(pr.text)
			if c.Value.Kind() == wire.KindString {
				return nil, p.errf("expected a node reference Type:id (or a number, bool or null) in node column " + textwire.Clip(pr.key) + ", found " + textwire.Excerpt(pr.text))
			}
		default:
			c.Value = bareValue(pr.text)
		}
		row = append(row, c)
	}
	return row, nil
}

func cellValue(pr pair) wire.Value {
	if pr.quoted {
		return wire.String(quotedString(pr.text, false))
	}
	return bareValue(pr.text)
}

// nodeRef parses a bare Type:id.
func nodeRef(s string) (string, int64, bool) {
	colon := strings.IndexByte(s, ':')
	if colon < 0 || !isName(s[:colon]) {
		return "", 0, false
	}
	id, ok := parseInt(s[colon+1:])
	return s[:colon], id, ok
}
