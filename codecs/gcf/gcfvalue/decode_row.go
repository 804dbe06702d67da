package gcfvalue

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/keyset"
)

// colRef is a column as a row object sees it: a leaf, the index of its
// value cell (>= 0), or a group of flattened path columns (spec
// §7.4.6.2), the complement ^g of its index g in tableState.groups.
type colRef int

// colGroup is a group of path columns: the object a row makes of its
// leaves.
type colGroup struct {
	name string
	kids []colRef
}

// kidKey names the column name under parent, a group's index or, for a
// root column, -1.
type kidKey struct {
	parent int
	name   string
}

// tableState is what a table's rows share: its columns, and the schemas
// its rows establish for a field (spec §7.4.5).
type tableState struct {
	keyed bool
	// roots are the row object's columns, nil when the table has no
	// path column (its columns are then its cells, in order)
	roots   []colRef
	groups  []colGroup
	width   int             // value cells per row
	fields  []field         // the declared value fields
	columns map[string]bool // their names, made when first needed
	idCell  int             // the cell of the @ identity column, -1 when none
	ids     map[string]struct{}
	inline  map[string][]field     // inline object schemas by field
	shared  map[string]*sharedDecl // shared array schemas by field
	cells   []cell                 // scratch: the cells of the current row (a table with roots)
	ms      []marker               // scratch: the current row's attachment markers
	hadInl  bool
}

// cell is one classified value cell of a row; the Value of a ^{...}
// cell is its schema, an inlineSchema.
type cell struct {
	v     Value
	start int // index in the line's content
	kind  cellKind
}

// inlineSchema is the schema a ^{...} cell declares, as its cell's Value.
type inlineSchema []field

// marker is an attachment marker cell of a row waiting for its body: the
// row object's member it fills (whose key is its field).
type marker struct {
	member  int
	start   int
	inline  bool // declared with its schema (^{...}), which takes a positional body
	matched bool
}

// The estimated memory of a table's scratch, per column or marker: a
// declared field, a span, a cell, a column reference, a map entry and
// its share of the map's growth, a marker.
const (
	memField  = 24
	memSpan   = 16
	memCell   = 32
	memRef    = 8
	memEntry  = 64
	memMarker = 24
)

// isPath reports whether a declared field name is a flattened path
// column: it contains '>' and no segment is empty.
func isPath(name string) bool {
	if !strings.Contains(name, ">") {
		return false
	}
	for s := range strings.SplitSeq(name, ">") {
		if s == "" {
			return false
		}
	}
	return true
}

// columns builds the columns of a table header: every column a root of
// the row object, unless path columns group some of them.
func (d *decoder) columns(l *line, h *arrHeader, t *tableState) *tableState {
	*t = tableState{keyed: h.keyed, idCell: -1, ms: t.ms[:0]}
	fs := h.fields
	if h.keyed {
		if fs[0].id {
			d.failIn(l, h.at, KindSyntax, "the key column of a keyed table cannot be the @ identity field; mark it with key= only")
		}
		fs = fs[1:]
	}
	t.width = len(fs)
	t.fields = fs
	paths := 0
	for i, f := range fs {
		if f.id {
			t.idCell = i
			t.ids = make(map[string]struct{})
		}
		if isPath(f.name) {
			paths++
		}
	}
	if paths > 0 {
		d.tree(l, h, t, paths)
	}
	return t
}

