package json

import (
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// row reads a row: an object of cells, each a value or a node reference.
func (d *decoder) row(row *wire.Row) error {
	var keys objectKeys
	base := len(d.cells)
	defer func() { d.cells = d.cells[:base] }()
	more, err := d.Open('{', "row")
	for ; more; more, err = d.Next('}', "row") {
		key, off, err := d.Key(max(d.l.MaxStringBytes, 64))
		if err != nil {
			return err
		}
		if err := d.member(len(d.cells)-base, "row", " cells", key, off); err != nil {
			return err
		}
		cells := d.cells[base:]
		if keys.add(key, off, func(i int) string { return cells[i].Name }) {
			return d.Err(off, "row: duplicate cell "+textwire.Excerpt(key))
		}
		c := wire.Cell{Name: key}
		if d.Peek() == '{' {
			c.Node, err = d.nodeRef()
		} else {
			c.Value, err = d.value(key)
		}
		if err != nil {
			return err
		}
		d.cells = append(d.cells, c)
		if !d.m.Cell(&c) {
			return d.tooBig(off)
		}
	}
	if err != nil {
		return err
	}
	if off, k, dup := keys.repeat(func(i int) string { return d.cells[base+i].Name }); dup {
		return d.Err(off, "row: duplicate cell "+textwire.Excerpt(k))
	}
	*row = wire.Row{}
	if len(d.cells) > base {
		*row = d.keptCells.keep(d.cells[base:])
	}
	return nil
}

// member checks the key at off, of the n-th member of an object of
// properties or cells (what+items, in errors), against MaxElements and
// MaxStringBytes.
func (d *decoder) member(n int, what, items, key string, off int) error {
	if n == d.l.MaxElements {
		return d.tooMany(off, what+items)
	}
	if len(key) > d.l.MaxStringBytes {
		return d.tooLong(off)
	}
	return nil
}

// properties reads the object of a node (what is "node"), its type, id
// and properties, or the properties object of a node reference (what is
// "node reference"), in which a property named type or id is refused, into
// n.
func (d *decoder) properties(what string, n *wire.Node) error {
	whole, haveType, haveID := what == "node", false, false
	var keys objectKeys
	start, base := d.Pos, len(d.props)
	defer func() { d.props = d.props[:base] }()
	open := what
	if !whole {
		open = "properties"
	}
	more, err := d.Open('{', open)
	for ; more; more, err = d.Next('}', open) {
		key, off, err := d.Key(max(d.l.MaxStringBytes, 64))
		if err != nil {
			return err
		}
		switch {
		case !whole && (key == "type" || key == "id"):
			err = d.Err(off, what+": property named "+strconv.Quote(key))
		case key == "type" && !haveType:
			haveType = true
			n.Type, err = d.str("node type", d.l.MaxStringBytes)
		case key == "id" && !haveID:
			haveID = true
			n.ID, err = d.id("node id")
		case key == "type" || key == "id":
			err = d.Err(off, what+": duplicate field \""+key+"\"")
		default:
			err = d.property(&keys, base, what, key, off)
		}
		if err != nil {
			return err
		}
	}
	if err != nil {
		return err
	}
	if n.Properties, err = d.endProperties(&keys, base, what); err != nil {
		return err
	}
	switch {
	case whole && !haveType:
		return d.Err(start, what+": missing \"type\"")
	case whole && !haveID:
		return d.Err(start, what+": missing \"id\"")
	}
	return nil
}

// property reads the value of the property key, at off, of a node whose
// properties so far are d.props[base:], after checking the key against
// MaxElements, MaxStringBytes and the keys before it; what names the node
// in errors ("node", "node reference").
func (d *decoder) property(keys *objectKeys, base int, what, key string, off int) error {
	props := d.props[base:]
	if err := d.member(len(props), what, " properties", key, off); err != nil {
		return err
	}
	if keys.add(key, off, func(i int) string { return props[i].Key }) {
		return d.Err(off, what+": duplicate property "+textwire.Excerpt(key))
	}
	v, err := d.value(key)
	d.props = append(grown(d, d.props, len(props)), wire.Property{Key: key, Value: v})
	return err
}

// endProperties returns a copy of the node's properties, d.props[base:],
// once its object has been read, or the error for a repeated key that
// property could not find at once.
func (d *decoder) endProperties(keys *objectKeys, base int, what string) ([]wire.Property, error) {
	if off, k, dup := keys.repeat(func(i int) string { return d.props[base+i].Key }); dup {
		return nil, d.Err(off, what+": duplicate property "+textwire.Excerpt(k))
	}
	ps := d.props[base:]
	if len(ps) == 0 {
		return nil, nil
	}
	if base == 0 && len(ps) >= presizeMin && cap(ps)-len(ps) <= len(ps)/8 {
		// Sized by grown to the node's properties: the scratch becomes
		// them rather than being copied, and the next node starts a new one.
		d.props = nil
		return ps[:len(ps):len(ps)], nil
	}
	return d.keptProps.keep(ps), nil
}
