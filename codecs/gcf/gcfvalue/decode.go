package gcfvalue

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
)

// Document is a decoded GCF document: its header and its value.
type Document struct {
	// Profile is "generic" (the only profile Decode reads a body of).
	Profile string
	// Header holds the header's fields after profile, in order
	// ("pack_root", "key", "delta", ...).
	Header []HeaderField
	// Value is the body; a header-only document's is an empty
	// *jsonvalue.Object.
	Value Value
}

// HeaderField is one key=value pair of a header line.
type HeaderField struct{ Key, Value string }

// Get returns the value of the header field key.
func (d *Document) Get(key string) (string, bool) {
	for _, f := range d.Header {
		if f.Key == key {
			return f.Value, true
		}
	}
	return "", false
}

// Unmarshal decodes a generic-profile GCF document under the default
// Options and returns its value.
func Unmarshal(data []byte) (Value, error) { return Decode(data, Options{}) }

// Decode decodes a generic-profile GCF document and returns its value.
func Decode(data []byte, opts Options) (Value, error) { return DecodeSinks(data, opts, nil) }

// DecodeDocument decodes a generic-profile GCF document: header and body
// (see the package documentation for its errors).
func DecodeDocument(data []byte, opts Options) (*Document, error) {
	doc := &Document{}
	if err := decodeDocument(data, opts, nil, doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// decodeDocument is DecodeDocument into doc, with sinks s.
func decodeDocument(data []byte, opts Options, s Sinks, doc *Document) (err error) {
	lim, err := opts.resolve()
	if err != nil {
		return err
	}
	d := getDecoder(lim)
	defer d.release()
	d.sinks = s
	defer recoverFailure(&err)
	d.budget = min(lim.maxMem, heapBudget(len(data)))
	dd := d.begin(data)
	if dd.Profile != "generic" {
		failAt(1, 1, KindUnknownProfile, "profile="+dd.Profile+" is not supported by this decoder (generic profile only)")
	}
	if k, ok := dd.Get("key"); ok {
		d.idField = k
	}
	*doc = Document{Profile: dd.Profile, Header: []HeaderField{}, Value: d.body()}
	if len(dd.Header) > 0 {
		doc.Header = append(doc.Header, dd.Header...)
	}
	return nil
}

// decoders holds decoders, and their scratch, between decodes.
var decoders = sync.Pool{New: func() any {
	d := &decoder{}
	d.path, d.itemLines, d.declBufs = d.pathBuf[:0], d.itemBuf[:0], d.declBuf0[:0]
	d.sinkCur.Cells = d.cellBuf[:0]
	for i := range d.fieldBuf {
		d.declBufs = append(d.declBufs, d.fieldBuf[i][:0])
	}
	return d
}}

// getDecoder returns a decoder, its scratch kept from an earlier decode.
func getDecoder(lim limits) *decoder {
	d := decoders.Get().(*decoder)
	d.lim = lim
	return d
}

// maxKept is the most elements of a scratch slice a pooled decoder keeps.
const maxKept = 1 << 10

// kept is s emptied and cleared, or nil when it grew past maxKept.
func kept[T any](s []T) []T {
	clear(s[:cap(s)])
	if cap(s) > maxKept {
		return nil
	}
	return s[:0]
}

// release returns d to the pool, dropping every reference into the
// document it read (the scratch keeps its room, unless it grew large).
func (d *decoder) release() {
	b := &d.buffers
	b.path, b.itemLines, b.scratch, b.lists, b.listItems = kept(b.path), kept(b.itemLines), kept(b.scratch), kept(b.lists), kept(b.listItems)
	for i := range b.declBufs {
		b.declBufs[i] = kept(b.declBufs[i])
	}
	if cap(b.declBufs) > maxKept {
		b.declBufs = nil
	}
	for i := range b.declSeen {
		b.declSeen[i] = declEntry{fields: kept(b.declSeen[i].fields)}
	}
	cells, members := kept(d.sinkCur.Cells), kept(d.rowObj.Members)
	d.state = state{}
	d.sinkCur.Cells, d.rowObj.Members = cells, members
	decoders.Put(d)
}

// begin starts reading data: its size, one copy of it, which the decoded
// strings share, its UTF-8, and its header line.
func (d *decoder) begin(data []byte) *Document {
	if int64(len(data)) > d.lim.maxInput {
		failLimitAt(1, 1, "MaxInputBytes", "an input of "+strconv.Itoa(len(data))+" bytes, longer than the limit of "+strconv.FormatInt(d.lim.maxInput, 10))
	}
	d.src = string(data)
	d.checkUTF8()
	doc := &d.doc
	d.header(doc)
	return doc
}

type decoder struct {
	state   // what one decode reads: zeroed when the decoder is released
	buffers // the scratch a pooled decoder keeps: emptied and cleared
}

type state struct {
	src string
	lim limits

	lines textwire.Lines // the body's lines, after the header line

	depth    int
	mem      int64           // the estimated memory of the value built so far
	budget   int64           // the most mem may reach
	deferred []deferredCount // the [?] sections, in document order
	idField  string          // the header's key=, "" when none

	prevBlock     int   // what the last member of the object being read was
	summaryLine   int   // the line of the summary trailer, 0 when none
	summaryCounts []int // its counts=, nil when none

	sinks      Sinks            // see DecodeSinks
	sinkHeader TableHeader      // the header given to Sinks.Table
	sinkState  tableState       // the table a sink reads
	sinkCur    Row              // the row a sink reads
	memberSc   Scalar           // the scalar given to Sinks.Scalar
	rowObj     jsonvalue.Object // a sink's row's attachments (rowObject)
	doc        Document
	headerBuf  [4]HeaderField
	declNext   int  // the entry of declSeen the next declaration read replaces
	inSink     bool // a sink's table is being read
}

type buffers struct {
	scratch   []Scalar     // the cells or items of a line, read by scalars
	path      []string     // with sinks: the keys of the values being read
	lists     []ScalarList // a sink's row's inline arrays (scalarList)
	listItems []Scalar
	itemLines []line    // see itemLine
	declBufs  [][]field // see declBuf
	declSeen  [8]declEntry
	pathBuf   [8]string
	cellBuf   [8]Scalar
	fieldBuf  [2][8]field // the first of declBufs
	itemBuf   [4]line
	declBuf0  [8][]field
}

// line is one non-blank, non-comment line of the body, as textwire.Lines
// reads it: its content (Text) after the indentation, trailing blanks
// removed.
type line = textwire.Line

// deferredCount is a [?] section: where it was and how many items it held.
type deferredCount struct {
	line, n int
}

// failIn reports an error at index i of l's content.
func (d *decoder) failIn(l *line, i int, kind Kind, msg string) {
	failAt(l.Num, l.Indent+i+1, kind, msg)
}

func (d *decoder) failLimitIn(l *line, i int, limit, msg string) {
	failLimitAt(l.Num, l.Indent+i+1, limit, msg)
}

// checkUTF8 refuses ill-formed UTF-8, naming a literal surrogate as one.
func (d *decoder) checkUTF8() {
	if utf8.ValidString(d.src) {
		return
	}
	i := textwire.InvalidUTF8(d.src)
	num, col := textwire.LineCol(d.src, i)
	if c := d.src[i:]; c[0] == 0xED && len(c) > 1 && c[1] >= 0xA0 && c[1] <= 0xBF {
		failAt(num, col, KindInvalidSurrogate, "a literal UTF-16 surrogate (U+D800 to U+DFFF) in UTF-8")
	}
	failAt(num, col, KindInvalidUTF8, "invalid UTF-8 (byte 0x"+strconv.FormatUint(uint64(d.src[i]), 16)+")")
}

// header reads the header line (spec §3).
func (d *decoder) header(doc *Document) {
	d.lines = textwire.NewLines(d.src, &bodyLines)
	off := d.lines.Offset() // a byte order mark's
	h := strings.TrimRight(d.lines.Skip(), "\r")
	if h != "GCF" && !strings.HasPrefix(h, "GCF ") {
		failAt(1, 1, KindMissingHeader, "the first line is not a GCF header (GCF profile=...): "+excerpt(h))
	}
	col := 4 + off
	fields := d.headerBuf[:0]
	var seq keyset.Seq
	key := func(i int) string { return fields[i].Key }
	for rest, more := h[3:], true; more; {
		var f string
		f, rest, more = strings.Cut(rest, " ")
		if f == "" {
			col++
			continue
		}
		eq := strings.IndexByte(f, '=')
		if eq <= 0 || !IsBareKey(f[:eq]) || eq == len(f)-1 || !isHeaderValue(f[eq+1:]) {
			failAt(1, col+1, KindMalformedHeaderField, "a header field is key=value: "+excerpt(f))
		}
		k := f[:eq]
		if seq.Add(k, key) {
			failAt(1, col+1, KindDuplicateHeaderField, "header field "+excerpt(k)+" appears twice")
		}
		fields = append(fields, HeaderField{k, f[eq+1:]})
		col += len(f) + 1
	}
	if i := seq.Repeat(key); i >= 0 {
		failAt(1, 1, KindDuplicateHeaderField, "header field "+excerpt(fields[i].Key)+" appears twice")
	}
	if len(fields) == 0 || fields[0].Key != "profile" {
		for _, f := range fields {
			if f.Key == "profile" {
				failAt(1, 5, KindMissingProfile, "profile= must be the first header field")
			}
		}
		failAt(1, 5, KindMissingProfile, "the header has no profile= field")
	}
	switch p := fields[0].Value; p {
	case "generic", "graph":
		doc.Profile = p
	default:
		failAt(1, 13, KindUnknownProfile, "unknown profile "+excerpt(p)+" (want generic or graph)")
	}
	doc.Header = fields[1:]
}

func isHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < 0x21 || v[i] > 0x7E {
			return false
		}
	}
	return true
}