// tree groups the path columns of t, paths of them, under their parents:
// a column is found under its parent by name in one map, whatever the
// number of its siblings.
func (d *decoder) tree(l *line, h *arrHeader, t *tableState, paths int) {
	fs := t.fields
	d.charge(l, (memRef+memCell)*int64(len(fs))+memEntry*int64(paths))
	t.roots = make([]colRef, 0, len(fs))
	t.cells = make([]cell, 0, len(fs))
	kids := make(map[kidKey]colRef, paths)
	add := func(parent int, name string, r colRef) {
		kids[kidKey{parent, name}] = r
		if parent < 0 {
			t.roots = append(t.roots, r)
		} else {
			t.groups[parent].kids = append(t.groups[parent].kids, r)
		}
	}
	collide := func(f field) {
		d.failIn(l, h.at, KindDuplicateFieldName, "field "+excerpt(f.name)+" collides with another column")
	}
	for i, f := range fs {
		if !isPath(f.name) {
			t.roots = append(t.roots, colRef(i))
			continue
		}
		parent, rest, depth := -1, f.name, d.depth+1
		for {
			seg, tail, group := strings.Cut(rest, ">")
			r, seen := kids[kidKey{parent, seg}]
			if !group {
				if seen {
					collide(f)
				}
				add(parent, seg, colRef(i))
				break
			}
			if depth++; depth > d.lim.maxDepth {
				d.failLimitIn(l, h.at, "MaxDepth", "path column "+excerpt(f.name)+" nests deeper than the limit of "+itoa(d.lim.maxDepth))
			}
			switch {
			case !seen:
				d.charge(l, memEntry)
				r = ^colRef(len(t.groups))
				t.groups = append(t.groups, colGroup{name: seg})
				add(parent, seg, r)
			case r >= 0:
				collide(f) // a leaf where the path needs a group
			}
			parent, rest = int(^r), tail
		}
	}
	// A plain column is not in kids: a root of the same name is a path's.
	for _, r := range t.roots {
		if r < 0 {
			continue
		}
		if _, clash := kids[kidKey{-1, fs[r].name}]; clash {
			d.failIn(l, h.at, KindDuplicateFieldName, "field "+excerpt(fs[r].name)+" is declared twice (as a column and a path)")
		}
	}
}

// table reads the rows of a tabular array or keyed table (spec §7.4,
// §7.2a) at depth.
func (d *decoder) table(hl *line, h *arrHeader, depth int) Value {
	if sink := d.sink(hl, h); sink != nil {
		return d.sinkTable(hl, h, depth, sink)
	}
	t := d.columns(hl, h, new(tableState))
	var rows []Value
	var km objBuilder
	if h.keyed {
		km = objBuilder{o: jsonvalue.NewObject(min(h.count, 64)), line: hl.num}
	} else {
		rows = make([]Value, 0, min(h.count, 64))
	}
	n := 0
	for ; d.more(h, n, depth); n++ {
		l := *d.read()
		d.charge(&l, memItem+memObject)
		key, obj := d.row(&l, n, t, depth)
		if h.keyed {
			if km.seq.Add(key, km.key) {
				d.failIn(&l, 0, KindDuplicateKey, "duplicate member key "+excerpt(key))
			}
			km.o.Add(key, obj)
		} else {
			rows = append(rows, obj)
		}
	}
	d.checkCount(hl, h, n)
	if t.hadInl {
		d.prevBlock = blockInline
	} else {
		d.prevBlock = blockArray
	}
	if h.keyed {
		if i := km.seq.Repeat(km.key); i >= 0 {
			failAt(hl.num, 1, KindDuplicateKey, "duplicate member key "+excerpt(km.o.Members[i].Key)+" in the keyed table")
		}
		return km.o
	}
	return rows
}

