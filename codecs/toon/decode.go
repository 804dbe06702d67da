package toon

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Unmarshal decodes one TOON document (spec v4.0) into a Value: nil, bool,
// Number, string, []Value or *Object (see Value).
//
// Bad input gives a *wire.DecodeError with the line and column of the
// problem ("toon: line 3, column 5: ..."); it never panics and never
// returns a partial value. In strict mode (the default) every error of spec
// §14 is reported; DecodeOptions.Lenient relaxes them as the spec allows.
// A leading UTF-8 byte-order mark is ignored, CRLF line endings are
// accepted, and full-line comments (# after optional spaces) are skipped.
func Unmarshal(data []byte, opts DecodeOptions) (v Value, err error) {
	return unmarshal(data, opts, limits{})
}

func unmarshal(data []byte, opts DecodeOptions, lim limits) (v Value, err error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	d := decoder{opts: o, strict: !o.Lenient, lim: lim}
	if len(data) > 0 {
		d.src = unsafe.String(&data[0], len(data))
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			v, err = nil, f.err
		}
	}()
	if !utf8.ValidString(d.src) {
		if d.strict {
			d.invalidUTF8()
		}
		d.src = strings.ToValidUTF8(d.src, "\uFFFD")
	}
	return d.document(), nil
}

// limits are the wire.Limits the GraphResponse codec applies to the
// generic layer: when set, an array declaring or holding more than
// maxElements values, a string or key longer than maxString bytes, or
// nesting past MaxDepth fails with an error naming the limit; a header's
// field group of more than maxFields names fails as it is read.
type limits struct {
	set             bool
	maxElements     int
	maxFields       int
	maxString       int
	maxMaterialized int64
}

type decoder struct {
	src    string
	opts   DecodeOptions
	strict bool

	pos     int  // offset of the next raw line
	done    bool // every raw line has been scanned
	lineNum int  // raw lines scanned so far
	peeked  bool
	hasNext bool
	next    line
	last    line       // the line most recently consumed
	blanks  []blankRun // runs of blank lines, increasing

	lim   limits
	depth int
	keys  map[string]string // interned keys
}

// line is one non-blank, non-comment line.
type line struct {
	num     int    // 1-based line number
	start   int    // offset of the line's first byte (after a BOM)
	cstart  int    // offset of content (after indentation)
	depth   int    // indentation level
	content string // the line after indentation, trailing spaces removed
}

type span struct{ start, end int } // offsets into a string

// blankRun is a run of consecutive blank lines, first to last.
type blankRun struct{ first, last int }