// peek returns the next line without reading it, or nil at the end.
func (d *decoder) peek() *line {
	if l := d.lines.Peek(); l != nil {
		return l
	}
	if le, ok := d.lines.Err().(*textwire.LineError); ok {
		if le.Problem == textwire.ProblemTab {
			failAt(le.Line, le.Col, KindTabIndentation, "a tab in the indentation (indent with two spaces per level)")
		}
		failAt(le.Line, le.Col, KindInvalidIndent, "an indentation of "+strconv.Itoa(le.N)+" spaces (two spaces per level)")
	}
	return nil
}

// read reads the next line, or returns nil at the end.
func (d *decoder) read() *line {
	if d.peek() == nil {
		return nil
	}
	return d.lines.Read()
}

// bodyLines are the rules of the body's lines (spec §4.1, §11); comments
// are "#" alone, or "# " and the comment.
var bodyLines = textwire.LineRules{IndentUnit: 2, StrictIndent: true, TrimRight: " \t", SkipBlank: true, SkipBOM: true,
	IsComment: func(text string, _ bool) bool { return len(text) == 1 || text[1] == ' ' }}

// The estimated memory of the parts of a value.
const (
	memObject = 32
	memMember = 48 // 32, and room for the slice to grow
	memExact  = 32 // a member of an object made with its room
	memArray  = 24
	memItem   = 32 // 16, and room to grow (a doubling leaves as much garbage)
	memBox    = 16
)