// row reads one row (l, consumed) at depth and its attachments.
func (d *decoder) row(l *line, idx int, t *tableState, depth int) (string, *jsonvalue.Object) {
	spans, hasID := d.rowCells(l, idx, t)
	var key string
	if t.keyed {
		v, kind, _ := d.token(l, spans[0].start, spans[0].end, true)
		s, ok := v.(string)
		if !ok || kind != cellValue {
			d.failIn(l, spans[0].start, KindSyntax, "a member key must be a string (quote it)")
		}
		key = s
		spans = spans[1:]
	}
	// Without path columns each cell is a member of the row object, in
	// order, made as it is read; with them, the cells are read first and
	// the groups made of them.
	b := objBuilder{o: jsonvalue.NewObject(len(spans)), line: l.num, exact: true}
	t.cells, t.ms = t.cells[:0], t.ms[:0]
	markers := 0
	id := cell{start: -1}
	for k, s := range spans {
		v, kind, decl := d.token(l, s.start, s.end, true)
		ce := cell{v: v, start: s.start, kind: kind}
		if kind == cellInline {
			d.charge(l, memBox)
			ce.v = inlineSchema(decl)
		}
		if kind == cellMarker || kind == cellInline {
			markers++
		}
		if k == t.idCell {
			id = ce
		}
		if t.roots != nil {
			t.cells = append(t.cells, ce)
		} else {
			d.member(l, t, &b, t.fields[k].name, &ce)
		}
	}
	d.rowChecks(l, idx, t, markers > 0 && !hasID, &id)
	d.charge(l, memExact*int64(len(spans)))
	for _, r := range t.roots {
		if r >= 0 {
			d.member(l, t, &b, t.fields[r].name, &t.cells[r])
		} else if v, ok := d.group(l, t, r); ok {
			d.put(&b, t.groups[^r].name, v, l, 0)
		}
	}
	d.attachments(l, t, &b, depth)
	return key, d.finish(&b)
}

// rowCells splits the row l, the idx-th of its table, into its cells,
// after its "@idx " prefix when it has one.
func (d *decoder) rowCells(l *line, idx int, t *tableState) (spans []span, hasID bool) {
	c := l.content
	i := 0
	if c[0] == '@' {
		j := 1
		for j < len(c) && isDigit(c[j]) {
			j++
		}
		if j == 1 || j >= len(c) || c[j] != ' ' {
			d.failIn(l, 0, KindInvalidItemID, "a row id is @N and a space")
		}
		if id, err := strconv.Atoi(c[1:j]); err != nil || id != idx {
			d.failIn(l, 1, KindInvalidItemID, "row @"+c[1:j]+" where @"+itoa(idx)+" is expected")
		}
		i, hasID = j+1, true
	}
	want := t.width
	if t.keyed {
		want++
	}
	if cap(d.spans) < want {
		d.charge(l, memSpan*int64(want))
		d.spans = make([]span, 0, want)
	}
	spans, n := d.split(l, i, '|', want)
	if n != want {
		d.failIn(l, i, KindRowWidthMismatch, "a row of "+itoa(n)+" cells where the header declares "+itoa(want))
	}
	return spans, hasID
}

// rowChecks refuses a row with markers and no @idx prefix (bare) and an
// identity value (id, when its start is not -1) that is not a value or
// repeats one of an earlier row.
func (d *decoder) rowChecks(l *line, idx int, t *tableState, bare bool, id *cell) {
	if bare {
		d.failIn(l, 0, KindInvalidItemID, "a row with attachment markers needs its @"+itoa(idx)+" prefix")
	}
	if id.start >= 0 {
		if id.kind != cellValue || !isScalar(id.v) || id.v == nil {
			d.failIn(l, id.start, KindSyntax, "the identity column needs a value")
		}
		k := identityKey(id.v)
		if _, dup := t.ids[k]; dup {
			d.failIn(l, id.start, KindDuplicateKey, "duplicate identity value")
		}
		d.charge(l, memEntry)
		t.ids[k] = struct{}{}
	}
}

// member adds the member of the root column name of a row, its cell ce,
// to b: nothing when absent, its value, or null for a marker, which waits
// for its attachment.
func (d *decoder) member(l *line, t *tableState, b *objBuilder, name string, ce *cell) {
	switch ce.kind {
	case cellAbsent:
		return
	case cellValue:
		d.put(b, name, ce.v, l, ce.start)
		return
	case cellInline:
		if t.inline == nil {
			t.inline = make(map[string][]field)
		}
		t.inline[name] = ce.v.(inlineSchema)
		t.hadInl = true
	}
	if len(t.ms) == cap(t.ms) {
		d.charge(l, memMarker*int64(len(t.ms)+1))
	}
	t.ms = append(t.ms, marker{member: b.o.Len(), start: ce.start, inline: ce.kind == cellInline})
	d.put(b, name, nil, l, ce.start)
}

