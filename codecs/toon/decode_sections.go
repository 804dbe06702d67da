package toon

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

var edgeFields = [...]string{"from", "from_id", "to", "to_id", "type", "depth", "path_id", "step"}

func (d *graphDecoder) edges(v jsonvalue.Value, path []pathStep) []wire.Edge {
	if t, ok := v.(*edgeTable); ok {
		return t.edges
	}
	return records(d, v, path, edgeFields[:], 5, func(e *wire.Edge, k int, v jsonvalue.Value, p []pathStep) {
		switch k {
		case 0, 2, 4:
			*[...]*string{&e.From, &e.To, &e.Type}[k/2], _ = d.str(v, p)
		case 1, 3:
			*[...]*int64{&e.FromID, &e.ToID}[k/2] = d.integer(v, p)
		default:
			*[...]*wire.Opt[int64]{&e.Depth, &e.PathID, &e.Step}[k-5] = d.optInt(v, p)
		}
	})
}

// records reads the array v of objects into a list of T, each object's
// members by d.fields (allowed, the first required of them required), each
// given to set; nil after an error.
func records[T any](d *graphDecoder, v jsonvalue.Value, path []pathStep, allowed []string, required int, set func(r *T, k int, v jsonvalue.Value, p []pathStep)) []T {
	items := d.array(v, path)
	if d.err != nil {
		return nil
	}
	out := make([]T, len(items))
	for i, item := range items {
		r := &out[i]
		d.fields(item, append(path, indexStep(i)), allowed, required, func(k int, v jsonvalue.Value, p []pathStep) { set(r, k, v, p) })
		if d.err != nil {
			return nil
		}
	}
	return out
}

var columnFields = []string{"name", "function", "target", "property"}

func (d *graphDecoder) columns(v jsonvalue.Value, path []pathStep) []wire.Column {
	return records(d, v, path, columnFields, 2, func(c *wire.Column, k int, v jsonvalue.Value, p []pathStep) {
		d.strField([]*string{&c.Name, &c.Function}, []*wire.Opt[string]{&c.Target, &c.Property}, k, v, p)
	})
}

// strField sets field k of a record of string fields strs, then optional
// ones opts, from v.
func (d *graphDecoder) strField(strs []*string, opts []*wire.Opt[string], k int, v jsonvalue.Value, p []pathStep) {
	if k < len(strs) {
		*strs[k], _ = d.str(v, p)
	} else if v != nil {
		s, _ := d.str(v, p)
		*opts[k-len(strs)] = wire.Some(s)
	}
}

var groupColumnFields = []string{"name", "kind", "node", "property", "entity"}

func (d *graphDecoder) groupColumns(v jsonvalue.Value, path []pathStep) []wire.GroupColumn {
	return records(d, v, path, groupColumnFields, 3, func(c *wire.GroupColumn, k int, v jsonvalue.Value, p []pathStep) {
		d.strField([]*string{&c.Name, (*string)(&c.Kind), &c.Node}, []*wire.Opt[string]{&c.Property, &c.Entity}, k, v, p)
		if k == 1 && d.err == nil && !c.Kind.Valid() {
			d.fail(p, "unknown group kind "+textwire.Excerpt(string(c.Kind))+" (want node or property)")
		}
	})
}

func (d *graphDecoder) rows(v jsonvalue.Value, path []pathStep) []wire.Row {
	if t, ok := v.(*rowsTable); ok {
		return t.rows
	}
	items := d.array(v, path)
	if d.err != nil {
		return nil
	}
	rows := make([]wire.Row, len(items))
	for i, item := range items {
		p := append(path, indexStep(i))
		switch x := item.(type) {
		case *jsonvalue.Object:
			if x == nil {
				break
			}
			if len(x.Members) > d.lim.MaxElements {
				d.failLimit(p, "MaxElements", strconv.Itoa(len(x.Members))+" cells, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
				return nil
			}
			row := make(wire.Row, len(x.Members))
			for j, m := range x.Members {
				row[j] = d.cell(m.Key, m.Value, append(p, keyStep(m.Key)))
				if d.err != nil {
					return nil
				}
			}
			rows[i] = row
			continue
		case []jsonvalue.Value:
			row := make(wire.Row, len(x))
			for j, c := range x {
				cp := append(p, indexStep(j))
				m, ok := d.only(c, cp, "a one-cell object")
				if !ok {
					return nil
				}
				row[j] = d.cell(m.Key, m.Value, append(cp, keyStep(m.Key)))
				if d.err != nil {
					return nil
				}
			}
			if k := keyset.FirstRepeat(len(row), func(j int) string { return row[j].Name }); k >= 0 {
				name := row[k].Name
				j := len(row) - 1
				for row[j].Name != name {
					j--
				}
				d.fail(append(p, indexStep(j), keyStep(name)), "duplicate cell")
				return nil
			}
			rows[i] = row
			continue
		}
		d.fail(p, "expected a row (an object, or a list of one-cell objects), found "+describe(item))
		return nil
	}
	return rows
}

func (d *graphDecoder) cell(name string, v jsonvalue.Value, path []pathStep) wire.Cell {
	c := wire.Cell{Name: name}
	if !d.name(name, path) {
		return c
	}
	o, ok := v.(*jsonvalue.Object)
	if !ok || o == nil {
		c.Value = d.value(v, path, 0)
		return c
	}
	n := &wire.Node{Properties: []wire.Property{}}
	haveType, haveID := d.nodeMembers(n, o, path, true)
	if d.err == nil && (!haveType || !haveID) {
		d.fail(path, "a node reference needs type and id")
	}
	if d.err == nil {
		c.Node = n
	}
	return c
}

var paginationFields = []string{"has_more", "total_rows", "truncated", "next_cursor"}

// pagination reads {has_more, total_rows} (schema v2) or {has_more,
// truncated, next_cursor?} (schema v5); has_more is required, and a mix of
// the two, or a shape missing its schema's required field, is an error at
// the pagination object.
func (d *graphDecoder) pagination(v jsonvalue.Value, path []pathStep) *wire.Pagination {
	p := &wire.Pagination{}
	boolean := func(v jsonvalue.Value, fp []pathStep) bool {
		b, ok := v.(bool)
		if !ok {
			d.fail(fp, "expected true or false, found "+describe(v))
		}
		return b
	}
	d.fields(v, path, paginationFields, 1, func(k int, v jsonvalue.Value, fp []pathStep) {
		switch k {
		case 0:
			p.HasMore = boolean(v, fp)
		case 1:
			p.TotalRows = wire.Some[int64](d.integer(v, fp))
		case 2:
			p.Truncated = wire.Some(boolean(v, fp))
		case 3:
			s, _ := d.str(v, fp)
			p.NextCursor = wire.Some(s)
		}
	})
	if d.err == nil {
		if err := p.Check(); err != nil {
			d.fail(path, err.Error())
		}
	}
	return p
}
