package toonread

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
)

// arrayFromHeader decodes the array (or keyed object) a header opens. hl is
// the header line, already consumed.
func (d *decoder) arrayFromHeader(h *header, baseDepth int, hl *textwire.Line) jsonvalue.Value {
	if d.lim.Set && h.length > d.lim.MaxElements {
		d.failLimit(hl, hl.TextStart(), "MaxElements", "an array of "+strconv.Itoa(h.length)+" values, more than the limit of "+strconv.Itoa(d.lim.MaxElements))
	}
	d.enter(hl)
	defer d.leave()
	switch {
	case h.keyed:
		return d.keyedObject(h, baseDepth, *hl)
	case h.inline != "":
		return d.inlineArray(h, hl)
	case h.fields != nil:
		return d.tabular(h, baseDepth, *hl)
	}
	return d.list(h, baseDepth, *hl)
}

// inlineArray decodes the values after an inline header's colon. The
// values are counted before any is decoded, and the counting stops past
// what strict mode's declared length or the codec's MaxElements allow, so
// that the array's allocation is bounded by both and by the line.
func (d *decoder) inlineArray(h *header, hl *textwire.Line) jsonvalue.Value {
	limit := -1
	if d.strict {
		limit = h.length
	}
	if d.lim.Set && (limit < 0 || limit > d.lim.MaxElements) {
		limit = d.lim.MaxElements
	}
	n, past := countCells(h.inline, h.delim, limit)
	if d.strict && n > h.length {
		d.fail(hl, h.inlineOff+past, "inline array declares %d values but has more", h.length)
	}
	if d.lim.Set && n > d.lim.MaxElements {
		d.failLimit(hl, h.inlineOff+past, "MaxElements", "an inline array holding more values than the limit of "+strconv.Itoa(d.lim.MaxElements))
	}
	vs := make([]jsonvalue.Value, n)
	var cs cells
	cs.reset(h.inline, h.delim)
	for i := range vs {
		s, _ := cs.next()
		vs[i] = d.primitive(hl, h.inline[s.start:s.end], h.inlineOff+s.start)
	}
	if d.strict && len(vs) != h.length {
		d.fail(hl, h.inlineOff, "inline array declares %d values but has %d", h.length, len(vs))
	}
	return vs
}

func capFor(n int) int { return min(n, 256) }

func (d *decoder) tabular(h *header, baseDepth int, hl textwire.Line) jsonvalue.Value {
	d.checkTable(h, &hl)
	var sink TableSink
	if d.sinks != nil {
		h.room = len(d.lines.Rest())/max(h.leaves, 1) + 1
		sink = d.sinks.Table(d.path, Header{*h})
	}
	rowDepth := d.scopeDepth(baseDepth)
	var rows []jsonvalue.Value
	if sink == nil {
		rows = make([]jsonvalue.Value, 0, capFor(h.length))
	}
	x := extent{end: hl}
	r := &d.sinkRow
	*r = Row{d: d, leaves: h.leaves}
	for !d.strict || x.n < h.length {
		l := d.nextIn(baseDepth, rowDepth)
		if l == nil || !isDataRow(l.Text, h.delim) {
			break
		}
		l = d.read()
		d.element(&x, l)
		if sink == nil {
			rows = append(rows, d.row(h, l, l.Text, l.TextStart()))
			continue
		}
		r.l, r.c, r.coff, r.n = l, l.Text, l.TextStart(), 0
		r.cs.reset(l.Text, h.delim)
		if err := sink.Row(r); err != nil {
			panic(failure{err})
		}
		r.end()
	}
	d.checkExtent(&x, h.length, "tabular array", "rows")
	if next := d.peek(); d.strict && next != nil && next.Depth == rowDepth && !strings.HasPrefix(next.Text, "- ") && isDataRow(next.Text, h.delim) {
		d.fail(next, next.TextStart(), "tabular array declares %d rows but has more", h.length)
	}
	if sink != nil {
		return sink.Value()
	}
	return rows
}