// charge adds n bytes to the estimated memory, refusing the document past
// its budget.
func (d *decoder) charge(l *line, n int64) {
	d.mem += n
	if d.mem > d.budget {
		d.failLimitIn(l, 0, "MaxMaterializedBytes", "the decoded value would take more than "+strconv.FormatInt(d.budget, 10)+
			" bytes of memory (the limit for an input of "+strconv.Itoa(len(d.src))+" bytes)")
	}
}

func (d *decoder) enter(l *line) {
	d.depth++
	if d.depth > d.lim.maxDepth {
		d.failLimitIn(l, 0, "MaxDepth", "nested deeper than the limit of "+strconv.Itoa(d.lim.maxDepth))
	}
}

func (d *decoder) leave() { d.depth-- }

// body reads the document's value (spec §7.1) and its summary trailer.
func (d *decoder) body() Value {
	var v Value
	l := d.peek()
	switch {
	case l == nil:
		return &jsonvalue.Object{}
	case l.Depth != 0:
		d.failIn(l, 0, KindInvalidIndent, "the body starts indented")
	case l.Text[0] == '=':
		h := *d.read()
		v = d.scalar(&h, 1)
		d.prevBlock = blockNone
	case strings.HasPrefix(l.Text, "## ["):
		h := *d.read()
		v = d.arrayFromHeader(&h, 3, 0, nil)
	default:
		v = d.members(*l, 0)
	}
	if l := d.peek(); l != nil && strings.HasPrefix(l.Text, "##!") {
		h := *d.read()
		d.summary(&h)
	}
	if l := d.peek(); l != nil {
		d.notAMember(l, "after the document's value")
	}
	if len(d.deferred) > 0 && d.summaryCounts != nil {
		if len(d.summaryCounts) != len(d.deferred) {
			failAt(d.summaryLine, 1, KindCountMismatch, "the summary gives "+strconv.Itoa(len(d.summaryCounts))+
				" counts for "+strconv.Itoa(len(d.deferred))+" deferred [?] sections")
		}
		for i, c := range d.deferred {
			if d.summaryCounts[i] != c.n {
				failAt(c.line, 1, KindCountMismatch, "the section holds "+strconv.Itoa(c.n)+" items; the summary says "+strconv.Itoa(d.summaryCounts[i]))
			}
		}
	}
	return v
}

// notAMember reports l, a line that is no object member where one was
// expected (after an array block, one its count does not hold).
func (d *decoder) notAMember(l *line, where string) {
	switch d.prevBlock {
	case blockInline:
		d.failIn(l, 0, KindOrphanInlineAttachment, "a positional attachment body with no attachment marker left to fill: "+excerpt(l.Text))
	case blockArray:
		d.failIn(l, 0, KindCountMismatch, "more items than the array above declares: "+excerpt(l.Text))
	}
	d.failIn(l, 0, KindSyntax, "expected key=value, key[N]: values or a ## section "+where+": "+excerpt(l.Text))
}

