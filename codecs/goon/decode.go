package goon

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/wire"
)

// Decode parses GOON text into a response under the default wire.Limits.
// It reads everything Encode writes, so that re-encoding the result
// reproduces the text byte for byte, and rejects anything else with a
// *wire.DecodeError naming the line. See the package documentation for what
// comes back (GOON is lossy) and for the limits.
func Decode(data []byte) (*wire.GraphResponse, error) { return std.Decode(data) }

// Decode parses GOON text into a response under the codec's limits; see
// the package-level Decode.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	if int64(len(data)) > c.limits.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: Name, Offset: c.limits.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	data = bytes.TrimPrefix(data, bom)
	p := parser{src: string(data), lim: c.limits, meter: wire.NewMeter(c.limits, len(data))}
	r, err := p.parse()
	if err != nil {
		return nil, err
	}
	return r, nil
}

// bom is the UTF-8 byte order mark, which Decode skips at the start of the
// input.
var bom = []byte("\xef\xbb\xbf")

// fillRune stands in, in a restored truncated value, for the control
// characters that quoting dropped from the kept prefix (see the package
// documentation): quoting drops it again, so the value re-encodes to the
// same text.
const fillRune = '\x1a'

// padByte pads a restored truncated value to its declared length.
const padByte = '.'

type parser struct {
	src      string
	pos      int    // offset of the next line
	line     int    // number of the current line
	cur      string // the current line, without its newline
	lines    int    // lines in src
	lim      wire.Limits
	meter    *wire.Meter // the response's materialised size
	restored int64       // bytes restoring truncated values added that the meter has not counted

	r      *wire.GraphResponse
	header [numFields]headerField
	// cursorText is next_cursor's value, unquoted.
	cursorText string
	cols       []rowCol
	colIndex   map[string]int // by name, once there are many columns

	pairs     []pair
	text      textArena
	props     arena[wire.Property]
	cells     arena[wire.Cell]
	nodeLines []int // line of each node row
	refs      []cellRef
	lastNode  map[nodeKey]int // index of the last node row of each key, once rows reference nodes
}

type pair struct {
	key    string
	text   string // the value: a bare token, or the unescaped inside of the quotes
	quoted bool
	crumb  bool // a key_len breadcrumb that belongs to the pair before it
}

type cellRef struct {
	row, cell int
	key       nodeKey
	line      int
}

// arena hands out slices carved from shared blocks, so that decoding makes
// a few large allocations rather than one per node or row.
type arena[T any] struct{ buf []T }

func (a *arena[T]) take(n int) []T {
	if n == 0 {
		return nil
	}
	if cap(a.buf)-len(a.buf) < n {
		size := min(max(2*cap(a.buf), 64), 4096)
		a.buf = make([]T, 0, max(size, n))
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	return a.buf[l : l+n : l+n]
}

// textArena holds the text of unescaped values in shared blocks. A value
// is appended once and never written again, so the strings handed out
// (unsafe.String over a block) stay immutable.
type textArena struct{ buf []byte }

// take returns an empty slice with room for n bytes; the caller appends
// at most n.
func (a *textArena) take(n int) []byte {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(min(2*cap(a.buf), 1<<20), 4096, n))
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	return a.buf[l : l : l+n]
}

type headerField struct {
	set   bool
	line  int
	value string
}

const (
	fQueryType = iota
	fVersion
	fNodes
	fEdges
	fHasMore
	fTotalRows
	fTruncated
	fNextCursor
	fRows
	fGroupBy
	fAggregations
	numFields
)

var fieldNames = [numFields]string{"query_type", "goon_version", "nodes", "edges", "has_more", "total_rows", "truncated", "next_cursor", "rows", "group_by", "aggregations"}

func (p *parser) errf(msg string) error { return lineError(p.line, msg) }

// next reads the next line into p.cur; it reports false at the end of the
// input.
func (p *parser) next() bool {
	if p.pos >= len(p.src) {
		return false
	}
	i := strings.IndexByte(p.src[p.pos:], '\n')
	p.cur = p.src[p.pos : p.pos+i] // the input ends with '\n' (checked)
	p.pos += i + 1
	if len(p.cur) > 0 && p.cur[len(p.cur)-1] == '\r' { // a CRLF line end
		p.cur = p.cur[:len(p.cur)-1]
	}
	p.line++
	return true
}