// identityKey is a string that tells identity values apart by type and
// value.
func identityKey(v Value) string {
	switch x := v.(type) {
	case string:
		return "s" + x
	case jsonvalue.Number:
		return "n" + string(appendNumber(nil, x))
	case bool:
		return "b" + strconv.FormatBool(x)
	}
	return "z"
}

// group evaluates a column of a row under a group: a leaf's cell, or a
// group, absent when every leaf is ~, null when every leaf is -,
// otherwise the object of its present leaves (spec §7.4.6.2).
func (d *decoder) group(l *line, t *tableState, r colRef) (Value, bool) {
	if r >= 0 {
		ce := &t.cells[r]
		switch ce.kind {
		case cellAbsent:
			return nil, false
		case cellValue:
			return ce.v, true
		}
		d.failIn(l, ce.start, KindInvalidAttachment, "an attachment marker in a flattened path column")
	}
	g := &t.groups[^r]
	allAbsent, allNull := true, true
	o := jsonvalue.NewObject(len(g.kids))
	d.charge(l, memObject+memMember*int64(len(g.kids)))
	for _, k := range g.kids {
		v, ok := d.group(l, t, k)
		if !ok {
			allNull = false
			continue
		}
		allAbsent = false
		if v != nil {
			allNull = false
		}
		o.Add(t.kidName(k), v)
	}
	switch {
	case allAbsent:
		return nil, false
	case allNull:
		return nil, true
	}
	return o, true
}

// kidName is the member name of a group's column r: a group's name, or
// the last segment of a leaf's path.
func (t *tableState) kidName(r colRef) string {
	if r < 0 {
		return t.groups[^r].name
	}
	name := t.fields[r].name
	return name[strings.LastIndexByte(name, '>')+1:]
}

// attachments reads the attachment bodies of a row at depth (spec §7.4.4,
// §7.4.5.2) and fills its markers.
func (d *decoder) attachments(rl *line, t *tableState, b *objBuilder, depth int) {
	ms := t.ms
	field := func(m int) string { return b.o.Members[ms[m].member].Key }
	// The first unmatched marker that takes a positional body: the
	// cursor only moves forward, since no marker becomes eligible again.
	cursor := 0
	eligible := func() int {
		for ; cursor < len(ms); cursor++ {
			if m := &ms[cursor]; !m.matched && t.inline[field(cursor)] != nil {
				return cursor
			}
		}
		return -1
	}
	// Named bodies come in marker order in canonical text: next is where
	// the next one is looked for first; byField, made when one comes out
	// of order in a row of many markers, finds the others.
	next := 0
	var byField map[string]int
	var extra []string // the names of the row's '>' attachments
	var extraSeq keyset.Seq
	extraKey := func(i int) string { return extra[i] }
	for {
		l := d.peek()
		if l == nil || l.depth < depth {
			break
		}
		if l.depth > depth+1 {
			d.failIn(l, 0, KindInvalidIndent, "indented more than one level beneath its row")
		}
		dot := l.content[0] == '.'
		if l.depth == depth && !dot && eligible() < 0 {
			break
		}
		al := *d.read()
		if !dot {
			m := eligible()
			if m < 0 {
				d.failIn(&al, 0, KindOrphanInlineAttachment, "a positional attachment body with no attachment marker left to fill")
			}
			b.o.Members[ms[m].member].Value = d.inlineBody(&al, t.inline[field(m)])
			ms[m].matched = true
			continue
		}
		name, end := d.key(&al, 1)
		if end >= len(al.content) || al.content[end] != ' ' {
			d.failIn(&al, end, KindSyntax, "expected a space and {}, [count] or =value after the attachment name")
		}
		m := -1
		for next < len(ms) && (ms[next].matched || ms[next].inline) {
			next++
		}
		switch {
		case next < len(ms) && field(next) == name:
			m = next
		case len(ms) <= 8:
			for i := range ms {
				if field(i) == name {
					m = i
					break
				}
			}
		default:
			if byField == nil {
				d.charge(&al, memEntry*int64(len(ms)))
				byField = make(map[string]int, len(ms))
				for i := range ms {
					byField[field(i)] = i
				}
			}
			if i, ok := byField[name]; ok {
				m = i
			}
		}
		switch {
		case m >= 0 && ms[m].matched:
			d.failIn(&al, 0, KindDuplicateAttachment, "a second attachment for field "+excerpt(name))
		case m >= 0 && ms[m].inline:
			d.failIn(&al, 0, KindOrphanAttachment, "a .field attachment for a ^{...} marker, which takes a positional body")
		case m < 0 && (!strings.Contains(name, ">") || d.isColumn(t, name)):
			d.failIn(&al, 0, KindOrphanAttachment, "attachment "+excerpt(name)+" matches no ^ marker of its row")
		case m < 0:
			if extraSeq.Add(name, extraKey) {
				d.failIn(&al, 0, KindDuplicateAttachment, "a second attachment for field "+excerpt(name))
			}
		}
		v := d.attachmentValue(&al, end+1, depth, t, name, m < 0)
		if m >= 0 {
			b.o.Members[ms[m].member].Value = v
			ms[m].matched = true
		} else {
			extra = append(extra, name)
			d.charge(&al, memMember)
			d.put(b, name, v, &al, 1)
		}
	}
	if i := extraSeq.Repeat(extraKey); i >= 0 {
		d.failIn(rl, 0, KindDuplicateAttachment, "two attachments for field "+excerpt(extra[i])+" in this row")
	}
	for i := range ms {
		if !ms[i].matched {
			d.failIn(rl, ms[i].start, KindMissingAttachment, "attachment marker of field "+excerpt(field(i))+" has no body")
		}
	}
}

