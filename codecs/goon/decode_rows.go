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
	c := newCounted[wire.Row](p, fRows, minRowLine, true)
	err = p.eachLine(func() error {
		if err := p.parsePairs(p.cur, false, p.lim.MaxElements); err != nil {
			return err
		}
		var row wire.Row
		if p.agg {
			var err error
			if row, err = p.aggregationRow(); err != nil {
				return err
			}
		} else {
			// A row names each cell once (the model's rule).
			if i := keyset.FirstRepeat(len(p.pairs), func(i int) string { return p.pairs[i].key }); i >= 0 {
				return p.errf("duplicate cell " + textwire.Clip(p.pairs[i].key))
			}
			row = p.cells.take(len(p.pairs))
			for i, pr := range p.pairs {
				row[i] = wire.Cell{Name: pr.key, Value: cellValue(pr)}
			}
		}
		if !p.meter.Row(row) {
			return p.tooBig(p.line)
		}
		c.add(row)
		return nil
	})
	p.r.Rows, err = c.done(p, err, fRows, "@rows", "rows")
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

// descriptors calls each for each name(inner) descriptor of the list val
// until an error; one that is not name(inner) is an error expecting form.
func (p *parser) descriptors(val, form string, each func(d, name, inner string) error) error {
	// One at a time: splitting a line of commas costs 16 bytes a byte.
	for rest, more := val, true; more; {
		var d string
		d, rest, more = strings.Cut(rest, ",")
		name, inner, ok := descriptor(d)
		if !ok {
			return p.errf("expected " + form + ", found " + textwire.Excerpt(d))
		}
		if err := each(d, name, inner); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) groupBy(val string) error {
	return p.descriptors(val, "a group descriptor name(node[:Entity]) or name(property[:property])", func(d, name, inner string) error {
		kind, detail, hasDetail := strings.Cut(inner, ":")
		if hasDetail && !isName(detail) {
			return p.errf("bad group descriptor " + textwire.Excerpt(d))
		}
		g := wire.GroupColumn{Name: name}
		switch kind {
		case "node":
			g.Kind = wire.GroupByNode
			if hasDetail {
				g.Entity = wire.Some(detail)
			}
		case "property":
			g.Kind = wire.GroupByProperty
			g.Property = wire.Some(name)
			if hasDetail {
				g.Property = wire.Some(detail)
			}
		default:
			return p.errf("unknown group kind " + textwire.Excerpt(kind) + " in " + textwire.Excerpt(d))
		}
		if err := p.addColumn(name, g.Kind == wire.GroupByNode); err != nil {
			return err
		}
		p.r.GroupColumns = append(p.r.GroupColumns, g)
		return nil
	})
}

func (p *parser) aggregations(val string) error {
	return p.descriptors(val, "an aggregation descriptor name(function[:target[.property]])", func(d, name, inner string) error {
		c := wire.Column{Name: name}
		fn, rest, hasTarget := strings.Cut(inner, ":")
		c.Function = fn
		bad := !isName(fn)
		if hasTarget {
			target, prop, hasProp := strings.Cut(rest, ".")
			c.Target = wire.Some(target)
			bad = bad || !isName(target)
			if hasProp {
				c.Property = wire.Some(prop)
				bad = bad || !isName(prop)
			}
		}
		if bad {
			return p.errf("bad aggregation descriptor " + textwire.Excerpt(d))
		}
		if err := p.addColumn(name, false); err != nil {
			return err
		}
		p.r.Columns = append(p.r.Columns, c)
		return nil
	})
}

func (p *parser) addColumn(name string, nodeKind bool) error {
	if err := p.checkElements(len(p.cols)+1, "columns"); err != nil {
		return err
	}
	if err := p.checkString(len(name), "column name"); err != nil {
		return err
	}
	if p.column(name) >= 0 {
		return p.errf("column name " + textwire.Clip(name) + " repeats")
	}
	p.cols = append(p.cols, rowCol{name: name, nodeKind: nodeKind})
	if p.colIndex != nil {
		p.colIndex[name] = len(p.cols) - 1
	} else if len(p.cols) > 16 {
		p.colIndex = make(map[string]int, 2*len(p.cols))
		for i, c := range p.cols {
			p.colIndex[c.name] = i
		}
	}
	return nil
}

// column returns the index of the column named name, or -1.
func (p *parser) column(name string) int {
	if p.colIndex != nil {
		if i, ok := p.colIndex[name]; ok {
			return i
		}
		return -1
	}
	for i, c := range p.cols {
		if c.name == name {
			return i
		}
	}
	return -1
}
