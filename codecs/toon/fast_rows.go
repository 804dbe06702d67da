package toon

import (
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/wire"
)

// The fast reader's rows: a rows table of the kind Encode writes (a
// field a cell, a field group name{type,id,keys...} a node cell, every
// cell a primitive) is read straight into the response, each row metered
// as it is read, so that a dense table costs the rows the meter accepts
// and no generic TOON value of them. The sections around it are read by
// the generic decoder as before.
//
// A table the meter refuses at row i is refused at row i, as measure
// would refuse it, once the rest of the document has been read without
// a doubt: its rows past i into one row of scratch, the sections after
// it by the generic decoder. Anything else gives up as usual.

// rowField is a field of a rows table's header: a cell, or, when node,
// the field group of a node cell whose leaves are keys.
type rowField struct {
	name string
	node bool
	keys []string // the group's field names, in order
	typ  int      // the index in keys of "type" and of "id"
	id   int
}

// rest reads the rest of the document, from the line at depth 0 the
// fast reader stopped at (data), into r: the sections before a rows
// table and after it by the generic decoder, the table itself by
// rowsTable. groups are the node tables read so far, metered with r's
// edges, columns and group columns before the rows, in measure's order.
func (f *fastReader) rest(c *Codec, data []byte, r *wire.GraphResponse, groups []fastGroup) {
	s := f.s[f.start:]
	at := -1
	switch {
	case strings.HasPrefix(s, "rows["):
		at = 0
	default:
		if i := strings.Index(s, "\nrows["); i >= 0 {
			at = i + 1
		}
	}
	if at >= 0 {
		// A table: "rows[N]{...}:", not the list "rows[N]:".
		h := s[at:]
		if nl := strings.IndexByte(h, '\n'); nl >= 0 {
			h = h[:nl]
		}
		if !strings.HasSuffix(h, "}:") {
			at = -1
		}
	}
	if at < 0 {
		f.generic(c, data, r, nil)
		return
	}
	seen := f.generic(c, data[:at], r, []string{"rows"})
	base := f.start
	f.pos = base + at
	f.next()
	m := wire.NewMeter(f.lim, len(f.s))
	for _, g := range groups {
		for i := range g.nodes {
			if !m.Node(&g.nodes[i]) {
				f.fail()
			}
		}
	}
	if _, ok := meterHead(m, nil, r); !ok {
		f.fail()
	}
	r.Rows = f.rowsTable(f.c[len("rows"):], m)
	if f.has {
		if f.depth != 0 {
			f.fail()
		}
		after := f.generic(c, data[f.start-base:], r, seen)[len(seen):]
		for _, k := range after {
			if f.refused >= 0 && (k == "columns" || k == "group_columns") {
				f.fail() // measured before the rows: the refusal may be earlier
			}
		}
	}
	f.has = false
}

// generic converts part, whole sections at depth 0, read by the generic
// decoder, into r; a key among seen (the sections read elsewhere) gives
// up, as the generic decoder would refuse a repeated key. It returns
// seen with part's keys.
func (f *fastReader) generic(c *Codec, part []byte, r *wire.GraphResponse, seen []string) []string {
	if len(part) == 0 {
		return seen
	}
	l := c.limits
	v, err := toonread.Decode(part, toonread.Options{MaxDepth: depthPerList*l.MaxDepth + layoutDepth},
		toonread.Limits{Set: true, MaxElements: l.MaxElements, MaxFields: l.MaxElements + layoutFields, MaxString: l.MaxStringBytes, MaxMaterialized: l.MaxMaterializedBytes})
	if err != nil {
		f.fail()
	}
	doc, ok := v.(*jsonvalue.Object)
	if !ok {
		f.fail()
	}
	d := graphDecoder{src: part, lim: l}
	for _, m := range doc.Members {
		for _, k := range seen {
			if k == m.Key {
				f.fail()
			}
		}
		seen = append(seen, m.Key)
		if !d.aggregationSection(r, m.Key, m.Value, newPath(keyStep(m.Key))) || d.err != nil {
			f.fail()
		}
	}
	return seen
}

// rowsTable reads the rows table whose header, after "rows", is h (the
// current line), metering each row with m, and moves to the line after
// it. Rows are kept while m accepts them; at the first it refuses, the
// refusal is noted in f.refused and the rest of the table is read into
// scratch.
func (f *fastReader) rowsTable(h string, m *wire.Meter) []wire.Row {
	n, fields, leaves := f.rowHeader(h)
	f.rows(n, leaves, 1)
	// Room for the rows the meter can accept, which charges each at
	// least what it takes here; a table the input backs beyond that is
	// refused before the room runs out.
	perRow := int64(unsafe.Sizeof(wire.Row{})) + int64(len(fields))*int64(unsafe.Sizeof(wire.Cell{}))
	nodes, props := 0, 0
	for _, fd := range fields {
		if fd.node {
			nodes++
			props += len(fd.keys) - 2
		}
	}
	perRow += int64(nodes)*int64(unsafe.Sizeof(wire.Node{})) + int64(props)*int64(unsafe.Sizeof(wire.Property{}))
	keep := int(min(int64(n), m.MemoryRoom()/perRow+1))
	rows := make([]wire.Row, 0, keep)
	cells := make([]wire.Cell, 0, keep*len(fields))
	nodeBlock := make([]wire.Node, 0, keep*nodes)
	propBlock := make([]wire.Property, 0, keep*props)
	var scratch rowScratch
	refused := -1
	for i := range n {
		c := f.row(1)
		var row wire.Row
		if refused < 0 && len(rows) < cap(rows) {
			row = f.tableRow(c, fields, &cells, &nodeBlock, &propBlock)
		} else {
			scratch.cells, scratch.nodes, scratch.props = scratch.cells[:0], scratch.nodes[:0], scratch.props[:0]
			row = f.tableRow(c, fields, &scratch.cells, &scratch.nodes, &scratch.props)
		}
		if refused >= 0 {
			continue
		}
		if !m.Row(row) {
			refused = i
			rows, cells, nodeBlock, propBlock = nil, nil, nil, nil
			continue
		}
		if len(rows) == cap(rows) {
			f.fail() // not reached: the meter refuses first
		}
		rows = append(rows, row)
	}
	if refused >= 0 {
		f.refused, f.refusedLimit, f.refusedMsg = refused, m.LimitName(), m.Msg()
	}
	if f.next() && f.depth > 0 {
		f.fail()
	}
	return rows
}