func (d *decoder) invalidUTF8() {
	num, start := 1, 0
	for i := 0; i < len(d.src); {
		c := d.src[i]
		if c == '\n' {
			num++
			start = i + 1
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(d.src[i:])
		if r == utf8.RuneError && size == 1 {
			d.failAt(num, i-start+1, "invalid UTF-8 (byte 0x%02x)", c)
		}
		i += size
	}
}

// peek returns the next line without consuming it, or nil at the end.
func (d *decoder) peek() *line {
	if d.peeked {
		if d.hasNext {
			return &d.next
		}
		return nil
	}
	d.peeked = true
	d.hasNext = d.scan(&d.next)
	if d.hasNext {
		return &d.next
	}
	return nil
}

// read consumes the next line; it returns nil at the end.
func (d *decoder) read() *line {
	l := d.peek()
	if l == nil {
		return nil
	}
	d.last = *l
	d.peeked = false
	return &d.last
}

// scan reads raw lines until a non-blank, non-comment one, recording blank
// lines and checking indentation (spec §5.1, §12).
func (d *decoder) scan(l *line) bool {
	src := d.src
	for !d.done {
		start := d.pos
		if d.lineNum > 0 && start < len(src) && src[start] == '\n' {
			// A run of empty lines, taken at once.
			j := start
			for j < len(src) && src[j] == '\n' {
				j++
			}
			first := d.lineNum + 1
			d.lineNum += j - start
			d.pos = j
			if n := len(d.blanks); n > 0 && d.blanks[n-1].last == first-1 {
				d.blanks[n-1].last = d.lineNum
			} else {
				d.blanks = append(d.blanks, blankRun{first, d.lineNum})
			}
			continue
		}
		end := len(src)
		if nl := strings.IndexByte(src[start:], '\n'); nl >= 0 {
			end = start + nl
			d.pos = end + 1
		} else {
			d.done = true
			d.pos = end
		}
		d.lineNum++
		if d.lineNum == 1 && strings.HasPrefix(src[start:end], "\uFEFF") {
			start += 3
		}
		if end > start && src[end-1] == '\r' {
			end--
		}
		i, firstTab, tabs := start, -1, 0
		for i < end && (src[i] == ' ' || src[i] == '\t') {
			if src[i] == '\t' {
				if firstTab < 0 {
					firstTab = i - start
				}
				tabs++
			}
			i++
		}
		indent := i - start
		tabIndent := 0
		if firstTab >= 0 {
			if d.strict {
				indent = firstTab
			} else {
				tabIndent = tabs
			}
		}
		cs, ce := start+indent, end
		for ce > cs && src[ce-1] == ' ' {
			ce--
		}
		if firstTab < 0 && ce > cs && src[cs] == '#' {
			continue // comment line
		}
		if cs == ce {
			// Consecutive blank lines make one run, so that a flood of
			// them costs no memory.
			if n := len(d.blanks); n > 0 && d.blanks[n-1].last == d.lineNum-1 {
				d.blanks[n-1].last = d.lineNum
			} else {
				d.blanks = append(d.blanks, blankRun{d.lineNum, d.lineNum})
			}
			continue
		}
		if d.strict {
			if firstTab >= 0 {
				d.failAt(d.lineNum, firstTab+1, "tab character in indentation")
			}
			if indent%d.opts.IndentSize != 0 {
				d.failAt(d.lineNum, 1, "indentation of %d spaces is not a multiple of %d", indent, d.opts.IndentSize)
			}
		}
		*l = line{
			num:     d.lineNum,
			start:   start,
			cstart:  cs,
			depth:   (indent-tabIndent)/d.opts.IndentSize + tabIndent,
			content: src[cs:ce],
		}
		return true
	}
	return false
}

func (d *decoder) enter(l *line) {
	d.depth++
	if d.depth > d.opts.MaxDepth {
		if d.lim.set {
			d.failLimit(l, l.cstart, "MaxDepth", "nesting deeper than "+strconv.Itoa(d.opts.MaxDepth)+" levels")
		}
		d.fail(l, l.cstart, "nesting deeper than %d levels", d.opts.MaxDepth)
	}
}

func (d *decoder) leave() { d.depth-- }

func (d *decoder) overIndented(l *line, want int) {
	d.fail(l, l.cstart, "line is indented deeper than its scope allows (depth %d, expected %d)", l.depth, want)
}

// noBlankLines fails, in strict mode, when a blank line lies strictly
// between lines first and last (spec §12, array spans).
func (d *decoder) noBlankLines(first, last int, what string) {
	if !d.strict || first == 0 {
		return
	}
	// d.blanks is sorted; find the first run that ends after first.
	lo, hi := 0, len(d.blanks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.blanks[m].last <= first {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(d.blanks) {
		if b := max(d.blanks[lo].first, first+1); b < last {
			d.failAt(b, 1, "blank line inside %s", what)
		}
	}
}

// document decodes the root (spec §5).
func (d *decoder) document() Value {
	first := d.peek()
	if first == nil {
		return &Object{Members: []Member{}}
	}
	if first.depth != 0 {
		d.overIndented(first, 0)
	}
	c := first.content
	if trimSpaces(c) == "[]" {
		d.read()
		d.consumed()
		return []Value{}
	}
	if strings.HasPrefix(trimSpaces(c), "[") && unquotedIndex(c, ':', 0) >= 0 {
		if h, ok := d.header(first, c, first.cstart); ok {
			l := d.read()
			v := d.arrayFromHeader(&h, 0, l)
			d.consumed()
			return v
		}
	}
	l := d.read()
	if !isKeyValue(c) {
		next := d.peek()
		if next == nil {
			return d.primitive(l, c, l.cstart)
		}
		if next.depth == 0 {
			d.fail(next, next.cstart, "a document with more than one line must be an object or array: expected key: value, found a second top-level value line")
		}
	}
	b := d.newObject(8)
	d.keyValue(l, c, l.cstart, 0, &b)
	for {
		l := d.peek()
		if l == nil {
			break
		}
		if l.depth != 0 {
			d.overIndented(l, 0)
		}
		d.read()
		d.keyValue(&d.last, d.last.content, d.last.cstart, 0, &b)
	}
	return d.finish(&b)
}

// consumed fails, in strict mode, when lines follow a complete root array
// or keyed root object.
func (d *decoder) consumed() {
	if l := d.peek(); l != nil && d.strict {
		d.fail(l, l.cstart, "unexpected content after the root value")
	}
}

// object builder: keeps the order of keys, detects duplicates (strict) or
// lets the last value win at the first position (lenient).
//
// A key is compared with those before it while the object has at most
// smallObject members; a wider object indexes its keys (nameIndex), so
// that a repeat is found as it is read, before its value is decoded, in
// time per key that does not grow with the object and in 8 to 24 bytes a
// key.
type objBuilder struct {
	o   *Object
	idx nameIndex // past smallObject members
}

const smallObject = 24

func (d *decoder) newObject(n int) objBuilder {
	return objBuilder{o: &Object{Members: make([]Member, 0, n)}}
}

func (b *objBuilder) hashOf(i int) uint64 { return b.idx.hash(b.o.Members[i].Key, 0) }

// find returns the position of the member named key, or -1.
func (b *objBuilder) find(key string) int {
	ms := b.o.Members
	if b.idx.slots != nil {
		return b.idx.find(b.idx.hash(key, 0), func(j int) bool { return ms[j].Key == key })
	}
	for i := range ms {
		if ms[i].Key == key {
			return i
		}
	}
	return -1
}

// add returns the position of the member named key, or -1 when there is
// none: then key is indexed as the next member, which the caller appends.
func (b *objBuilder) add(key string) int {
	ms := b.o.Members
	if b.idx.slots != nil {
		return b.idx.add(b.idx.hash(key, 0), len(ms), func(j int) bool { return ms[j].Key == key }, b.hashOf)
	}
	if i := b.find(key); i >= 0 {
		return i
	}
	if len(ms) >= smallObject {
		b.idx.start(2*len(ms), len(ms), b.hashOf)
		b.idx.place(b.idx.hash(key, 0), len(ms))
	}
	return -1
}

// put adds key=v, failing on a duplicate in strict mode; in lenient mode
// the last value wins at the first key's position.
func (d *decoder) put(b *objBuilder, key string, v Value, l *line, off int) {
	d.checkWidth(b, l, off)
	if i := b.add(key); i >= 0 {
		if d.strict {
			d.fail(l, off, "duplicate key %s", excerpt(key))
		}
		b.o.Members[i].Value = v
		return
	}
	b.o.Members = append(b.o.Members, Member{Key: key, Value: v})
}

// finish returns the object.
func (d *decoder) finish(b *objBuilder) *Object { return b.o }

// checkWidth refuses, under the codec's limits, a member past maxFields
// (MaxElements properties or cells and the layout's own keys), before its
// value is read.
func (d *decoder) checkWidth(b *objBuilder, l *line, off int) {
	if d.lim.set && len(b.o.Members) >= d.lim.maxFields {
		d.failLimit(l, off, "MaxElements", "an object of more than "+strconv.Itoa(d.lim.maxFields)+" members, past the limit of "+strconv.Itoa(d.lim.maxElements)+" properties or cells")
	}
}

// checkNew fails, in strict mode, when key is already present in the
// object (the duplicate check made before a value is decoded).
func (d *decoder) checkNew(b *objBuilder, key string, l *line, off int) {
	d.checkWidth(b, l, off)
	if d.strict && b.find(key) >= 0 {
		d.fail(l, off, "duplicate key %s", excerpt(key))
	}
}

// keyValue decodes one field line of an object body at baseDepth. c is the
// part of the line to parse, starting at offset coff of d.src.
func (d *decoder) keyValue(l *line, c string, coff, baseDepth int, b *objBuilder) {
	if h, ok := d.header(l, c, coff); ok {
		if h.hasKey {
			d.checkNew(b, h.key, l, coff)
			v := d.arrayFromHeader(&h, baseDepth, l)
			d.put(b, h.key, v, l, coff)
			return
		}
		if d.strict {
			if h.keyed {
				d.fail(l, coff, "a keyed header without a key is only valid at the document root")
			}
			d.fail(l, coff, "an array header without a key is only valid at the document root or as a list item")
		}
		// Lenient: read the line as key: value with a literal key.
	}
	key, end := d.keyToken(l, c, coff)
	rest, roff := trimSpacesOff(c, end)
	d.checkNew(b, key, l, coff)
	switch rest {
	case "":
		var v Value
		if next := d.peek(); next != nil && next.depth > baseDepth {
			d.noDepthJump(next, baseDepth)
			d.enter(next)
			v = d.objectFields(baseDepth + 1)
			d.leave()
		} else {
			v = &Object{Members: []Member{}}
		}
		d.put(b, key, v, l, coff)
	case "[]":
		d.put(b, key, []Value{}, l, coff)
	default:
		d.put(b, key, d.primitive(l, rest, coff+roff), l, coff)
	}
}

func (d *decoder) noDepthJump(next *line, parentDepth int) {
	if d.strict && next.depth > parentDepth+1 {
		d.fail(next, next.cstart, "indentation jumps more than one level (depth %d, expected %d)", next.depth, parentDepth+1)
	}
}

// objectFields decodes the fields of a nested object whose lines are at
// depth >= baseDepth.
func (d *decoder) objectFields(baseDepth int) *Object {
	b := d.newObject(4)
	depth := -1
	for {
		l := d.peek()
		if l == nil || l.depth < baseDepth {
			break
		}
		if depth < 0 {
			depth = l.depth
		}
		if l.depth != depth {
			d.overIndented(l, depth)
		}
		l = d.read()
		d.keyValue(l, l.content, l.cstart, depth, &b)
	}
	return d.finish(&b)
}

// scopeDepth returns the depth of the content of a scope opened at
// baseDepth.
func (d *decoder) scopeDepth(baseDepth int) int {
	first := d.peek()
	if first == nil || first.depth <= baseDepth+1 {
		return baseDepth + 1
	}
	d.noDepthJump(first, baseDepth)
	return first.depth
}

// arrayFromHeader decodes the array (or keyed object) a header opens. hl is
// the header line, already consumed.
func (d *decoder) arrayFromHeader(h *header, baseDepth int, hl *line) Value {
	if d.lim.set && h.length > d.lim.maxElements {
		d.failLimit(hl, hl.cstart, "MaxElements", "an array of "+strconv.Itoa(h.length)+" values, more than the limit of "+strconv.Itoa(d.lim.maxElements))
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
func (d *decoder) inlineArray(h *header, hl *line) Value {
	limit := -1
	if d.strict {
		limit = h.length
	}
	if d.lim.set && (limit < 0 || limit > d.lim.maxElements) {
		limit = d.lim.maxElements
	}
	n, past := countCells(h.inline, h.delim, limit)
	if d.strict && n > h.length {
		d.fail(hl, h.inlineOff+past, "inline array declares %d values but has more", h.length)
	}
	if d.lim.set && n > d.lim.maxElements {
		d.failLimit(hl, h.inlineOff+past, "MaxElements", "an inline array holding more values than the limit of "+strconv.Itoa(d.lim.maxElements))
	}
	vs := make([]Value, n)
	cs := newCells(h.inline, h.delim)
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

func (d *decoder) tabular(h *header, baseDepth int, hl line) Value {
	d.checkTable(h, &hl)
	rowDepth := d.scopeDepth(baseDepth)
	rows := make([]Value, 0, capFor(h.length))
	first, last := 0, 0
	lastLine := hl
	for !d.strict || len(rows) < h.length {
		l := d.peek()
		if l == nil || l.depth <= baseDepth {
			break
		}
		if l.depth != rowDepth {
			d.overIndented(l, rowDepth)
		}
		if !isDataRow(l.content, h.delim) {
			break
		}
		l = d.read()
		if first == 0 {
			first = l.num
		}
		last = l.num
		lastLine = *l
		rows = append(rows, d.row(h, l, l.content, l.cstart))
	}
	if d.strict {
		if len(rows) != h.length {
			d.fail(&lastLine, lastLine.cstart, "tabular array declares %d rows but has %d", h.length, len(rows))
		}
		d.noBlankLines(first, last, "a tabular array")
		if next := d.peek(); next != nil && next.depth == rowDepth && !strings.HasPrefix(next.content, "- ") && isDataRow(next.content, h.delim) {
			d.fail(next, next.cstart, "tabular array declares %d rows but has more", h.length)
		}
	}
	return rows
}

// row decodes the cells in c (at offset coff) into an object shaped by the
// header's field list. The cells are counted first, no further than one
// past the header's fields: a longer row fails at its first extra cell.
func (d *decoder) row(h *header, l *line, c string, coff int) *Object {
	n, past := countCells(c, h.delim, h.leaves)
	if n > h.leaves {
		d.fail(l, coff+past, "row has more than the %d values the header declares", h.leaves)
	}
	if n < h.leaves {
		d.fail(l, coff, "row has %d values but the header declares %d fields", n, h.leaves)
	}
	cs := newCells(c, h.delim)
	return d.rowObject(h.fields, 0, len(h.fields), &cs, l, c, coff)
}

// rowObject builds the object of the fields lo to hi of a header (the
// members of one group), taking leaf values from cs.
func (d *decoder) rowObject(fields []hfield, lo, hi int, cs *cells, l *line, c string, coff int) *Object {
	n := 0
	for i := lo; i < hi; i = int(fields[i].end) {
		n++
	}
	b := d.newObject(n)
	for i := lo; i < hi; i = int(fields[i].end) {
		f := &fields[i]
		var v Value
		if f.group(i) {
			v = d.rowObject(fields, i+1, int(f.end), cs, l, c, coff)
		} else {
			s, _ := cs.next()
			v = d.primitive(l, c[s.start:s.end], coff+s.start)
		}
		if d.strict {
			b.o.Members = append(b.o.Members, Member{Key: f.name, Value: v}) // names are distinct in strict mode
		} else {
			d.put(&b, f.name, v, l, coff)
		}
	}
	return b.o
}

func (d *decoder) keyedObject(h *header, baseDepth int, hl line) Value {
	d.checkTable(h, &hl)
	entryDepth := d.scopeDepth(baseDepth)
	b := d.newObject(capFor(h.length))
	count, first, last := 0, 0, 0
	lastLine := hl
	for {
		l := d.peek()
		if l == nil || l.depth <= baseDepth {
			break
		}
		if l.depth != entryDepth {
			d.overIndented(l, entryDepth)
		}
		if unquotedIndex(l.content, ':', 0) < 0 {
			d.fail(l, l.cstart, "expected an entry row (key: values) inside a keyed tabular object")
		}
		l = d.read()
		if first == 0 {
			first = l.num
		}
		last = l.num
		lastLine = *l
		key, end := d.keyToken(l, l.content, l.cstart)
		d.checkNew(&b, key, l, l.cstart)
		cells, off := trimSpacesOff(l.content, end)
		d.put(&b, key, d.row(h, l, cells, l.cstart+off), l, l.cstart)
		count++
	}
	if d.strict {
		if count != h.length {
			d.fail(&lastLine, lastLine.cstart, "keyed tabular object declares %d entries but has %d", h.length, count)
		}
		d.noBlankLines(first, last, "a keyed tabular object")
	}
	return d.finish(&b)
}

func isListItem(c string) bool { return c == "-" || strings.HasPrefix(c, "- ") }

func (d *decoder) list(h *header, baseDepth int, hl line) Value {
	itemDepth := d.scopeDepth(baseDepth)
	items := make([]Value, 0, capFor(h.length))
	first, last := 0, 0
	lastLine := hl
	for !d.strict || len(items) < h.length {
		l := d.peek()
		if l == nil || l.depth <= baseDepth {
			break
		}
		if l.depth != itemDepth {
			d.overIndented(l, itemDepth)
		}
		if !isListItem(l.content) {
			break
		}
		if first == 0 {
			first = l.num
		}
		items = append(items, d.listItem(itemDepth))
		last = d.last.num
		lastLine = d.last
	}
	if d.strict {
		if len(items) != h.length {
			d.fail(&lastLine, lastLine.cstart, "list array declares %d items but has %d", h.length, len(items))
		}
		d.noBlankLines(first, last, "a list array")
		if next := d.peek(); next != nil && next.depth == itemDepth && strings.HasPrefix(next.content, "- ") {
			d.fail(next, next.cstart, "list array declares %d items but has more", h.length)
		}
	}
	return items
}

// listItem decodes one "- ..." item whose hyphen is at baseDepth.
func (d *decoder) listItem(baseDepth int) Value {
	l := d.read()
	if l.content == "-" {
		return &Object{Members: []Member{}}
	}
	off := 2
	for off < len(l.content) && l.content[off] == ' ' {
		off++
	}
	after := l.content[off:]
	aoff := l.cstart + off
	if after == "" {
		return &Object{Members: []Member{}}
	}
	if after == "[]" {
		return []Value{}
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
		b := d.newObject(4)
		hl := *l
		v := d.arrayFromHeader(&h, baseDepth+1, &hl)
		d.put(&b, h.key, v, &hl, aoff)
		d.siblings(baseDepth+1, &b)
		return d.finish(&b)
	}
	if isKeyValue(after) {
		b := d.newObject(4)
		hl := *l
		d.keyValue(&hl, after, aoff, baseDepth+1, &b)
		d.siblings(baseDepth+1, &b)
		return d.finish(&b)
	}
	return d.primitive(l, after, aoff)
}

// siblings decodes the further fields of a list-item object, at depth.
func (d *decoder) siblings(depth int, b *objBuilder) {
	for {
		l := d.peek()
		if l == nil || l.depth < depth {
			return
		}
		if l.depth != depth {
			d.overIndented(l, depth)
		}
		l = d.read()
		d.keyValue(l, l.content, l.cstart, depth, b)
	}
}

// header is a parsed array or keyed header (spec §6).
type header struct {
	key       string
	hasKey    bool
	length    int
	delim     byte
	keyed     bool
	fields    []hfield // nil: no fields segment
	leaves    int
	inline    string // content after the colon, trimmed
	inlineOff int    // its offset in d.src
}

// header parses c (at offset coff of d.src) as an array header. It reports
// false when c is not a header, or — in lenient mode — a malformed one that
// is to be read as a key-value line; a malformed header in strict mode is an
// error.
func (d *decoder) header(l *line, c string, coff int) (header, bool) {
	h, reason, roff := d.parseHeader(l, c, coff)
	switch {
	case reason == "":
	case reason == notHeader:
		return h, false
	case d.strict:
		d.fail(l, coff+roff, "%s", reason)
	default:
		return h, false
	}
	return h, true
}

const notHeader = "\x00not a header"

// parseHeader follows the reference decoder's header recognition. It
// returns reason == "" for a header, notHeader for a line that is not one,
// or the reason a header-shaped line is malformed, with its offset in c.
func (d *decoder) parseHeader(l *line, c string, coff int) (h header, reason string, roff int) {
	var bracketStart int
	if strings.HasPrefix(c, `"`) {
		q := closingQuote(c, 0)
		if q < 0 || q+1 >= len(c) || c[q+1] != '[' {
			return h, notHeader, 0
		}
		bracketStart = q + 1
	} else {
		bracketStart = unquotedIndex(c, '[', 0)
	}
	if bracketStart < 0 {
		return h, notHeader, 0
	}
	if colon := unquotedIndex(c, ':', 0); colon < 0 || colon < bracketStart {
		return h, notHeader, 0
	}
	bracketEnd := unquotedIndex(c, ']', bracketStart)
	if bracketEnd < 0 {
		return h, "unterminated bracket segment in array header", bracketStart
	}
	braceStart, braceEnd := -1, bracketEnd+1
	if bs := unquotedIndex(c, '{', bracketEnd); bs >= 0 && bs < unquotedIndex(c, ':', bracketEnd) {
		if bs != bracketEnd+1 {
			return h, "unexpected content between the bracket segment and the field list", bracketEnd + 1
		}
		braceStart = bs
	}
	// The bracket segment: length, keyed marker, delimiter.
	seg := c[bracketStart+1 : bracketEnd]
	h.delim = ','
	if strings.HasSuffix(seg, "\t") {
		h.delim, seg = '\t', seg[:len(seg)-1]
	} else if strings.HasSuffix(seg, "|") {
		h.delim, seg = '|', seg[:len(seg)-1]
	}
	if strings.HasSuffix(seg, ":") {
		h.keyed, seg = true, seg[:len(seg)-1]
	}
	n, ok := parseLength(seg)
	if !ok {
		return h, "invalid array length " + excerpt(c[bracketStart:bracketEnd+1]) + " (expected a non-negative integer without leading zeros)", bracketStart
	}
	h.length = n
	if braceStart >= 0 {
		fields, end, msg, moff := d.fields(l, c, braceStart, h.delim)
		if msg != "" {
			return h, msg, moff
		}
		if bad := mismatchedDelimiter(c[braceStart+1:end-1], h.delim); bad != 0 {
			return h, "header delimiter mismatch: the bracket declares " + delimName(h.delim) + " but the field list contains an unquoted " + delimName(bad), braceStart
		}
		h.fields, braceEnd = fields, end
		h.leaves = countLeaves(fields)
	}
	colon := unquotedIndex(c, ':', max(bracketEnd, braceEnd))
	if colon < 0 {
		return h, "missing colon after array header", len(c)
	}
	if colon != max(bracketEnd+1, braceEnd) {
		return h, "unexpected content between the array header and its colon", max(bracketEnd+1, braceEnd)
	}
	if bracketStart > 0 {
		raw := c[:bracketStart]
		if last := raw[len(raw)-1]; last == ' ' || last == '\t' {
			return h, "unexpected whitespace between key and bracket segment", bracketStart - 1
		}
		h.hasKey = true
		if raw[0] == '"' {
			h.key = d.quoted(l, raw, coff)
		} else {
			h.key = d.intern(raw)
		}
	}
	h.inline, h.inlineOff = trimSpacesOff(c, colon+1)
	h.inlineOff += coff
	if h.keyed && h.fields == nil {
		return h, "a keyed header requires a field list", bracketEnd + 1
	}
	if h.fields != nil && h.inline != "" {
		return h, "unexpected content after a header with a field list", colon + 1
	}
	return h, "", 0
}

// parseLength parses a bracket length: 0 or [1-9][0-9]*. Lengths beyond
// the int range saturate (no count can reach them).
func parseLength(s string) (int, bool) {
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		if n > (math.MaxInt-9)/10 {
			n = math.MaxInt
			continue
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func mismatchedDelimiter(s string, active byte) byte {
	for _, c := range []byte{',', '\t', '|'} {
		if c != active && unquotedIndex(s, c, 0) >= 0 {
			return c
		}
	}
	return 0
}

func delimName(c byte) string {
	switch c {
	case '\t':
		return `"\t"`
	case '|':
		return `"|"`
	}
	return `","`
}

// keyToken parses the key at the start of c and returns it and the index
// just after its colon.
func (d *decoder) keyToken(l *line, c string, coff int) (string, int) {
	if strings.HasPrefix(c, `"`) {
		q := closingQuote(c, 0)
		if q < 0 {
			d.fail(l, coff, "unterminated quoted key")
		}
		key := d.unescape(l, c[1:q], coff+1)
		p := q + 1
		for p < len(c) && c[p] == ' ' {
			p++
		}
		if p >= len(c) || c[p] != ':' {
			d.fail(l, coff+p, "missing colon after key")
		}
		return key, p + 1
	}
	colon := unquotedIndex(c, ':', 0)
	if colon < 0 {
		d.fail(l, coff+len(c), "missing colon after key %s", excerpt(c))
	}
	return d.intern(trimSpaces(c[:colon])), colon + 1
}

// maxExcerpt bounds the input an error message quotes, in bytes.
const maxExcerpt = 64

// excerpt quotes at most maxExcerpt bytes of s, cut at a code point
// boundary, followed by "..." outside the quotes when s is longer.
func excerpt(s string) string {
	if len(s) <= maxExcerpt {
		return strconv.Quote(s)
	}
	n := maxExcerpt
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "..."
}

// intern returns a copy of s that does not share memory with the input,
// reusing earlier copies of short keys.
func (d *decoder) intern(s string) string {
	if len(s) > 64 {
		return strings.Clone(s)
	}
	if k, ok := d.keys[s]; ok {
		return k
	}
	k := strings.Clone(s)
	if d.keys == nil {
		d.keys = make(map[string]string)
	}
	if len(d.keys) < 4096 {
		d.keys[k] = k
	}
	return k
}

// primitive decodes a value token (spec §4); off is its offset in d.src.
func (d *decoder) primitive(l *line, tok string, off int) Value {
	t, toff := trimSpacesOff(tok, 0)
	off += toff
	if t == "" {
		return ""
	}
	switch t[0] {
	case '"':
		v := d.quoted(l, t, off)
		d.checkString(l, len(v), off)
		return boxString(v)
	case 't':
		if t == "true" {
			return true
		}
	case 'f':
		if t == "false" {
			return false
		}
	case 'n':
		if t == "null" {
			return nil
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if isNumberLiteral(t) {
			if n, ok := numberFromLiteral(t); ok {
				if i, _ := n.Int64(); n.IsInt() && i >= 0 && i < int64(len(smallInts)) {
					return smallInts[i]
				}
				return n
			}
		}
	}
	d.checkString(l, len(t), off)
	if len(t) == 1 {
		return boxString(t)
	}
	return strings.Clone(t)
}

// quoted decodes a quoted token that must end at its closing quote.
func (d *decoder) quoted(l *line, t string, off int) string {
	q := closingQuote(t, 0)
	if q < 0 {
		d.fail(l, off, "unterminated string")
	}
	if q != len(t)-1 {
		d.fail(l, off+q+1, "unexpected characters after closing quote")
	}
	return d.unescape(l, t[1:q], off+1)
}

// unescape decodes the escapes of spec §7.1 in s (at offset off).
func (d *decoder) unescape(l *line, s string, off int) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return strings.Clone(s)
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			d.fail(l, off+i, "invalid escape: backslash at end of string")
		}
		switch s[i+1] {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case '\\':
			b = append(b, '\\')
		case '"':
			b = append(b, '"')
		case 'u':
			if i+6 > len(s) {
				d.fail(l, off+i, "invalid escape: \\u needs four hex digits")
			}
			r := rune(0)
			for _, h := range []byte(s[i+2 : i+6]) {
				var v byte
				switch {
				case h >= '0' && h <= '9':
					v = h - '0'
				case h >= 'a' && h <= 'f':
					v = h - 'a' + 10
				case h >= 'A' && h <= 'F':
					v = h - 'A' + 10
				default:
					d.fail(l, off+i, "invalid escape: \\u needs four hex digits, found %q", s[i:i+6])
				}
				r = r<<4 | rune(v)
			}
			if r >= 0xD800 && r <= 0xDFFF {
				d.fail(l, off+i, "invalid escape: \\u%s is a surrogate (write supplementary characters as UTF-8)", s[i+2:i+6])
			}
			b = utf8.AppendRune(b, r)
			i += 6
			continue
		default:
			if e := s[i+1]; e >= 0x20 && e < 0x7f {
				d.fail(l, off+i, "invalid escape \\%c", rune(e))
			}
			// Quote the character: a raw control character would break
			// the one-line message, and a lone byte is not a character.
			r, _ := utf8.DecodeRuneInString(s[i+1:])
			d.fail(l, off+i, "invalid escape: backslash before %q", r)
		}
		i += 2
	}
	return string(b)
}

func trimSpan(s string, i, j int) span {
	for i < j && s[i] == ' ' {
		i++
	}
	for j > i && s[j-1] == ' ' {
		j--
	}
	return span{i, j}
}

// closingQuote returns the index of the quote closing the one at start,
// skipping backslash escapes, or -1.
func closingQuote(s string, start int) int {
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
			}
		case '"':
			return i
		}
	}
	return -1
}

// unquotedIndex returns the index of the first c at or after start that is
// outside double quotes, or -1.
func unquotedIndex(s string, c byte, start int) int {
	if start <= len(s) && strings.IndexByte(s[start:], '"') < 0 {
		// No quote ahead: the first c is the answer, found at memory
		// speed on a long line.
		if i := strings.IndexByte(s[start:], c); i >= 0 {
			return start + i
		}
		return -1
	}
	inQuotes := false
	for i := start; i < len(s); i++ {
		ch := s[i]
		if inQuotes && ch == '\\' && i+1 < len(s) {
			i++
			continue
		}
		if ch == '"' {
			inQuotes = !inQuotes
			continue
		}
		if ch == c && !inQuotes {
			return i
		}
	}
	return -1
}

func isKeyValue(c string) bool { return unquotedIndex(c, ':', 0) >= 0 }

// isDataRow tells a tabular row from a key-value line (spec §9.3).
func isDataRow(c string, delim byte) bool {
	colon := unquotedIndex(c, ':', 0)
	if colon < 0 {
		return true
	}
	dpos := unquotedIndex(c[:colon], delim, 0)
	return dpos >= 0
}

func trimSpaces(s string) string {
	t, _ := trimSpacesOff(s, 0)
	return t
}

// trimSpacesOff returns s[from:] without surrounding spaces (U+0020 only)
// and the offset in s where the result starts.
func trimSpacesOff(s string, from int) (string, int) {
	i, j := from, len(s)
	for i < j && s[i] == ' ' {
		i++
	}
	for j > i && s[j-1] == ' ' {
		j--
	}
	return s[i:j], i
}

// smallInts and oneByteStrings hold the values of the commonest short
// tokens boxed once, so that a decoded 0 or "a" costs its slot in an array
// or object and nothing more: a value never takes more than 16 bytes of
// heap per byte of its text and delimiter.
var (
	smallInts      [256]Value
	oneByteStrings [utf8.RuneSelf]Value
)

func init() {
	for i := range smallInts {
		smallInts[i] = Int(int64(i))
	}
	for i := range oneByteStrings {
		oneByteStrings[i] = string(rune(i))
	}
}

// boxString returns s as a Value, a shared one for a one-byte string; s
// must not share memory with the input unless it is one byte long.
func boxString(s string) Value {
	if len(s) == 1 && s[0] < utf8.RuneSelf {
		return oneByteStrings[s[0]]
	}
	return s
}
