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

// colGroup is a group of path columns, a member of the row object.
type colGroup struct {
	name string
	kids []colRef
}

// kidKey names a column under parent, a group's index (-1 for a root).
type kidKey struct {
	parent int
	name   string
}

// tableState is what a table's rows share (spec §7.4.5).
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
	ms      []marker               // scratch: the current row's attachment markers
	hadInl  bool
}

// marker is an attachment marker cell of a row waiting for its body: the
// row object's member it fills (whose key is its field).
type marker struct {
	member  int
	start   int
	inline  bool // declared with its schema (^{...}), which takes a positional body
	matched bool
}

// The estimated memory of a table's scratch, per column or marker.
const (
	memField  = 24
	memRef    = 8
	memEntry  = 64
	memMarker = 24
)

// isPath reports whether a declared field is a flattened path column:
// its name contains '>' and no segment is empty.
func isPath(f field) bool {
	n := f.name
	return f.gt && n[0] != '>' && n[len(n)-1] != '>' && !strings.Contains(n, ">>")
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
		if isPath(f) {
			paths++
		}
	}
	if paths > 0 {
		d.tree(l, h, t, paths)
	}
	return t
}

// tree groups the path columns of t, paths of them, under their parents,
// found by name in one map.
func (d *decoder) tree(l *line, h *arrHeader, t *tableState, paths int) {
	fs := t.fields
	d.charge(l, memRef*int64(len(fs))+memEntry*int64(paths))
	t.roots = make([]colRef, 0, len(fs))
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
		if !isPath(f) {
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
// §7.2a) at depth: into its sink, when the Sinks choose one.
func (d *decoder) table(hl *line, h *arrHeader, depth int) Value {
	sink, t := d.sink(hl, h), new(tableState)
	var rows []Value
	km := objBuilder{line: hl.Num}
	if sink != nil {
		d.inSink, t = true, &d.sinkState // until its rows are read (a failure ends the decode)
	} else if h.keyed {
		km.o = jsonvalue.NewObject(min(h.count, 64))
	} else {
		rows = make([]Value, 0, min(h.count, 64))
	}
	t = d.columns(hl, h, t)
	r := &d.sinkCur
	r.d = d
	n := 0
	for ; d.more(h, n, depth); n++ {
		if sink != nil {
			d.sinkRow(d.read(), r, n, t, depth)
			if err := sink.Row(r); err != nil {
				panic(failure{err})
			}
			continue
		}
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
	d.inSink = false
	d.checkCount(hl, h, n)
	d.prevBlock = blockArray
	if t.hadInl {
		d.prevBlock = blockInline
	}
	switch {
	case sink != nil:
		return sink.Value()
	case h.keyed:
		if i := km.seq.Repeat(km.key); i >= 0 {
			failAt(hl.Num, 1, KindDuplicateKey, "duplicate member key "+excerpt(km.o.Members[i].Key)+" in the keyed table")
		}
		return km.o
	}
	return rows
}

// row reads the row l and its attachments: its key (a keyed table's) and
// its object.
func (d *decoder) row(l *line, idx int, t *tableState, depth int) (string, *jsonvalue.Object) {
	// Without path columns each cell is a member of the row object, in
	// order, made as it is read; with them, the cells are read first and
	// the groups made of them.
	b := objBuilder{o: jsonvalue.NewObject(t.width), line: l.Num, exact: true}
	d.charge(l, memExact*int64(t.width))
	d.scratch = d.rowMembers(l, idx, t, d.scratch[:0], &b, true)
	cells, key := d.scratch, ""
	if t.keyed {
		key, cells = cells[0].Str, cells[1:]
	}
	for _, r := range t.roots {
		if r >= 0 {
			d.member(l, t, &b, t.fields[r].name, &cells[r])
		} else if v, ok := d.group(l, t, cells, r); ok {
			d.put(&b, t.groups[^r].name, v, l, 0)
		}
	}
	d.attachments(l, t, &b, depth)
	return key, d.finish(&b)
}

// rowMembers reads the cells of the row l, the idx-th of its table, into
// out (the key cell of a keyed table first) and adds to b, made when
// needed, the members they make: with all, every cell (unless path
// columns group them), otherwise only the markers, which wait for their
// attachments. It returns out.
func (d *decoder) rowMembers(l *line, idx int, t *tableState, out []Scalar, b *objBuilder, all bool) []Scalar {
	i := d.itemID(l, idx)
	if i < 0 {
		d.failIn(l, 0, KindInvalidItemID, "a row id is @N and a space")
	}
	hasID := i > 0
	want := t.width
	if t.keyed {
		want++
	}
	if cap(out) < want {
		d.charge(l, memScalar*int64(want))
		out = make([]Scalar, 0, want)
	}
	out, n := d.scalars(l, i, '|', true, out, want, nil)
	if n != want {
		d.failIn(l, i, KindRowWidthMismatch, "a row of "+itoa(n)+" cells where the header declares "+itoa(want))
	}
	cells := out
	if t.keyed {
		if out[0].Kind != String {
			d.failIn(l, out[0].at, KindSyntax, "a member key must be a string (quote it)")
		}
		cells = out[1:]
	}
	t.ms = t.ms[:0]
	marked := false
	for k := range cells {
		sc := &cells[k]
		if sc.Kind == Marker {
			marked = true
			if t.roots != nil && isPath(t.fields[k]) {
				d.failIn(l, sc.at, KindInvalidAttachment, "an attachment marker in a flattened path column")
			}
		}
		if all && t.roots != nil || !all && sc.Kind != Marker {
			continue
		}
		if b.o == nil {
			*b = objBuilder{o: d.rowObject(), line: l.Num}
		}
		d.member(l, t, b, t.fields[k].name, sc)
	}
	if marked && !hasID {
		d.failIn(l, 0, KindInvalidItemID, "a row with attachment markers needs its @"+itoa(idx)+" prefix")
	}
	if t.idCell >= 0 {
		sc := &cells[t.idCell]
		if sc.Kind == Null || sc.Kind > String {
			d.failIn(l, sc.at, KindSyntax, "the identity column needs a value")
		}
		key := identityKey(d.box(l, sc))
		if _, dup := t.ids[key]; dup {
			d.failIn(l, sc.at, KindDuplicateKey, "duplicate identity value")
		}
		d.charge(l, memEntry)
		t.ids[key] = struct{}{}
	}
	return out
}

// itemID reads the "@idx " prefix of l, the idx-th row or item, and
// returns the index after it: 0 when l has none, -1 when it is malformed.
func (d *decoder) itemID(l *line, idx int) int {
	c := l.Text
	if c[0] != '@' {
		return 0
	}
	j := 1
	for j < len(c) && isDigit(c[j]) {
		j++
	}
	if j == 1 || j >= len(c) || c[j] != ' ' {
		return -1
	}
	if id, err := strconv.Atoi(c[1:j]); err != nil || id != idx {
		d.failIn(l, 1, KindInvalidItemID, "@"+c[1:j]+" where @"+itoa(idx)+" is expected")
	}
	return j + 1
}

// member adds to b the member name of a row, its cell sc: none when
// absent, or null for a marker, which waits for its attachment.
func (d *decoder) member(l *line, t *tableState, b *objBuilder, name string, sc *Scalar) {
	switch {
	case sc.Kind == Absent:
		return
	case sc.Kind != Marker:
		d.put(b, name, d.box(l, sc), l, sc.at)
		return
	case sc.decl != nil:
		if t.inline == nil {
			t.inline = make(map[string][]field)
		}
		d.charge(l, memBox)
		t.inline[name] = sc.decl
		t.hadInl = true
	}
	if len(t.ms) == cap(t.ms) {
		d.charge(l, memMarker*int64(len(t.ms)+1))
	}
	t.ms = append(t.ms, marker{member: b.o.Len(), start: sc.at, inline: sc.decl != nil})
	d.put(b, name, nil, l, sc.at)
}

// identityKey tells identity values apart by type and value.
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
func (d *decoder) group(l *line, t *tableState, cells []Scalar, r colRef) (Value, bool) {
	if r >= 0 {
		return d.box(l, &cells[r]), cells[r].Kind != Absent
	}
	g := &t.groups[^r]
	allAbsent, allNull := true, true
	o := jsonvalue.NewObject(len(g.kids))
	d.charge(l, memObject+memMember*int64(len(g.kids)))
	for _, k := range g.kids {
		v, ok := d.group(l, t, cells, k)
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

// kidName is the member name of a group's column r.
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
	// of order, finds the others.
	next := 0
	var byField map[string]int
	var extra []string // the names of the row's '>' attachments
	var extraSeq keyset.Seq
	extraKey := func(i int) string { return extra[i] }
	for {
		l := d.peek()
		if l == nil || l.Depth < depth {
			break
		}
		if l.Depth > depth+1 {
			d.failIn(l, 0, KindInvalidIndent, "indented more than one level beneath its row")
		}
		dot := l.Text[0] == '.'
		if l.Depth == depth && !dot && eligible() < 0 {
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
		if end >= len(al.Text) || al.Text[end] != ' ' {
			d.failIn(&al, end, KindSyntax, "expected a space and {}, [count] or =value after the attachment name")
		}
		m := -1
		for next < len(ms) && (ms[next].matched || ms[next].inline) {
			next++
		}
		if next < len(ms) && field(next) == name {
			m = next
		} else if len(ms) > 0 {
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
// l's content, of the row at depth.
func (d *decoder) attachmentValue(l *line, i, depth int, t *tableState, name string, bare bool) Value {
	if !d.inSink {
		d.push("." + name)
		defer d.pop()
	}
	c := l.Text
	switch {
	case c[i:] == "{}":
		v := d.members(*l, depth+2)
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
		return d.scalar(l, i+1)
	}
	d.failIn(l, i, KindSyntax, "expected {}, [count] or (for a field whose name has '>') =value")
	return nil
}

// inlineBody reads a positional inline object body (spec §7.4.5.1).
func (d *decoder) inlineBody(l *line, schema []field) *jsonvalue.Object {
	cells, n := d.scalars(l, 0, '|', false, d.scratch[:0], len(schema), nil)
	d.scratch = cells
	if n != len(schema) {
		d.failIn(l, 0, KindInlineWidthMismatch, "a positional body of "+itoa(n)+" values for an inline schema of "+itoa(len(schema)))
	}
	o := jsonvalue.NewObject(len(schema))
	d.charge(l, memObject+memMember*int64(len(schema)))
	for i := range cells {
		o.Add(schema[i].name, d.box(l, &cells[i]))
	}
	return o
}