// rowScratch holds the row being read once the table is refused.
type rowScratch struct {
	cells []wire.Cell
	nodes []wire.Node
	props []wire.Property
}

// tableRow reads row c of a table of fields, its cells, nodes and
// properties appended to the blocks given (whose room it never passes).
func (f *fastReader) tableRow(c string, fields []rowField, cells *[]wire.Cell, nodes *[]wire.Node, props *[]wire.Property) wire.Row {
	start := len(*cells)
	i := 0
	for _, fd := range fields {
		if !fd.node {
			if i > len(c) {
				f.fail() // fewer cells than fields
			}
			var v wire.Value
			v, i = f.cell(c, i)
			*cells = append(*cells, wire.Cell{Name: fd.name, Value: v})
			continue
		}
		*nodes = append(*nodes, wire.Node{Properties: []wire.Property{}})
		nd := &(*nodes)[len(*nodes)-1]
		pstart := len(*props)
		for j, k := range fd.keys {
			if i > len(c) {
				f.fail()
			}
			var v wire.Value
			v, i = f.cell(c, i)
			switch j {
			case fd.typ:
				if v.Kind() != wire.KindString {
					f.fail()
				}
				nd.Type = v.Text()
			case fd.id:
				if v.Kind() != wire.KindInt {
					f.fail()
				}
				nd.ID = v.Int()
			default:
				*props = append(*props, wire.Property{Key: k, Value: v})
			}
		}
		if len(*props) > pstart {
			nd.Properties = (*props)[pstart:len(*props):len(*props)]
		}
		*cells = append(*cells, wire.Cell{Name: fd.name, Node: nd})
	}
	if i <= len(c) {
		f.fail() // more cells than fields
	}
	return (*cells)[start:len(*cells):len(*cells)]
}

// rowHeader reads "[N]{a,u{type,id,k},b}:" (the key "rows" read by the
// caller): the length, the fields, and the cells a row has, checked
// against the limits as the generic decoder checks them.
func (f *fastReader) rowHeader(s string) (int, []rowField, int) {
	n, list := f.tableHeader(s)
	if n == 0 {
		f.fail()
	}
	var fields []rowField
	leaves, names := 0, 0
	for list != "" {
		name := list
		end := strings.IndexAny(list, ",{")
		if end >= 0 {
			name = list[:end]
		}
		f.name(name)
		names += len(name)
		for _, g := range fields {
			if g.name == name {
				f.fail()
			}
		}
		fd := rowField{name: name, typ: -1, id: -1}
		rest := ""
		switch {
		case end < 0:
			leaves++
		case list[end] == ',':
			leaves++
			rest = list[end+1:]
			if rest == "" {
				f.fail()
			}
		default: // a field group
			group := list[end+1:]
			gclose := strings.IndexByte(group, '}')
			if gclose < 0 {
				f.fail()
			}
			rest = group[gclose+1:]
			if rest != "" {
				if rest[0] != ',' || len(rest) == 1 {
					f.fail()
				}
				rest = rest[1:]
			}
			fd.node = true
			fd.keys = strings.Split(group[:gclose], ",")
			for j, k := range fd.keys {
				if strings.IndexByte(k, '{') >= 0 {
					f.fail()
				}
				f.name(k)
				names += len(k)
				for _, g := range fd.keys[:j] {
					if g == k {
						f.fail()
					}
				}
				switch k {
				case "type":
					fd.typ = j
				case "id":
					fd.id = j
				}
			}
			if fd.typ < 0 || fd.id < 0 || len(fd.keys)-2 > f.lim.MaxElements || len(fd.keys) > f.lim.MaxElements+layoutFields {
				f.fail()
			}
			leaves += len(fd.keys)
		}
		fields = append(fields, fd)
		list = rest
		if len(fields) > maxFastFields || leaves > maxFastFields {
			f.fail()
		}
	}
	if len(fields) == 0 || len(fields) > f.lim.MaxElements {
		f.fail()
	}
	if lim := f.lim.MaxMaterializedBytes; lim > 0 && int64(n)*int64(names) > lim {
		f.fail()
	}
	return n, fields, leaves
}