// block kinds, for notAMember.
const (
	blockNone = iota
	blockArray
	blockInline // an array block whose rows declared inline schemas
)

// objBuilder collects the members of an object, refusing a duplicate key.
type objBuilder struct {
	o *jsonvalue.Object
	// exact: o was made, and charged, with room for its members, whose
	// keys are distinct (a table row's columns)
	exact bool
	seq   keyset.Seq
	line  int // where the object starts, for a repeat found at the end
}

func (b *objBuilder) key(i int) string { return b.o.Members[i].Key }

func (d *decoder) put(b *objBuilder, k string, v Value, l *line, i int) {
	if b.exact {
		b.o.Add(k, v)
		return
	}
	if b.o.Len() >= d.lim.maxElements {
		d.failLimitIn(l, i, "MaxElements", "an object of more members than the limit of "+strconv.Itoa(d.lim.maxElements))
	}
	if b.seq.Add(k, b.key) {
		d.failIn(l, i, KindDuplicateKey, "duplicate key "+excerpt(k))
	}
	d.charge(l, memMember)
	b.o.Add(k, v)
}

func (d *decoder) finish(b *objBuilder) *jsonvalue.Object {
	if b.exact {
		return b.o
	}
	if i := b.seq.Repeat(b.key); i >= 0 {
		failAt(b.line, 1, KindDuplicateKey, "duplicate key "+excerpt(b.o.Members[i].Key)+" in the object that starts here")
	}
	return b.o
}

// members reads the members of an object at depth (spec §7.2), which
// opens on the line open.
func (d *decoder) members(open line, depth int) *jsonvalue.Object {
	d.enter(&open)
	defer d.leave()
	n := 4 // an object's room: at depth 0 for a document's sections
	if depth == 0 {
		n = 8
	}
	b := objBuilder{o: jsonvalue.NewObject(n)}
	if l := d.peek(); l != nil {
		b.line = l.Num
		d.charge(l, memObject)
	}
	d.prevBlock = blockNone
	for {
		l := d.peek()
		if l == nil || l.Depth < depth || strings.HasPrefix(l.Text, "##!") {
			break
		}
		if l.Depth > depth {
			d.failIn(l, 0, KindInvalidIndent, "indented more than one level deeper than the line above")
		}
		c := l.Text
		if strings.HasPrefix(c, "## ") {
			cp := *d.read()
			l = &cp
			k, end := d.key(l, 3)
			rest := c[end:]
			var v Value
			d.push(k)
			switch {
			case rest == "":
				v = d.members(*l, depth+1)
				d.prevBlock = blockNone
			case strings.HasPrefix(rest, " ["):
				v = d.arrayFromHeader(l, end+1, depth, nil)
			default:
				d.failIn(l, end, KindSyntax, "expected the end of the line or [count] after the section name")
			}
			d.pop()
			d.put(&b, k, v, l, 3)
			continue
		}
		if !startsKey(c) {
			d.notAMember(l, "in an object")
		}
		cp := *d.read()
		l = &cp
		k, end := d.key(l, 0)
		switch {
		case end < len(c) && c[end] == '=':
			d.put(&b, k, d.memberScalar(l, k, end+1), l, 0)
		case end < len(c) && c[end] == '[':
			h := d.bracket(l, end)
			if !h.inline {
				d.failIn(l, end, KindSyntax, "a named array outside a ## section is inline: key[N]: values")
			}
			d.put(&b, k, d.inlineArray(l, h), l, 0)
		default:
			d.notAMember(l, "in an object")
		}
		d.prevBlock = blockNone
	}
	return d.finish(&b)
}

// startsKey reports whether a line can start with a key.
func startsKey(c string) bool { return c[0] == '"' || BareKeyEnd(c, 0) > 0 }

// key reads a key (bare or quoted, spec §2a) at index i of l's content and
// returns it and the index after it.
func (d *decoder) key(l *line, i int) (string, int) {
	c := l.Text
	if i < len(c) && c[i] == '"' {
		s, end := d.quoted(l, i)
		d.checkString(l, i, len(s))
		return s, end
	}
	j := BareKeyEnd(c, i)
	if j == i {
		d.failIn(l, i, KindSyntax, "expected a key (a bare key [A-Za-z_][A-Za-z0-9_]* or a quoted string)")
	}
	d.checkString(l, i, j-i)
	return c[i:j], j
}

func (d *decoder) checkString(l *line, i, n int) {
	if n > d.lim.maxString {
		d.failLimitIn(l, i, "MaxStringBytes", "a string of "+strconv.Itoa(n)+" bytes, longer than the limit of "+strconv.Itoa(d.lim.maxString))
	}
}
