package delta

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// delta reads the top-level object of the JSON form.
func (r *reader) delta() (*Delta, error) {
	d := &Delta{}
	var (
		seen                  = map[string]bool{}
		unchanged             bool
		raw                   json.RawMessage
		contentOff            int64
		changedN              []int
		nodeAt, edgeAt, rowAt []int
		start                 = r.here()
	)
	err := r.object("delta", func(key string, off int64) error {
		seen[key] = true
		var err error
		switch key {
		case "graphwire_delta":
			var v, voff int64
			if v, voff, err = r.integer(key); err == nil && v != Version {
				err = r.fail(voff, "graphwire_delta: version "+strconv.FormatInt(v, 10)+" is not supported (this reader reads version "+strconv.Itoa(Version)+")")
			}
		case "base":
			d.Base, err = r.hash(key)
		case "result":
			d.Result, err = r.hash(key)
		case "unchanged":
			var t json.Token
			var toff int64
			if t, toff, err = r.token(key); err == nil && t != true {
				err = r.expect(key, t, toff, "true (the key is left out of a delta that changes something)")
			}
			unchanged = true
		case "set":
			err = r.array(key, func(i int) error {
				off := r.here()
				name, err := r.str("set[" + strconv.Itoa(i) + "]")
				if err != nil {
					return err
				}
				for b, n := range fieldNames {
					if n == name {
						if d.Set&(1<<b) != 0 {
							return r.fail(off, "set: "+strconv.Quote(name)+" named twice")
						}
						d.Set |= 1 << b
						return nil
					}
				}
				return r.fail(off, "set["+strconv.Itoa(i)+"]: expected columns, group_columns or pagination, found "+textwire.Excerpt(name))
			})
		case "nodes":
			err = r.nodeOps(&d.Nodes, &changedN, &nodeAt)
		case "edges":
			err = r.edgeOps(&d.Edges, &edgeAt)
		case "rows":
			err = r.rowOps(&d.Rows, &rowAt)
		case "content":
			contentOff = r.here()
			if err = r.dec.Decode(&raw); err == nil && !r.m.Scratch(2*int64(len(raw))) {
				// raw, and the decoder's buffer that held it
				return r.refused(contentOff)
			}
			if err != nil {
				// wire.DecodeJSON says where, precisely, in the content.
				if _, werr := wire.DecodeJSON(r.data[contentOff:], r.l); werr != nil {
					return r.contentError(werr, contentOff)
				}
				return r.fail(contentOff, "content: "+err.Error())
			}
		default:
			err = r.unknown("delta", key, off)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	end := int64(len(r.data))
	for _, k := range []string{"graphwire_delta", "base", "result"} {
		if !seen[k] {
			return nil, r.missing("delta", k, start)
		}
	}
	if unchanged {
		if d.Base != d.Result {
			return nil, r.fail(start, "delta: unchanged, yet the base and result fingerprints differ")
		}
		for _, k := range []string{"set", "nodes", "edges", "rows", "content"} {
			if seen[k] {
				return nil, r.fail(start, "delta: unchanged, yet with "+strconv.Quote(k))
			}
		}
		return d, nil
	}
	if d.Base == d.Result {
		return nil, r.fail(start, `delta: the base and result fingerprints are equal, so the delta must be {"unchanged":true} and nothing else`)
	}
	if !seen["content"] {
		return nil, r.missing("delta", "content", end)
	}
	c, err := wire.DecodeJSON(raw, r.l)
	if err != nil {
		return nil, r.contentError(err, contentOff)
	}
	if !r.m.Content(c) {
		return nil, r.refused(contentOff)
	}
	if err := r.assemble(d, c, contentOff, changedN, nodeAt, edgeAt, rowAt); err != nil {
		return nil, err
	}
	return d, nil
}

// contentError is an error of wire.DecodeJSON on the content, which starts
// at off, as an error of the delta.
func (r *reader) contentError(err error, off int64) error {
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		return err
	}
	e := *de
	e.Codec = codecName
	e.Offset += off + r.shift
	e.Msg = "content: " + e.Msg
	return &e
}

// assemble puts the content's nodes, edges, rows and header into d, the
// lists matched with the operations that place them.
func (r *reader) assemble(d *Delta, c *wire.GraphResponse, off int64, changedN, nodeAt, edgeAt, rowAt []int) error {
	count := func(what string, got, want int) error {
		return r.fail(off, "content: "+strconv.Itoa(got)+" "+what+", the operations place "+strconv.Itoa(want))
	}
	if len(c.Nodes) != len(changedN)+len(nodeAt) {
		return count("nodes", len(c.Nodes), len(changedN)+len(nodeAt))
	}
	if len(c.Edges) != len(edgeAt) {
		return count("edges", len(c.Edges), len(edgeAt))
	}
	if len(c.Rows) != len(rowAt) {
		return count("rows", len(c.Rows), len(rowAt))
	}
	d.FormatVersion, d.QueryType = c.FormatVersion, c.QueryType
	for i, n := range changedN {
		if err := add(r, off, &d.Nodes.Changed, Changed{N: n, Node: c.Nodes[i]}); err != nil {
			return err
		}
	}
	for i, at := range nodeAt {
		if err := add(r, off, &d.Nodes.Added, Placed[wire.Node]{At: at, Item: c.Nodes[len(changedN)+i]}); err != nil {
			return err
		}
	}
	for i, at := range edgeAt {
		if err := add(r, off, &d.Edges.Added, Placed[wire.Edge]{At: at, Item: c.Edges[i]}); err != nil {
			return err
		}
	}
	d.Rows.Present = c.Rows != nil
	for i, at := range rowAt {
		if err := add(r, off, &d.Rows.Added, Placed[wire.Row]{At: at, Item: c.Rows[i]}); err != nil {
			return err
		}
	}
	unset := func(name string) error {
		return r.fail(off, "content: "+name+" without "+strconv.Quote(name)+" in set")
	}
	if d.Set.Has(SetColumns) {
		d.Columns = c.Columns
	} else if c.Columns != nil {
		return unset("columns")
	}
	if d.Set.Has(SetGroupColumns) {
		d.GroupColumns = c.GroupColumns
	} else if c.GroupColumns != nil {
		return unset("group_columns")
	}
	if d.Set.Has(SetPagination) {
		d.Pagination = c.Pagination
	} else if c.Pagination != nil {
		return unset("pagination")
	}
	return nil
}

func (r *reader) positions(what string, into *[]int) error {
	return r.array(what, func(i int) error {
		off := r.here()
		p, err := r.position(opName(what, i))
		if err != nil {
			return err
		}
		return add(r, off, into, p)
	})
}

func (r *reader) nodeOps(o *NodeOps, changedN, at *[]int) error {
	return r.object("nodes", func(key string, off int64) error {
		switch key {
		case "removed":
			return r.array("nodes.removed", func(i int) error {
				off := r.here()
				k, _, err := r.nodeKey(opName("nodes.removed", i), false)
				if err != nil {
					return err
				}
				return add(r, off, &o.Removed, k)
			})
		case "moved":
			return r.array("nodes.moved", func(i int) error {
				off := r.here()
				k, at, err := r.nodeKey(opName("nodes.moved", i), true)
				if err != nil {
					return err
				}
				return add(r, off, &o.Moved, Move[NodeKey]{Key: k, At: at})
			})
		case "changed":
			return r.positions("nodes.changed", changedN)
		case "added_at":
			return r.positions("nodes.added_at", at)
		}
		return r.unknown("nodes", key, off)
	})
}

func (r *reader) edgeOps(o *EdgeOps, at *[]int) error {
	return r.object("edges", func(key string, off int64) error {
		switch key {
		case "removed":
			return r.array("edges.removed", func(i int) error {
				off := r.here()
				k, _, err := r.edgeKey(opName("edges.removed", i), false)
				if err != nil {
					return err
				}
				return add(r, off, &o.Removed, k)
			})
		case "moved":
			return r.array("edges.moved", func(i int) error {
				off := r.here()
				k, at, err := r.edgeKey(opName("edges.moved", i), true)
				if err != nil {
					return err
				}
				return add(r, off, &o.Moved, Move[EdgeKey]{Key: k, At: at})
			})
		case "added_at":
			return r.positions("edges.added_at", at)
		}
		return r.unknown("edges", key, off)
	})
}

func (r *reader) rowOps(o *RowOps, at *[]int) error {
	return r.object("rows", func(key string, off int64) error {
		switch key {
		case "removed":
			return r.positions("rows.removed", &o.Removed)
		case "moved":
			return r.array("rows.moved", func(i int) error {
				what := opName("rows.moved", i)
				start := r.here()
				m := Move[int]{Key: -1, At: -1}
				err := r.object(what, func(key string, off int64) error {
					var err error
					switch key {
					case "from":
						m.Key, err = r.position(what + ".from")
					case "at":
						m.At, err = r.position(what + ".at")
					default:
						err = r.unknown(what, key, off)
					}
					return err
				})
				if err == nil && (m.Key < 0 || m.At < 0) {
					err = r.fail(start, what+`: expected "from" and "at"`)
				}
				if err != nil {
					return err
				}
				return add(r, start, &o.Moved, m)
			})
		case "added_at":
			return r.positions("rows.added_at", at)
		}
		return r.unknown("rows", key, off)
	})
}

// nodeKey reads {"type", "id", "n"?} and, withAt, "at".
func (r *reader) nodeKey(what string, withAt bool) (NodeKey, int, error) {
	var k NodeKey
	at := -1
	start := r.here()
	var hasType, hasID bool
	err := r.object(what, func(key string, off int64) error {
		var err error
		switch {
		case key == "type":
			k.Type, err = r.str(what + ".type")
			hasType = true
		case key == "id":
			k.ID, err = r.id(what + ".id")
			hasID = true
		case key == "n":
			k.N, err = r.position(what + ".n")
		case key == "at" && withAt:
			at, err = r.position(what + ".at")
		default:
			err = r.unknown(what, key, off)
		}
		return err
	})
	switch {
	case err != nil:
	case !hasType:
		err = r.missing(what, "type", start)
	case !hasID:
		err = r.missing(what, "id", start)
	case withAt && at < 0:
		err = r.missing(what, "at", start)
	}
	return k, at, err
}

// edgeKey reads an edge object of canonical JSON, "n"? and, withAt, "at".
func (r *reader) edgeKey(what string, withAt bool) (EdgeKey, int, error) {
	var k EdgeKey
	e := &k.Edge
	at := -1
	start := r.here()
	var has [5]bool
	names := [5]string{"from", "from_id", "to", "to_id", "type"}
	optInt := func(o *wire.OptInt, key string) error {
		i, _, err := r.integer(what + "." + key)
		*o = wire.SomeInt(i)
		return err
	}
	err := r.object(what, func(key string, off int64) error {
		var err error
		for i, n := range names {
			if n == key {
				has[i] = true
			}
		}
		switch {
		case key == "from":
			e.From, err = r.str(what + ".from")
		case key == "from_id":
			e.FromID, err = r.id(what + ".from_id")
		case key == "to":
			e.To, err = r.str(what + ".to")
		case key == "to_id":
			e.ToID, err = r.id(what + ".to_id")
		case key == "type":
			e.Type, err = r.str(what + ".type")
		case key == "depth":
			err = optInt(&e.Depth, key)
		case key == "path_id":
			err = optInt(&e.PathID, key)
		case key == "step":
			err = optInt(&e.Step, key)
		case key == "n":
			k.N, err = r.position(what + ".n")
		case key == "at" && withAt:
			at, err = r.position(what + ".at")
		default:
			err = r.unknown(what, key, off)
		}
		return err
	})
	if err != nil {
		return k, at, err
	}
	for i, ok := range has {
		if !ok {
			return k, at, r.missing(what, names[i], start)
		}
	}
	if withAt && at < 0 {
		return k, at, r.missing(what, "at", start)
	}
	if !r.m.Response().Edge(e) || !r.m.Fits() {
		return k, at, r.refused(start)
	}
	return k, at, nil
}