func (p *parser) parse() (*wire.GraphResponse, error) {
	if len(p.src) == 0 {
		return nil, lineError(1, "empty input, expected @header")
	}
	p.lines = strings.Count(p.src, "\n")
	if p.src[len(p.src)-1] != '\n' {
		return nil, lineError(p.lines+1, "the last line does not end with a newline")
	}
	if !utf8.ValidString(p.src) {
		for i := 0; i < len(p.src); {
			r, size := utf8.DecodeRuneInString(p.src[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, lineError(strings.Count(p.src[:i], "\n")+1, "invalid UTF-8")
			}
			i += size
		}
	}
	p.r = &wire.GraphResponse{}
	p.next()
	if p.cur != "@header" {
		return nil, p.errf("expected @header, found " + excerpt(p.cur))
	}
	if err := p.parseHeader(); err != nil {
		return nil, err
	}
	// p.cur is the first section marker after the header.
	qt := p.r.QueryType
	if err := p.expectSection("@nodes"); err != nil {
		return nil, err
	}
	if err := p.parseNodes(); err != nil {
		return nil, err
	}
	if qt == wire.PathFinding {
		if err := p.expectSection("@paths"); err != nil {
			return nil, err
		}
		if err := p.parsePaths(); err != nil {
			return nil, err
		}
	} else {
		if err := p.expectSection("@edges"); err != nil {
			return nil, err
		}
		if err := p.parseEdges(); err != nil {
			return nil, err
		}
	}
	rowsField := p.header[fRows]
	if p.cur == "" { // end of input
		if rowsField.set {
			return nil, lineError(rowsField.line, "rows:"+clip(rowsField.value)+" but there is no @rows section")
		}
		return p.finish()
	}
	if p.cur != "@rows" {
		return nil, p.sectionError("@rows or the end of the input")
	}
	if qt == wire.Aggregation && !rowsField.set {
		return nil, p.errf("@rows in an aggregation whose header has no rows: field")
	}
	if err := p.parseRows(); err != nil {
		return nil, err
	}
	if p.cur != "" {
		return nil, p.sectionError("end of input")
	}
	return p.finish()
}

func (p *parser) finish() (*wire.GraphResponse, error) {
	r := p.r
	if r.QueryType == wire.Aggregation {
		if err := p.resolveLifted(); err != nil {
			return nil, err
		}
		for i := range r.Nodes {
			if !p.meter.Node(&r.Nodes[i]) {
				return nil, p.tooBig(p.nodeLines[i])
			}
		}
	}
	for i := range r.Columns {
		if !p.meter.Column(&r.Columns[i]) {
			return nil, p.tooBig(p.header[fAggregations].line)
		}
	}
	for i := range r.GroupColumns {
		if !p.meter.GroupColumn(&r.GroupColumns[i]) {
			return nil, p.tooBig(p.header[fGroupBy].line)
		}
	}
	if !p.meter.Finish(r) {
		return nil, p.tooBig(p.line)
	}
	return r, nil
}

// meterRow counts a row as it is read, so that a million references to a
// large lifted node stop at the row that passes the limit. A node cell,
// not yet resolved, counts as the node its reference names: the last node
// row of that type and id, where the lifted nodes are (resolveLifted
// fails on any other). Each use counts in full; the meter charges a use of
// a node it has seen in constant time.
func (p *parser) meterRow(row wire.Row, refs []cellRef) bool {
	for j := range row {
		c := &row[j]
		if len(refs) > 0 && refs[0].cell == j {
			if n := p.liftedNode(refs[0].key); n != nil {
				c = &wire.Cell{Name: c.Name, Node: n}
			}
			refs = refs[1:]
		}
		if !p.meter.Cell(c) {
			return false
		}
	}
	return p.meter.EndRow(len(row))
}

// liftedNode returns the last node row of key k, or nil.
func (p *parser) liftedNode(k nodeKey) *wire.Node {
	if p.lastNode == nil {
		p.lastNode = make(map[nodeKey]int, len(p.r.Nodes))
		for i := range p.r.Nodes {
			p.lastNode[nodeKey{p.r.Nodes[i].Type, p.r.Nodes[i].ID}] = i
		}
	}
	if i, ok := p.lastNode[k]; ok {
		return &p.r.Nodes[i]
	}
	return nil
}

// tooBig is the error for a response whose materialised size passes the
// meter's limit at line: MaxMaterializedBytes, or MaxExpansion times the
// input.
func (p *parser) tooBig(line int) error {
	return &wire.DecodeError{Codec: Name, Line: line, Msg: p.meter.Msg(), Limit: p.meter.LimitName()}
}

// maxExcerpt bounds the input an error message quotes, in bytes.
const maxExcerpt = 64

// excerpt quotes at most maxExcerpt bytes of s (cut at a code point
// boundary), followed by "..." outside the quotes when s is longer.
func excerpt(s string) string {
	if len(s) <= maxExcerpt {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cutAt(s, maxExcerpt)]) + "..."
}

// clip returns a name from the input for an error message: s itself, or
// its first maxExcerpt bytes and "...".
func clip(s string) string {
	if len(s) <= maxExcerpt {
		return s
	}
	return s[:cutAt(s, maxExcerpt)] + "..."
}