// row decodes the cells in c (at offset coff) into an object shaped by the
// header's field list, reading them as a TableSink does.
func (d *decoder) row(h *header, l *textwire.Line, c string, coff int) *jsonvalue.Object {
	r := Row{d: d, leaves: h.leaves, l: l, c: c, coff: coff}
	r.cs.reset(c, h.delim)
	if h.leaves > wideRow {
		// Counted first, so that a short row costs no object of the
		// header's width.
		for range h.leaves {
			r.span()
		}
		r.end()
		r.cs.reset(c, h.delim)
		r.n = 0
	}
	o := d.rowObject(h.fields, 0, len(h.fields), &r)
	r.end()
	return o
}

// wideRow is the widest row (in leaf fields) row does not count first.
const wideRow = 64

// rowObject builds the object of the fields lo to hi of a header (the
// members of one group), taking leaf values from r.
func (d *decoder) rowObject(fields []hfield, lo, hi int, r *Row) *jsonvalue.Object {
	n := 0
	for i := lo; i < hi; i = int(fields[i].end) {
		n++
	}
	b := d.newRowObject(n)
	for i := lo; i < hi; i = int(fields[i].end) {
		f := &fields[i]
		var v jsonvalue.Value
		if f.group(i) {
			v = d.rowObject(fields, i+1, int(f.end), r)
		} else {
			v = d.box(r.Next())
		}
		if d.strict {
			b.o.Members = append(b.o.Members, jsonvalue.Member{Key: f.name, Value: v}) // names are distinct in strict mode
		} else {
			d.put(&b, f.name, v, r.l, r.coff)
		}
	}
	return b.o
}

func (d *decoder) keyedObject(h *header, baseDepth int, hl textwire.Line) jsonvalue.Value {
	d.checkTable(h, &hl)
	entryDepth := d.scopeDepth(baseDepth)
	b := d.newObject(capFor(h.length))
	x := extent{end: hl}
	for {
		l := d.nextIn(baseDepth, entryDepth)
		if l == nil {
			break
		}
		if unquotedIndex(l.Text, ':', 0) < 0 {
			d.fail(l, l.TextStart(), "expected an entry row (key: values) inside a keyed tabular object")
		}
		l = d.read()
		x.seen(l)
		x.n++
		key, end := d.keyToken(l, l.Text, l.TextStart())
		i := d.claim(&b, key, l, l.TextStart())
		cells, off := trimSpacesOff(l.Text, end)
		b.set(i, key, d.row(h, l, cells, l.TextStart()+off))
	}
	d.checkExtent(&x, h.length, "keyed tabular object", "entries")
	return b.o
}

func isListItem(c string) bool { return c == "-" || strings.HasPrefix(c, "- ") }

func (d *decoder) list(h *header, baseDepth int, hl textwire.Line) jsonvalue.Value {
	var sink ListSink
	var items []jsonvalue.Value
	if d.sinks != nil {
		h.room = len(d.lines.Rest())/2 + 1
		sink = d.sinks.List(d.path, Header{*h})
	}
	if sink == nil {
		items = make([]jsonvalue.Value, 0, capFor(h.length))
	}
	itemDepth := d.scopeDepth(baseDepth)
	x := extent{end: hl}
	for !d.strict || x.n < h.length {
		l := d.nextIn(baseDepth, itemDepth)
		if l == nil || !isListItem(l.Text) {
			break
		}
		num := l.Num
		d.element(&x, l)
		d.push("")
		if sink == nil {
			items = append(items, d.listItem(itemDepth))
		} else {
			d.reuseItem = true
			v := d.listItem(itemDepth)
			if err := sink.Item(v, num); err != nil {
				panic(failure{err})
			}
		}
		d.pop()
		x.seen(&d.lines.Line)
	}
	d.checkExtent(&x, h.length, "list array", "items")
	if next := d.peek(); d.strict && next != nil && next.Depth == itemDepth && strings.HasPrefix(next.Text, "- ") {
		d.fail(next, next.TextStart(), "list array declares %d items but has more", h.length)
	}
	if sink != nil {
		return sink.Value()
	}
	return items
}