func (d *decoder) isColumn(t *tableState, name string) bool {
	if t.columns == nil {
		t.columns = make(map[string]bool, len(t.fields))
		for _, f := range t.fields {
			t.columns[f.name] = true
		}
	}
	return t.columns[name]
}

// attachmentValue reads the value of a .field attachment from index i of
// l's content; its body sits two levels beneath the row at depth.
func (d *decoder) attachmentValue(l *line, i, depth int, t *tableState, name string, bare bool) Value {
	if !d.inSink {
		d.push(pathKey(name))
		defer d.pop()
	}
	c := l.content
	switch {
	case c[i:] == "{}":
		d.enter(l)
		v := d.members(depth + 2)
		d.leave()
		return v
	case i < len(c) && c[i] == '[':
		if t.shared == nil {
			t.shared = make(map[string]*sharedDecl)
		}
		sh := t.shared[name]
		if sh == nil {
			sh = &sharedDecl{}
			t.shared[name] = sh
		}
		return d.arrayFromHeader(l, i, depth+2, sh)
	case i < len(c) && c[i] == '=' && bare:
		v, _, _ := d.token(l, i+1, len(c), false)
		return v
	}
	d.failIn(l, i, KindSyntax, "expected {}, [count] or (for a field whose name has '>') =value")
	return nil
}

// inlineBody reads a positional inline object body (spec §7.4.5.1).
func (d *decoder) inlineBody(l *line, schema []field) *jsonvalue.Object {
	spans, n := d.split(l, 0, '|', len(schema))
	if n != len(schema) {
		d.failIn(l, 0, KindInlineWidthMismatch, "a positional body of "+itoa(n)+" values for an inline schema of "+itoa(len(schema)))
	}
	o := jsonvalue.NewObject(len(schema))
	d.charge(l, memObject+memMember*int64(len(schema)))
	for i, s := range spans {
		v, _, _ := d.token(l, s.start, s.end, false)
		o.Add(schema[i].name, v)
	}
	return o
}