// cutAt returns the largest offset not above n that starts a code point
// of s (len(s) > n).
func cutAt(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

var sections = map[string]bool{"@header": true, "@nodes": true, "@edges": true, "@paths": true, "@rows": true}

func (p *parser) sectionError(want string) error {
	if !sections[p.cur] {
		return p.errf("unknown section " + excerpt(p.cur) + ", expected " + want)
	}
	return p.errf("section " + p.cur + " out of order, expected " + want)
}

// expectSection checks that the current line is the marker want.
func (p *parser) expectSection(want string) error {
	if p.cur == want {
		return nil
	}
	if p.cur == "" && p.pos >= len(p.src) {
		return p.errf("input ends, expected " + want)
	}
	if want == "@paths" && p.cur == "@edges" {
		return p.errf("@edges in a path_finding response, expected @paths")
	}
	if want == "@edges" && p.cur == "@paths" {
		return p.errf("@paths is only for path_finding, expected @edges")
	}
	return p.sectionError(want)
}

// body reads the next line of the current section. It reports false at
// the end of the section, leaving the next marker in p.cur ("" at the end
// of the input).
func (p *parser) body() (bool, error) {
	if !p.next() {
		p.cur = ""
		return false, nil
	}
	if p.cur == "" {
		return false, p.errf("blank line")
	}
	if p.cur[0] == '@' {
		return false, nil
	}
	return true, nil
}

func (p *parser) parseHeader() error {
	last := -1
	for {
		ok, err := p.body()
		if err != nil {
			return err
		}
		if !ok {
			if p.cur == "" {
				return p.errf("input ends, expected @nodes")
			}
			break
		}
		colon := strings.IndexByte(p.cur, ':')
		if colon < 0 {
			return p.errf("expected a header field key:value, found " + excerpt(p.cur))
		}
		key, val := p.cur[:colon], p.cur[colon+1:]
		f := -1
		for i, n := range fieldNames {
			if n == key {
				f = i
				break
			}
		}
		switch {
		case f < 0:
			return p.errf("unknown header field " + excerpt(key))
		case p.header[f].set:
			return p.errf("duplicate header field " + clip(key))
		case f < last:
			return p.errf("header field " + clip(key) + " out of order (after " + fieldNames[last] + ")")
		}
		last = f
		p.header[f] = headerField{set: true, line: p.line, value: val}
		if err := p.headerValue(f, val); err != nil {
			return err
		}
	}
	for _, f := range [...]int{fQueryType, fVersion, fNodes, fEdges} {
		if !p.header[f].set {
			return p.errf("header has no " + fieldNames[f] + " field")
		}
	}
	if err := p.pagination(); err != nil {
		return err
	}
	if p.r.QueryType != wire.Aggregation {
		for _, f := range [...]int{fRows, fGroupBy, fAggregations} {
			if h := p.header[f]; h.set {
				return lineError(h.line, fieldNames[f]+" in a "+string(p.r.QueryType)+" response (only aggregation has it)")
			}
		}
	}
	return nil
}

func (p *parser) headerValue(f int, val string) error {
	switch f {
	case fQueryType:
		q := wire.QueryType(val)
		if !q.Valid() {
			return p.errf("unknown query_type " + excerpt(val))
		}
		p.r.QueryType = q
	case fVersion:
		if !supportedVersion(val) {
			return p.errf("unsupported goon_version " + excerpt(val) + " (this decoder reads " + minMajor + ".x.y to " + maxMajor + ".x.y)")
		}
	case fNodes, fEdges, fRows:
		n, ok := parseInt(val)
		if !ok || n < 0 {
			return p.errf("expected a count after " + fieldNames[f] + ":, found " + excerpt(val))
		}
		if n > int64(p.lim.MaxElements) {
			return p.checkElements(p.lim.MaxElements+1, fieldNames[f])
		}
	case fHasMore:
		if val != "true" {
			return p.errf("expected has_more:true, found " + excerpt(val))
		}
	case fTotalRows:
		if _, ok := parseInt(val); !ok {
			return p.errf("expected an integer after total_rows:, found " + excerpt(val))
		}
	case fTruncated:
		if val != "true" {
			return p.errf("expected truncated:true, found " + excerpt(val))
		}
	case fNextCursor:
		return p.cursor(val)
	case fGroupBy:
		return p.groupBy(val)
	case fAggregations:
		return p.aggregations(val)
	}
	return nil
}

// cursor reads the value of next_cursor: a bare token as it is, or a
// quoted one unescaped. Quoted text the encoder would have written bare
// had control characters that quoting dropped; it gains one fillRune, which
// quoting drops again, so that it re-encodes to the same text. The cursor
// is a string like any other: longer than MaxStringBytes (measured as
// written, unescaped, before a fillRune) it is refused; the meter counts
// it with the pagination (wire.Meter.Finish).
func (p *parser) cursor(val string) error {
	p.cursorText = val
	if val == "" {
		return p.errf("expected a token after next_cursor:")
	}
	if val[0] != '"' {
		for i := 0; i < len(val); i++ {
			if !bareByte[val[i]] {
				return p.errf("unexpected " + quoteByte(val[i]) + " in the bare next_cursor (such tokens are quoted)")
			}
		}
		return p.checkString(len(val), "next_cursor")
	}
	t, n, err := p.unquote(val)
	if err != nil {
		return err
	}
	if n != len(val) {
		return p.errf("unexpected " + quoteByte(val[n]) + " after the quoted next_cursor")
	}
	if err := p.checkString(len(t), "next_cursor"); err != nil {
		return err
	}
	if cursorBare(t) {
		t += string(fillRune)
	}
	p.cursorText = t
	return nil
}

// pagination builds the response's pagination from the header fields read:
// total_rows makes it schema v2's, truncated or next_cursor (or has_more
// alone) schema v5's, none of them no pagination. A header with total_rows
// and a v5 field is refused at the later line, as canonical JSON refuses
// the mix.
func (p *parser) pagination() error {
	hm, tr, tt, nc := p.header[fHasMore], p.header[fTotalRows], p.header[fTruncated], p.header[fNextCursor]
	switch {
	case tr.set && tt.set:
		return lineError(tt.line, "truncated (schema v5) in a header with total_rows (schema v2)")
	case tr.set && nc.set:
		return lineError(nc.line, "next_cursor (schema v5) in a header with total_rows (schema v2)")
	case tr.set:
		n, _ := parseInt(tr.value)
		p.r.Pagination = &wire.Pagination{HasMore: hm.set, TotalRows: wire.SomeInt(n)}
	case hm.set || tt.set || nc.set:
		pg := &wire.Pagination{HasMore: hm.set, Truncated: wire.SomeBool(tt.set)}
		if nc.set {
			pg.NextCursor = wire.SomeString(p.cursorText)
		}
		p.r.Pagination = pg
	}
	return nil
}

// The goon_version majors Decode reads, and so the ones Options.Version
// may name.
const (
	minMajor = "1"
	maxMajor = "4"
)

// supportedVersion reports whether v is a goon_version Decode reads:
// MAJOR.MINOR.PATCH, each a decimal without leading zeros, the major from
// minMajor to maxMajor.
func supportedVersion(v string) bool {
	if len(v) > 3*19+2 { // three int64 decimals: no split of a long value
		return false
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 || len(parts[0]) != 1 || parts[0] < minMajor || parts[0] > maxMajor {
		return false
	}
	for _, s := range parts[1:] {
		if n, ok := parseInt(s); !ok || n < 0 {
			return false
		}
	}
	return true
}

// descriptor splits name(inner).
func descriptor(s string) (name, inner string, ok bool) {
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return "", "", false
	}
	return s[:open], s[open+1 : len(s)-1], isName(s[:open])
}

func (p *parser) groupBy(val string) error {
	// Cut one descriptor at a time rather than split the line: a line of
	// commas would otherwise cost sixteen bytes a byte before its first
	// error.
	for rest, more := val, true; more; {
		var d string
		d, rest, more = strings.Cut(rest, ",")
		name, inner, ok := descriptor(d)
		if !ok {
			return p.errf("expected a group descriptor name(node[:Entity]) or name(property[:property]), found " + excerpt(d))
		}
		kind, detail, hasDetail := strings.Cut(inner, ":")
		if hasDetail && !isName(detail) {
			return p.errf("bad group descriptor " + excerpt(d))
		}
		g := wire.GroupColumn{Name: name}
		switch kind {
		case "node":
			g.Kind = wire.GroupByNode
			if hasDetail {
				g.Entity = wire.SomeString(detail)
			}
		case "property":
			g.Kind = wire.GroupByProperty
			g.Property = wire.SomeString(name)
			if hasDetail {
				g.Property = wire.SomeString(detail)
			}
		default:
			return p.errf("unknown group kind " + excerpt(kind) + " in " + excerpt(d))
		}
		if err := p.addColumn(name, g.Kind == wire.GroupByNode); err != nil {
			return err
		}
		p.r.GroupColumns = append(p.r.GroupColumns, g)
	}
	return nil
}

func (p *parser) aggregations(val string) error {
	for rest, more := val, true; more; {
		var d string
		d, rest, more = strings.Cut(rest, ",")
		name, inner, ok := descriptor(d)
		if !ok {
			return p.errf("expected an aggregation descriptor name(function[:target[.property]]), found " + excerpt(d))
		}
		c := wire.Column{Name: name}
		fn, rest, hasTarget := strings.Cut(inner, ":")
		c.Function = fn
		bad := !isName(fn)
		if hasTarget {
			target, prop, hasProp := strings.Cut(rest, ".")
			c.Target = wire.SomeString(target)
			bad = bad || !isName(target)
			if hasProp {
				c.Property = wire.SomeString(prop)
				bad = bad || !isName(prop)
			}
		}
		if bad {
			return p.errf("bad aggregation descriptor " + excerpt(d))
		}
		if err := p.addColumn(name, false); err != nil {
			return err
		}
		p.r.Columns = append(p.r.Columns, c)
	}
	return nil
}

func (p *parser) addColumn(name string, nodeKind bool) error {
	if err := p.checkElements(len(p.cols)+1, "columns"); err != nil {
		return err
	}
	if err := p.checkString(len(name), "column name"); err != nil {
		return err
	}
	if p.column(name) >= 0 {
		return p.errf("column name " + clip(name) + " repeats")
	}
	p.cols = append(p.cols, rowCol{name: name, nodeKind: nodeKind})
	if p.colIndex != nil {
		p.colIndex[name] = len(p.cols) - 1
	} else if len(p.cols) > 16 {
		p.colIndex = make(map[string]int, 2*len(p.cols))
		for i, c := range p.cols {
			p.colIndex[c.name] = i
		}
	}
	return nil
}

// column returns the index of the column named name, or -1.
func (p *parser) column(name string) int {
	if p.colIndex != nil {
		if i, ok := p.colIndex[name]; ok {
			return i
		}
		return -1
	}
	for i, c := range p.cols {
		if c.name == name {
			return i
		}
	}
	return -1
}

// declared returns the capacity to reserve for the count a header field
// declares, of elements of elemSize bytes, and the count as far as the
// rest of the input can hold it, at minLine bytes a line. The reserve is
// no more than maxReservePerByte bytes for each byte left, so that no
// allocation is sized by the input's word alone and a count the lines do
// not back reserves a few times the input at most; lines past it grow the
// slice (see room) up to the count.
func (p *parser) declared(f int, minLine, elemSize int) (reserve, full int) {
	n, _ := parseInt(p.header[f].value)
	rest := int64(len(p.src) - p.pos)
	full = int(min(n, rest/int64(minLine)))
	return min(full, int(rest*maxReservePerByte/int64(elemSize))), full
}

// room returns s with room for one more element. Below full, a full s
// doubles, but not past full: the lines that back a declared count grow
// the slice in a few steps and no further than the count.
func room[T any](s []T, full int) []T {
	if len(s) < cap(s) || len(s) >= full {
		return s
	}
	return slices.Grow(s, min(max(2*cap(s), 64), full)-len(s))
}

// maxReservePerByte bounds what a declared count reserves, in bytes for
// each byte of input left.
const maxReservePerByte = 4

// Shortest lines of each section, newline included: a node row "0", an
// edge "A:0 --> B:0", a path's further edge " --R--> B:0", a row "a=0".
const (
	minNodeLine = 2
	minEdgeLine = 12
	minPathEdge = 11
	minRowLine  = 4
)

// limitErr is a positioned error for the Limits field limit.
func (p *parser) limitErr(limit, msg string) error {
	return &wire.DecodeError{Codec: Name, Line: p.line, Msg: msg, Limit: limit}
}

// checkString refuses a string (a value, key or name) longer than the
// MaxStringBytes limit.
func (p *parser) checkString(n int, what string) error {
	if n > p.lim.MaxStringBytes {
		return p.limitErr("MaxStringBytes", what+" of "+strconv.Itoa(n)+" bytes is longer than the limit of "+strconv.Itoa(p.lim.MaxStringBytes))
	}
	return nil
}

// checkElements refuses a sequence of more than MaxElements items.
func (p *parser) checkElements(n int, what string) error {
	if n > p.lim.MaxElements {
		return p.limitErr("MaxElements", "more than "+strconv.Itoa(p.lim.MaxElements)+" "+what+" (the limit)")
	}
	return nil
}

// group parses a group header Name(n): and returns the name and count.
func (p *parser) group(what string) (string, int, bool) {
	open := strings.IndexByte(p.cur, '(')
	if open < 0 || !strings.HasSuffix(p.cur, "):") {
		return "", 0, false
	}
	name := p.cur[:open]
	n, ok := parseInt(p.cur[open+1 : len(p.cur)-2])
	if !isName(name) || !ok || n < 1 {
		return "", 0, false
	}
	return name, int(min(n, math.MaxInt32)), true
}

func isGroupLine(s string) bool { return strings.HasSuffix(s, "):") }

func (p *parser) parseNodes() error {
	reserve, full := p.declared(fNodes, minNodeLine, int(unsafe.Sizeof(wire.Node{})))
	nodes := make([]wire.Node, 0, reserve)
	typ, declared, left := "", 0, 0
	for {
		ok, err := p.body()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if isGroupLine(p.cur) {
			if left > 0 {
				return p.groupEnds(typ, declared, left, "rows")
			}
			name, n, ok := p.group("node")
			if !ok {
				return p.errf("expected a node group Type(count):, found " + excerpt(p.cur))
			}
			if err := p.checkString(len(name), "type name"); err != nil {
				return err
			}
			typ, declared, left = name, n, n
			continue
		}
		if left == 0 {
			if typ == "" {
				return p.errf("a node row before its Type(n): group")
			}
			return p.errf("more rows than group " + clip(typ) + " declares")
		}
		left--
		n, err := p.nodeRow(typ)
		if err != nil {
			return err
		}
		nodes = append(room(nodes, full), n)
		if p.r.QueryType == wire.Aggregation {
			// Metered in finish, once the nodes lifted from rows are
			// told apart.
			p.nodeLines = append(p.nodeLines, p.line)
		} else if !p.meter.Node(&nodes[len(nodes)-1]) {
			return p.tooBig(p.line)
		} else {
			p.restored = 0 // counted with the node
		}
	}
	if left > 0 {
		return p.groupEnds(typ, declared, left, "rows")
	}
	if h := p.header[fNodes]; strconv.Itoa(len(nodes)) != h.value {
		return lineError(h.line, "nodes:"+clip(h.value)+" but @nodes has "+strconv.Itoa(len(nodes))+" rows")
	}
	p.r.Nodes = nodes
	return nil
}

func (p *parser) groupEnds(typ string, declared, left int, what string) error {
	return p.errf("group " + clip(typ) + "(" + strconv.Itoa(declared) + "): ends after " + strconv.Itoa(declared-left) + " " + what)
}

// nodeRow parses "id key=value ..." into a node of type typ.
func (p *parser) nodeRow(typ string) (wire.Node, error) {
	line := p.cur
	sp := strings.IndexByte(line, ' ')
	if sp < 0 {
		sp = len(line)
	}
	id, ok := parseInt(line[:sp])
	if !ok {
		return wire.Node{}, p.errf("bad id " + excerpt(line[:sp]) + ", expected a decimal int64")
	}
	// A property may bring a breadcrumb: twice the properties' limit
	// bounds the pairs.
	if err := p.parsePairs(line[sp:], true, 2*p.lim.MaxElements); err != nil {
		return wire.Node{}, err
	}
	pairs := p.pairs
	n := 0
	for i := 0; i < len(pairs); i++ {
		if i+1 < len(pairs) && isBreadcrumbKey(pairs[i+1].key, pairs[i].key) {
			if _, ok := p.breadcrumb(pairs[i], pairs[i+1]); ok {
				i++
				pairs[i].crumb = true
			}
		}
		n++
	}
	if err := p.checkElements(n, "properties"); err != nil {
		return wire.Node{}, err
	}
	// Checked before the properties are built, so that a line of repeated
	// keys costs no more than its pairs.
	if err := p.checkDuplicateKeys(pairs); err != nil {
		return wire.Node{}, err
	}
	for _, pr := range pairs {
		if priority(pr.key) == classReserved {
			return wire.Node{}, p.errf("property named " + clip(pr.key) + " (reserved for the node itself)")
		}
	}
	props := p.props.take(n)
	n = 0
	for i := 0; i < len(pairs); i++ {
		pr := pairs[i]
		var v wire.Value
		if i+1 < len(pairs) && isBreadcrumbKey(pairs[i+1].key, pr.key) {
			if total, ok := p.breadcrumb(pr, pairs[i+1]); ok {
				s, err := p.restore(pr.key, pr.text, total)
				if err != nil {
					return wire.Node{}, err
				}
				props[n] = wire.Property{Key: pr.key, Value: wire.String(s)}
				n++
				i++
				continue
			}
		}
		if pr.quoted {
			v = wire.String(quotedString(pr.text, false))
		} else {
			v = bareValue(pr.text)
			if v.IsNull() {
				return wire.Node{}, p.errf("null in a node row (a node row omits null; bare null appears only in @rows)")
			}
		}
		props[n] = wire.Property{Key: pr.key, Value: v}
		n++
	}
	return wire.Node{Type: typ, ID: id, Properties: props}, nil
}

// checkDuplicateKeys rejects a node row with two properties of one key (a
// key_len breadcrumb, marked crumb, is not a property: it may share its
// key with one, so it is compared under a key no name can have).
func (p *parser) checkDuplicateKeys(pairs []pair) error {
	i := keyset.FirstRepeat(len(pairs), func(i int) string {
		if pairs[i].crumb {
			return "=" + pairs[i].key
		}
		return pairs[i].key
	})
	if i >= 0 {
		return p.errf("duplicate key " + clip(pairs[i].key))
	}
	return nil
}

func isBreadcrumbKey(k, key string) bool {
	return len(k) == len(key)+4 && strings.HasPrefix(k, key) && strings.HasSuffix(k, "_len")
}

// breadcrumb reports whether v followed by crumb is a truncated value and
// its breadcrumb, and the declared length: v is a string of at most the
// key's limit in code points (exactly the limit when bare, since only
// quoting drops characters) ending in "...", and crumb is an integer
// greater than the limit.
func (p *parser) breadcrumb(v, crumb pair) (int64, bool) {
	if crumb.quoted || !strings.HasSuffix(v.text, "...") {
		return 0, false
	}
	if !v.quoted && bareValue(v.text).Kind() != wire.KindString {
		return 0, false
	}
	total, ok := parseInt(crumb.text)
	limit := limitFor(v.key)
	if !ok || total <= int64(limit) {
		return 0, false
	}
	l := utf8.RuneCountInString(v.text)
	if l > limit || (!v.quoted && l != limit) {
		return 0, false
	}
	return total, true
}

// restore rebuilds a truncated value so that it re-encodes to the same
// text and breadcrumb: the kept prefix, one fillRune for each code point
// quoting dropped from it, "...", then padByte up to total code points.
func (p *parser) restore(key, text string, total int64) (string, error) {
	l := int64(utf8.RuneCountInString(text))
	limit := int64(limitFor(key))
	grow := total - l
	if max := int64(p.lim.MaxStringBytes); grow > max || int64(len(text))+grow > max {
		return "", p.limitErr("MaxStringBytes", clip(key)+"_len="+strconv.FormatInt(total, 10)+
			" restores a value longer than the limit of "+strconv.Itoa(p.lim.MaxStringBytes)+" bytes")
	}
	// The restored bytes are part of the materialised size, which the
	// meter counts with the node once it is built: asking the meter
	// first, with the bytes restored since it last counted, refuses past
	// MaxExpansion times the input (or MaxMaterializedBytes) before
	// allocating, so a few short lines cannot make megabytes.
	if !p.meter.Fits(p.restored + grow) {
		return "", p.tooBig(p.line)
	}
	p.restored += grow
	var b strings.Builder
	b.Grow(len(text) + int(grow))
	b.WriteString(text[:len(text)-3])
	for i := l; i < limit; i++ {
		b.WriteByte(fillRune)
	}
	b.WriteString("...")
	for i := limit; i < total; i++ {
		b.WriteByte(padByte)
	}
	return b.String(), nil
}

// parsePairs parses "key=value key=value ..." into p.pairs; when spaced
// is set, every pair, the first included, follows a space.
func (p *parser) parsePairs(s string, spaced bool, maxPairs int) error {
	// Every pair has an '=' and takes at least four bytes (" k=v"), so
	// both bound the pairs: reserving that much at once spares a wide line
	// the copies of a growing slice, and an '=' inside quoted values
	// cannot reserve more than the line can hold.
	if n := min(strings.Count(s, "="), len(s)/4+1, maxPairs); n > cap(p.pairs) {
		p.pairs = make([]pair, 0, n)
	}
	p.pairs = p.pairs[:0]
	for i := 0; i < len(s); {
		if spaced || i > 0 {
			if s[i] != ' ' {
				return p.errf("expected a space before the next key=value, found " + quoteByte(s[i]))
			}
			i++
		}
		k := i
		for i < len(s) && nameByte[s[i]] {
			i++
		}
		if i == k {
			if i < len(s) {
				return p.errf("expected a key, found " + quoteByte(s[i]))
			}
			return p.errf("expected a key at the end of the line")
		}
		if i == len(s) || s[i] != '=' {
			return p.errf("expected '=' after key " + clip(s[k:i]))
		}
		pr := pair{key: s[k:i]}
		i++
		if i < len(s) && s[i] == '"' {
			text, n, err := p.unquote(s[i:])
			if err != nil {
				return err
			}
			pr.text, pr.quoted = text, true
			i += n
			if i < len(s) && s[i] != ' ' {
				return p.errf("expected a space after the quoted value of " + clip(pr.key) + ", found " + quoteByte(s[i]))
			}
		} else {
			v := i
			for i < len(s) && s[i] != ' ' {
				if !bareByte[s[i]] {
					return p.errf("unexpected " + quoteByte(s[i]) + " in the bare value of " + clip(pr.key) + " (such values are quoted)")
				}
				i++
			}
			if i == v {
				return p.errf("expected a value after " + clip(pr.key) + "=")
			}
			pr.text = s[v:i]
		}
		if err := p.checkString(len(pr.key), "key"); err != nil {
			return err
		}
		// A bare number may be longer than the string limit; it is no
		// string.
		if len(pr.text) > p.lim.MaxStringBytes && (pr.quoted || bareValue(pr.text).Kind() == wire.KindString) {
			return p.checkString(len(pr.text), "value of "+clip(pr.key))
		}
		if len(p.pairs) == maxPairs {
			return p.limitErr("MaxElements", "more than "+strconv.Itoa(maxPairs)+" key=value pairs on one line (the limit)")
		}
		p.pairs = append(p.pairs, pr)
	}
	return nil
}

func quoteByte(c byte) string {
	if c < utf8.RuneSelf {
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// unquote reads a quoted value at the start of s and returns its text and
// the bytes it took. It looks at each byte of the value at most twice and
// allocates only for a value with escapes, the value's own length.
func (p *parser) unquote(s string) (string, int, error) {
	end, escaped := 1, false
	for ; end < len(s); end++ {
		c := s[end]
		if c == '"' {
			break
		}
		if c == '\\' {
			escaped = true
			end++ // the escaped byte, checked below
			continue
		}
		if c < 0x20 || c == 0x7f {
			return "", 0, p.errf("control character " + quoteByte(c) + " in a quoted value")
		}
	}
	if end >= len(s) {
		return "", 0, p.errf("unterminated quoted value")
	}
	if !escaped {
		return s[1:end], end + 1, nil
	}
	b := p.text.take(end - 1)
	for i := 1; i < end; i++ {
		c := s[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		switch s[i] {
		case '\\':
			b = append(b, '\\')
		case '"':
			b = append(b, '"')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		default:
			return "", 0, p.errf("invalid escape \\" + string(rune(s[i])) + " (GOON escapes are \\\\ \\\" \\n \\r \\t)")
		}
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), end + 1, nil
}

// bareValue reads a bare token back as the value that writes it: true,
// false, null; an int when formatting the int gives the token; a finite
// float when formatting the float (shortest, no exponent) gives the token;
// otherwise a string.
func bareValue(tok string) wire.Value {
	switch tok {
	case "true":
		return wire.Bool(true)
	case "false":
		return wire.Bool(false)
	case "null":
		return wire.Null()
	}
	if i, ok := parseInt(tok); ok {
		return wire.Int(i)
	}
	numeric := len(tok) > 0
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; (c < '0' || c > '9') && c != '-' && c != '.' {
			numeric = false
			break
		}
	}
	if numeric {
		if f, err := strconv.ParseFloat(tok, 64); err == nil && !math.IsInf(f, 0) {
			var buf [64]byte
			if string(strconv.AppendFloat(buf[:0], f, 'f', -1, 64)) == tok {
				return wire.Float(f)
			}
		}
	}
	return wire.String(tok)
}

// parseInt parses a canonical decimal int64: an optional '-', no leading
// zeros, no "-0", no '+'.
func parseInt(s string) (int64, bool) {
	neg := false
	d := s
	if len(d) > 0 && d[0] == '-' {
		neg, d = true, d[1:]
	}
	if len(d) == 0 || len(d) > 19 || (d[0] == '0' && (len(d) > 1 || neg)) {
		return 0, false
	}
	var u uint64
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// endpoint parses Type:id at the start of s and returns the bytes taken;
// the id ends at a space or at the end of s.
func (p *parser) endpoint(s, what string) (string, int64, int, error) {
	colon := strings.IndexByte(s, ':')
	if colon < 0 || !isName(s[:colon]) {
		return "", 0, 0, p.errf("expected " + what + " Type:id, found " + excerpt(s))
	}
	if err := p.checkString(colon, "type name"); err != nil {
		return "", 0, 0, err
	}
	end := strings.IndexByte(s[colon:], ' ')
	if end < 0 {
		end = len(s)
	} else {
		end += colon
	}
	id, ok := parseInt(s[colon+1 : end])
	if !ok {
		return "", 0, 0, p.errf("bad id " + excerpt(s[colon+1:end]) + " in " + what + ", expected a decimal int64")
	}
	return s[:colon], id, end, nil
}

func (p *parser) parseEdges() error {
	reserve, full := p.declared(fEdges, minEdgeLine, int(unsafe.Sizeof(wire.Edge{})))
	edges := make([]wire.Edge, 0, reserve)
	typ, declared, left := "", 0, 0
	for {
		ok, err := p.body()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if isGroupLine(p.cur) {
			if left > 0 {
				return p.groupEnds(typ, declared, left, "edges")
			}
			name, n, ok := p.group("edge")
			if !ok {
				return p.errf("expected an edge group REL(count):, found " + excerpt(p.cur))
			}
			if err := p.checkString(len(name), "type name"); err != nil {
				return err
			}
			typ, declared, left = name, n, n
			continue
		}
		if left == 0 {
			if typ == "" {
				return p.errf("an edge before its REL(n): group")
			}
			return p.errf("more edges than group " + clip(typ) + " declares")
		}
		left--
		e, err := p.edgeLine(typ)
		if err != nil {
			return err
		}
		edges = append(room(edges, full), e)
		if !p.meter.Edge(&edges[len(edges)-1]) {
			return p.tooBig(p.line)
		}
	}
	if left > 0 {
		return p.groupEnds(typ, declared, left, "edges")
	}
	if h := p.header[fEdges]; strconv.Itoa(len(edges)) != h.value {
		return lineError(h.line, "edges:"+clip(h.value)+" but @edges has "+strconv.Itoa(len(edges))+" edges")
	}
	p.r.Edges = edges
	return nil
}

// edgeLine parses "From:id --> To:id[ depth=D][ path_id=P][ step=S]".
func (p *parser) edgeLine(typ string) (wire.Edge, error) {
	s := p.cur
	e := wire.Edge{Type: typ}
	var n int
	var err error
	if e.From, e.FromID, n, err = p.endpoint(s, "source"); err != nil {
		return e, err
	}
	s = s[n:]
	if !strings.HasPrefix(s, " --> ") {
		return e, p.errf("expected \" --> \" after the source")
	}
	s = s[5:]
	if e.To, e.ToID, n, err = p.endpoint(s, "target"); err != nil {
		return e, err
	}
	s = s[n:]
	opts := [...]struct {
		key string
		v   *wire.OptInt
	}{{" depth=", &e.Depth}, {" path_id=", &e.PathID}, {" step=", &e.Step}}
	for _, o := range opts {
		if !strings.HasPrefix(s, o.key) {
			continue
		}
		s = s[len(o.key):]
		end := strings.IndexByte(s, ' ')
		if end < 0 {
			end = len(s)
		}
		v, ok := parseInt(s[:end])
		if !ok {
			return e, p.errf("expected an integer after" + o.key + ", found " + excerpt(s[:end]))
		}
		*o.v = wire.SomeInt(v)
		s = s[end:]
	}
	if s != "" {
		return e, p.errf("unexpected " + excerpt(s) + " after the edge (expected depth=, path_id=, step= in that order)")
	}
	return e, nil
}

// parsePaths parses "path=P: T:id --REL--> T:id ..." lines, one per path,
// in increasing path id; edge k of a path gets step k.
func (p *parser) parsePaths() error {
	reserve, full := p.declared(fEdges, minPathEdge, int(unsafe.Sizeof(wire.Edge{})))
	edges := make([]wire.Edge, 0, reserve)
	var last int64
	first := true
	for {
		ok, err := p.body()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		s := p.cur
		if !strings.HasPrefix(s, "path=") {
			return p.errf("expected path=ID: ..., found " + excerpt(s))
		}
		colon := strings.IndexByte(s, ':')
		if colon < 0 {
			return p.errf("expected ':' after the path id")
		}
		pid, ok := parseInt(s[5:colon])
		if !ok {
			return p.errf("bad path id " + excerpt(s[5:colon]))
		}
		if !first && pid <= last {
			return p.errf("path " + strconv.FormatInt(pid, 10) + " after path " + strconv.FormatInt(last, 10) + " (paths come once each, in increasing id)")
		}
		first, last = false, pid
		s = s[colon+1:]
		if !strings.HasPrefix(s, " ") {
			return p.errf("expected a space after path=" + strconv.FormatInt(pid, 10) + ":")
		}
		from, fromID, n, err := p.endpoint(s[1:], "path start")
		if err != nil {
			return err
		}
		s = s[1+n:]
		if s == "" {
			return p.errf("path " + strconv.FormatInt(pid, 10) + " has no edges")
		}
		for step := int64(0); s != ""; step++ {
			if !strings.HasPrefix(s, " --") {
				return p.errf("expected \" --REL--> \" in the path, found " + excerpt(s))
			}
			s = s[3:]
			arrow := strings.Index(s, "--> ")
			if arrow < 0 || !isName(s[:arrow]) {
				return p.errf("expected a relationship --REL--> in the path, found " + excerpt(s))
			}
			rel := s[:arrow]
			if err := p.checkString(len(rel), "relationship type"); err != nil {
				return err
			}
			s = s[arrow+4:]
			to, toID, n, err := p.endpoint(s, "path node")
			if err != nil {
				return err
			}
			s = s[n:]
			edges = append(room(edges, full), wire.Edge{From: from, FromID: fromID, To: to, ToID: toID, Type: rel,
				PathID: wire.SomeInt(pid), Step: wire.SomeInt(step)})
			if !p.meter.Edge(&edges[len(edges)-1]) {
				return p.tooBig(p.line)
			}
			from, fromID = to, toID
		}
	}
	if h := p.header[fEdges]; strconv.Itoa(len(edges)) != h.value {
		return lineError(h.line, "edges:"+clip(h.value)+" but @paths has "+strconv.Itoa(len(edges))+" edges")
	}
	p.r.Edges = edges
	return nil
}

func (p *parser) parseRows() error {
	agg := p.r.QueryType == wire.Aggregation
	var rows []wire.Row
	full := 0
	if agg {
		var reserve int
		reserve, full = p.declared(fRows, minRowLine, int(unsafe.Sizeof(wire.Row{})))
		rows = make([]wire.Row, 0, reserve)
	} else {
		rows = []wire.Row{}
	}
	for {
		ok, err := p.body()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := p.parsePairs(p.cur, false, p.lim.MaxElements); err != nil {
			return err
		}
		var row wire.Row
		refStart := len(p.refs)
		if agg {
			row, err = p.aggregationRow(len(rows))
		} else {
			row = p.cells.take(len(p.pairs))
			for i, pr := range p.pairs {
				row[i] = wire.Cell{Name: pr.key, Value: cellValue(pr)}
			}
		}
		if err != nil {
			return err
		}
		if !p.meterRow(row, p.refs[refStart:]) {
			return p.tooBig(p.line)
		}
		rows = append(room(rows, full), row)
	}
	if h := p.header[fRows]; agg && strconv.Itoa(len(rows)) != h.value {
		return lineError(h.line, "rows:"+clip(h.value)+" but @rows has "+strconv.Itoa(len(rows))+" rows")
	}
	p.r.Rows = rows
	return nil
}

func cellValue(pr pair) wire.Value {
	if pr.quoted {
		return wire.String(quotedString(pr.text, false))
	}
	return bareValue(pr.text)
}

// quotedString returns the string a quoted value reads back as: its text,
// plus one fillRune when the encoder would write the text itself some other
// way (bare, in T-form, or not at all, being empty). That happens only when
// quoting dropped control characters from the original; the fillRune is
// dropped again, so the value re-encodes to the same quoted text.
// forceQuote is set in node-kind group columns, where strings are always
// quoted.
func quotedString(t string, forceQuote bool) string {
	if t == "" || isClickHouseDatetime(t) || (!forceQuote && isBare(t) && !isKeyword(t)) {
		return t + string(fillRune)
	}
	return t
}

// aggregationRow matches the pairs of an @rows line to the header's
// columns (group_by, then aggregations; each at most once, in that order).
func (p *parser) aggregationRow(rowIndex int) (wire.Row, error) {
	row := p.cells.take(len(p.pairs))[:0]
	next := 0
	for _, pr := range p.pairs {
		k := p.column(pr.key)
		switch {
		case k < 0:
			return nil, p.errf("cell " + clip(pr.key) + " is not a column the header declares")
		case k < next:
			return nil, p.errf("cell " + clip(pr.key) + " repeats or is out of order (cells follow group_by, then aggregations, once each)")
		}
		next = k + 1
		c := wire.Cell{Name: pr.key}
		switch {
		case pr.quoted:
			c.Value = wire.String(quotedString(pr.text, p.cols[k].nodeKind))
		case p.cols[k].nodeKind:
			if typ, id, ok := nodeRef(pr.text); ok {
				p.refs = append(p.refs, cellRef{row: rowIndex, cell: len(row), key: nodeKey{typ, id}, line: p.line})
				break
			}
			c.Value = bareValue(pr.text)
			if c.Value.Kind() == wire.KindString {
				return nil, p.errf("expected a node reference Type:id (or a number, bool or null) in node column " + clip(pr.key) + ", found " + excerpt(pr.text))
			}
		default:
			c.Value = bareValue(pr.text)
		}
		row = append(row, c)
	}
	return row, nil
}

// nodeRef parses a bare Type:id.
func nodeRef(s string) (string, int64, bool) {
	colon := strings.IndexByte(s, ':')
	if colon < 0 || !isName(s[:colon]) {
		return "", 0, false
	}
	id, ok := parseInt(s[colon+1:])
	return s[:colon], id, ok
}

// resolveLifted splits an aggregation's @nodes into the response's own
// nodes and the nodes lifted from row references. The encoder writes the
// lifted nodes last, in the order the rows first reference them, so the
// last len(F) node rows must be exactly those references F; the rows'
// cells then point at them, and the node rows before them are the
// response's nodes.
func (p *parser) resolveLifted() error {
	if len(p.refs) == 0 {
		return nil
	}
	index := make(map[nodeKey]int, min(len(p.refs), len(p.r.Nodes)+1))
	var order []cellRef
	for _, ref := range p.refs {
		if _, seen := index[ref.key]; !seen {
			index[ref.key] = len(order)
			order = append(order, ref)
		}
	}
	nodes := p.r.Nodes
	k := len(nodes) - len(order)
	for j, ref := range order {
		if k+j < 0 {
			return lineError(ref.line, "row references "+refString(ref.key)+", which @nodes does not list in its place (nodes lifted from rows come last, in the order rows first reference them)")
		}
		n := &nodes[k+j]
		if n.Type != ref.key.typ || n.ID != ref.key.id {
			return lineError(p.nodeLines[k+j], "expected node "+refString(ref.key)+" here, first referenced on line "+strconv.Itoa(ref.line)+
				" (nodes lifted from rows come last, in the order rows first reference them), found "+refString(nodeKey{n.Type, n.ID}))
		}
	}
	for _, ref := range p.refs {
		n := &nodes[k+index[ref.key]]
		if n.Properties == nil {
			n.Properties = []wire.Property{}
		}
		p.r.Rows[ref.row][ref.cell].Node = n
	}
	p.r.Nodes = nodes[:k:k]
	return nil
}

func refString(k nodeKey) string { return clip(k.typ) + ":" + strconv.FormatInt(k.id, 10) }