// listItem decodes one "- ..." item whose hyphen is at baseDepth.
func (d *decoder) listItem(baseDepth int) jsonvalue.Value {
	reuse := d.reuseItem
	d.reuseItem = false
	l := d.read()
	after := strings.TrimLeft(l.Text[1:], " ")
	aoff := l.TextStart() + len(l.Text) - len(after)
	if after == "" {
		return &jsonvalue.Object{Members: []jsonvalue.Member{}}
	}
	if after == "[]" {
		return []jsonvalue.Value{}
	}
	d.enter(l)
	defer d.leave()
	h, ok := d.header(l, after, aoff)
	if ok && strings.HasPrefix(after, "[") {
		switch {
		case !h.keyed && h.fields == nil:
			return d.arrayFromHeader(&h, baseDepth, l)
		case d.strict && h.keyed:
			d.fail(l, aoff, "a keyed header without a key is only valid at the document root")
		case d.strict:
			d.fail(l, aoff, "an array header with fields but no key is only valid at the document root")
		}
	}
	if ok && h.hasKey && h.fields != nil {
		b := d.itemObject(reuse)
		hl := *l
		i := d.claim(&b, h.key, &hl, aoff)
		d.push(h.key)
		b.set(i, h.key, d.arrayFromHeader(&h, baseDepth+1, &hl))
		d.pop()
		d.siblings(baseDepth+1, &b)
		return b.o
	}
	if isKeyValue(after) {
		b := d.itemObject(reuse)
		hl := *l
		d.keyValue(&hl, after, aoff, baseDepth+1, &b)
		d.siblings(baseDepth+1, &b)
		return b.o
	}
	return d.primitive(l, after, aoff)
}

// siblings decodes the further fields of a list-item object, at depth.
func (d *decoder) siblings(depth int, b *objBuilder) {
	for d.nextIn(depth-1, depth) != nil {
		l := d.read()
		d.keyValue(l, l.Text, l.TextStart(), depth, b)
	}
}

// itemObject returns the builder of a list item's object: for the item a
// ListSink takes (reuse), the decoder's one item object, emptied;
// otherwise a new one.
func (d *decoder) itemObject(reuse bool) objBuilder {
	if !reuse {
		return d.newObject(4)
	}
	if d.item == nil {
		d.item = &jsonvalue.Object{Members: make([]jsonvalue.Member, 0, 8)}
	}
	d.item.Members = d.item.Members[:0]
	return objBuilder{o: d.item}
}

// nextIn returns the next line if it is in the scope of depth opened at
// baseDepth, failing if it is indented deeper, or nil.
func (d *decoder) nextIn(baseDepth, depth int) *textwire.Line {
	l := d.peek()
	if l == nil || l.Depth <= baseDepth {
		return nil
	}
	if l.Depth != depth {
		d.overIndented(l, depth)
	}
	return l
}

// extent is what the strict checks at an array's end need: its elements
// counted, the lines of the first and last, and the last line read.
type extent struct {
	n, first, last int
	end            textwire.Line
}

func (x *extent) seen(l *textwire.Line) {
	if x.first == 0 {
		x.first = l.Num
	}
	x.last, x.end = l.Num, *l
}

// element counts l, which starts an element, and notes it for Locate.
func (d *decoder) element(x *extent, l *textwire.Line) {
	if d.find != nil {
		d.at("", x.n, l)
	}
	x.seen(l)
	x.n++
}

// checkExtent fails, in strict mode, when x has not the n elements (unit)
// what declares, or holds a blank line.
func (d *decoder) checkExtent(x *extent, n int, what, unit string) {
	if !d.strict {
		return
	}
	if x.n != n {
		d.fail(&x.end, x.end.TextStart(), "%s declares %d %s but has %d", what, n, unit, x.n)
	}
	d.noBlankLines(x.first, x.last, what)
}
