package gcfvalue

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/keyset"
)

// colNode is a column of a table as a row object sees it: a leaf (one
// cell) or a group of flattened path columns (spec §7.4.6.2).
type colNode struct {
	name string
	cell int // the leaf's cell index among the value cells; -1 for a group
	kids []*colNode
}

// tableState is what a table's rows share: its columns, and the schemas
// its rows establish for a field (spec §7.4.5).
type tableState struct {
	keyed   bool
	roots   []*colNode
	width   int             // value cells per row
	fields  []field         // the declared value fields
	columns map[string]bool // their names, made when first needed
	idCell  int             // the cell of the @ identity column, -1 when none
	ids     map[string]struct{}
	inline  map[string][]field     // inline object schemas by field
	shared  map[string]*sharedDecl // shared array schemas by field
	cells   []cell                 // scratch: the cells of the current row
	hadInl  bool
}

// cell is one classified value cell of a row.
type cell struct {
	v     Value
	kind  cellKind
	decl  []field
	start int // index in the line's content
}

// marker is an attachment marker cell of a row waiting for its body.
type marker struct {
	field   string
	member  int     // index of its member in the row object
	schema  []field // the inline schema declared in the cell (^{...})
	matched bool
	start   int
}

// isPath reports whether a declared field name is a flattened path
// column: it contains '>' and no segment is empty.
func isPath(name string) bool {
	if !strings.Contains(name, ">") {
		return false
	}
	for _, s := range strings.Split(name, ">") {
		if s == "" {
			return false
		}
	}
	return true
}

// columns builds the column tree of a table header.
func (d *decoder) columns(l *line, h *arrHeader) *tableState {
	t := &tableState{keyed: h.keyed, idCell: -1}
	fs := h.fields
	if h.keyed {
		if fs[0].id {
			d.failIn(l, h.at, KindSyntax, "the key column of a keyed table cannot be the @ identity field; mark it with key= only")
		}
		fs = fs[1:]
	}
	t.width = len(fs)
	t.fields = fs
	// Names are unique (decl checked), so only path columns can collide
	// with another column: the map of root names is built for them alone.
	var rootOf map[string]*colNode
	for _, f := range fs {
		if isPath(f.name) {
			rootOf = make(map[string]*colNode)
			break
		}
	}
	for i, f := range fs {
		if f.id {
			t.idCell = i
			t.ids = make(map[string]struct{})
		}
		if !isPath(f.name) {
			n := &colNode{name: f.name, cell: i}
			if rootOf != nil {
				if rootOf[f.name] != nil {
					d.failIn(l, h.at, KindDuplicateFieldName, "field "+excerpt(f.name)+" is declared twice (as a column and a path)")
				}
				rootOf[f.name] = n
			}
			t.roots = append(t.roots, n)
			continue
		}
		segs := strings.Split(f.name, ">")
		n := rootOf[segs[0]]
		if n == nil {
			n = &colNode{name: segs[0], cell: -1}
			rootOf[segs[0]] = n
			t.roots = append(t.roots, n)
		}
		for _, s := range segs[1:] {
			if n.cell >= 0 {
				break // a leaf where the path needs a group: refused below
			}
			var next *colNode
			for _, k := range n.kids {
				if k.name == s {
					next = k
				}
			}
			if next == nil {
				next = &colNode{name: s, cell: -1}
				n.kids = append(n.kids, next)
			}
			n = next
		}
		if n.cell >= 0 || len(n.kids) > 0 {
			d.failIn(l, h.at, KindDuplicateFieldName, "field "+excerpt(f.name)+" collides with another column")
		}
		n.cell = i
	}
	return t
}

// table reads the rows of a tabular array or keyed table (spec §7.4,
// §7.2a) at depth.
func (d *decoder) table(hl *line, h *arrHeader, depth int) Value {
	t := d.columns(hl, h)
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
	c := l.content
	i, hasID := 0, false
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
	spans := d.split(l, i, '|')
	want := t.width
	if t.keyed {
		want++
	}
	if len(spans) != want {
		d.failIn(l, i, KindRowWidthMismatch, "a row of "+itoa(len(spans))+" cells where the header declares "+itoa(want))
	}
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
	t.cells = t.cells[:0]
	markers := 0
	for _, s := range spans {
		v, kind, decl := d.token(l, s.start, s.end, true)
		t.cells = append(t.cells, cell{v: v, kind: kind, decl: decl, start: s.start})
		if kind == cellMarker || kind == cellInline {
			markers++
		}
	}
	if markers > 0 && !hasID {
		d.failIn(l, 0, KindInvalidItemID, "a row with attachment markers needs its @"+itoa(idx)+" prefix")
	}
	if t.idCell >= 0 {
		ic := t.cells[t.idCell]
		if ic.kind != cellValue || !isScalar(ic.v) || ic.v == nil {
			d.failIn(l, ic.start, KindSyntax, "the identity column needs a value")
		}
		k := identityKey(ic.v)
		if _, dup := t.ids[k]; dup {
			d.failIn(l, ic.start, KindDuplicateKey, "duplicate identity value")
		}
		t.ids[k] = struct{}{}
	}
	b := objBuilder{o: jsonvalue.NewObject(len(t.roots)), line: l.num, exact: true}
	d.charge(l, memExact*int64(len(t.roots)))
	var ms []marker
	for _, n := range t.roots {
		if n.cell >= 0 {
			ce := &t.cells[n.cell]
			switch ce.kind {
			case cellAbsent:
			case cellValue:
				d.put(&b, n.name, ce.v, l, ce.start)
			default:
				if ce.kind == cellInline {
					if t.inline == nil {
						t.inline = make(map[string][]field)
					}
					t.inline[n.name] = ce.decl
					t.hadInl = true
				}
				ms = append(ms, marker{field: n.name, member: b.o.Len(), schema: ce.decl, start: ce.start})
				d.put(&b, n.name, nil, l, ce.start)
			}
			continue
		}
		if v, ok := d.group(l, t, n); ok {
			d.put(&b, n.name, v, l, 0)
		}
	}
	d.attachments(l, t, &b, ms, depth)
	return key, d.finish(&b)
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

// group evaluates a group of path columns for the current row: absent
// when every leaf is ~, null when every leaf is -, otherwise the object of
// its present leaves (spec §7.4.6.2).
func (d *decoder) group(l *line, t *tableState, n *colNode) (Value, bool) {
	if n.cell >= 0 {
		ce := &t.cells[n.cell]
		switch ce.kind {
		case cellAbsent:
			return nil, false
		case cellValue:
			return ce.v, true
		}
		d.failIn(l, ce.start, KindInvalidAttachment, "an attachment marker in a flattened path column")
	}
	allAbsent, allNull := true, true
	o := jsonvalue.NewObject(len(n.kids))
	d.charge(l, memObject+memMember*int64(len(n.kids)))
	for _, k := range n.kids {
		v, ok := d.group(l, t, k)
		if !ok {
			allNull = false
			continue
		}
		allAbsent = false
		if v != nil {
			allNull = false
		}
		o.Add(k.name, v)
	}
	switch {
	case allAbsent:
		return nil, false
	case allNull:
		return nil, true
	}
	return o, true
}

// attachments reads the attachment bodies of a row at depth (spec §7.4.4,
// §7.4.5.2) and fills its markers.
func (d *decoder) attachments(rl *line, t *tableState, b *objBuilder, ms []marker, depth int) {
	// The first unmatched marker that takes a positional body: the
	// cursor only moves forward, since no marker becomes eligible again.
	cursor := 0
	eligible := func() int {
		for ; cursor < len(ms); cursor++ {
			if m := &ms[cursor]; !m.matched && (m.schema != nil || t.inline[m.field] != nil) {
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
			schema := ms[m].schema
			if schema == nil {
				schema = t.inline[ms[m].field]
			}
			b.o.Members[ms[m].member].Value = d.inlineBody(&al, schema)
			ms[m].matched = true
			continue
		}
		name, end := d.key(&al, 1)
		if end >= len(al.content) || al.content[end] != ' ' {
			d.failIn(&al, end, KindSyntax, "expected a space and {}, [count] or =value after the attachment name")
		}
		m := -1
		for next < len(ms) && (ms[next].matched || ms[next].schema != nil) {
			next++
		}
		switch {
		case next < len(ms) && ms[next].field == name:
			m = next
		case len(ms) <= 8:
			for i := range ms {
				if ms[i].field == name {
					m = i
					break
				}
			}
		default:
			if byField == nil {
				byField = make(map[string]int, len(ms))
				for i := range ms {
					byField[ms[i].field] = i
				}
			}
			if i, ok := byField[name]; ok {
				m = i
			}
		}
		switch {
		case m >= 0 && ms[m].matched:
			d.failIn(&al, 0, KindDuplicateAttachment, "a second attachment for field "+excerpt(name))
		case m >= 0 && ms[m].schema != nil:
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
			d.failIn(rl, ms[i].start, KindMissingAttachment, "attachment marker of field "+excerpt(ms[i].field)+" has no body")
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
	spans := d.split(l, 0, '|')
	if len(spans) != len(schema) {
		d.failIn(l, 0, KindInlineWidthMismatch, "a positional body of "+itoa(len(spans))+" values for an inline schema of "+itoa(len(schema)))
	}
	o := jsonvalue.NewObject(len(schema))
	d.charge(l, memObject+memMember*int64(len(schema)))
	for i, s := range spans {
		v, _, _ := d.token(l, s.start, s.end, false)
		o.Add(schema[i].name, v)
	}
	return o
}
