package goon

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Decode parses GOON text into a response under the default wire.Limits;
// see the package documentation for what comes back and the errors.
func Decode(data []byte) (*wire.GraphResponse, error) { return std.Decode(data) }

// Decode parses GOON text into a response under the codec's limits.
func (c *Codec) Decode(data []byte) (r *wire.GraphResponse, err error) {
	_, r, err = c.read(data, false, false)
	return r, err
}

// read parses a response, a document's content (a fragment), or with doc
// a document; a document without content gives a nil response.
func (c *Codec) read(data []byte, fragment, doc bool) ([]delta.Field, *wire.GraphResponse, error) {
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, nil, err
	}
	data = bytes.TrimPrefix(data, bom)
	src := string(data)
	p := parser{src: src, lim: c.core.Limits, lines: textwire.NewLines(src, &lineRules),
		meter: wirecodec.NewMeter(c.core.Limits, len(data)), fragment: fragment, doc: doc}
	r, err := p.parse()
	if err != nil {
		return nil, nil, err
	}
	return p.fields, r, nil
}

// bom is the UTF-8 byte order mark, skipped at the start of the input.
var bom = []byte("\xef\xbb\xbf")

type parser struct {
	src      string
	lines    textwire.Lines
	line     int    // number of the current line
	cur      string // the current line, without its newline
	lim      wire.Limits
	meter    *wirecodec.Meter // the response's materialised size
	restored int64            // bytes restoring truncated values added that the meter has not counted
	// escaped: a value read since the meter last counted a node was
	// unescaped or restored, so is not its own canonical JSON text (the
	// meter then reads its strings: Meter.Clean).
	escaped bool

	r      *wire.GraphResponse
	header [numFields]headerField
	// fragment: a document's content, which may leave out header fields
	// and sections; doc: a document, whose fields open @header; agg and
	// paths: the layout read.
	fragment, doc, agg, paths bool
	// fields are a document's, read on fieldLines; contentLen is the
	// length of the text after them.
	fields     []delta.Field
	fieldLines []int
	contentLen int
	// cursorText is next_cursor's value, unquoted.
	cursorText string
	cols       []rowCol
	colIndex   map[string]int // by name, once there are many columns

	pairs     []pair
	text      arena[byte] // unescaped values, each written once
	props     arena[wire.Property]
	cells     arena[wire.Cell]
	nodeLines []int // line of each node row
	// lifted holds the first reference to each node rows reference, in
	// order, and liftIndex each one's position in it.
	lifted    []cellRef
	liftIndex map[nodeKey]int
	lastNode  map[nodeKey]int // index of the last node row of each key, once rows reference nodes
}

type pair struct {
	key    string
	text   string // the value: a bare token, or the unescaped inside of the quotes
	quoted bool
	crumb  bool // a key_len breadcrumb that belongs to the pair before it
}

type cellRef struct {
	key  nodeKey
	line int
}

// arena hands out slices carved from shared blocks.
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

// parse reads the response from "@header" to the end (a document's fields
// are the first lines of its header).
func (p *parser) parse() (*wire.GraphResponse, error) {
	if len(p.src) == 0 {
		return nil, lineError(1, "empty input, expected @header")
	}
	if err := p.checkText(); err != nil {
		return nil, err
	}
	p.next()
	if p.cur != "@header" {
		return nil, p.errf("expected @header, found " + textwire.Excerpt(p.cur))
	}
	p.r = &wire.GraphResponse{}
	p.contentLen = len(p.lines.Rest())
	if err := p.parseHeader(); err != nil {
		return nil, err
	}
	if p.doc {
		if p.contentLen == 0 {
			return nil, nil
		}
		// The content is metered against its own length.
		p.meter = wirecodec.NewMeter(p.lim, len(headerMarker)+p.contentLen)
	}
	// p.cur is the first section marker after the header.
	if !p.fragment || p.cur == "@nodes" {
		if err := p.expectSection("@nodes"); err != nil {
			return nil, err
		}
		if err := p.parseNodes(); err != nil {
			return nil, err
		}
	}
	if p.fragment && p.r.QueryType == "" && !p.agg && p.cur == "@paths" {
		p.paths = true
	}
	edges := "@edges"
	if p.paths {
		edges = "@paths"
	}
	if !p.fragment || p.cur == "@edges" || p.cur == "@paths" {
		if err := p.expectSection(edges); err != nil {
			return nil, err
		}
		if err := p.parseEdges(); err != nil {
			return nil, err
		}
	}
	rowsField := p.header[fRows]
	if p.cur == "" { // end of input
		if rowsField.set {
			return nil, lineError(rowsField.line, "rows:"+textwire.Clip(rowsField.value)+" but there is no @rows section")
		}
		return p.finish()
	}
	if p.cur != "@rows" {
		return nil, p.sectionError("@rows or the end of the input")
	}
	if p.agg && !rowsField.set {
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

// checkText checks that the text is lines that end in a newline, UTF-8.
func (p *parser) checkText() error {
	if err := p.lines.Check(); err != nil {
		le := err.(*textwire.LineError)
		return lineError(le.Line, le.Msg())
	}
	if !utf8.ValidString(p.src) {
		line, _ := textwire.LineCol(p.src, textwire.InvalidUTF8(p.src))
		return lineError(line, "invalid UTF-8")
	}
	return nil
}

func (p *parser) finish() (*wire.GraphResponse, error) {
	r := p.r
	if p.agg {
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

// expectSection checks that the current line is the marker want.
func (p *parser) expectSection(want string) error {
	if p.cur == want {
		return nil
	}
	if p.cur == "" && p.lines.Offset() >= len(p.src) {
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

// sectionLines counts the lines from the next one to the next section
// marker (a line that starts with '@') or the end of the input.
func (p *parser) sectionLines() int {
	rest := p.lines.Rest()
	if i := strings.Index(rest, "\n@"); i >= 0 {
		rest = rest[:i+1]
	}
	return strings.Count(rest, "\n")
}

// counted holds a section's elements, and the count a header field
// declares as far as the rest of the input holds it.
type counted[T any] struct {
	s    []T
	full int
}

// newCounted reserves room for the count header field f declares, at
// minLine bytes a line: no more than the meter's room (plus one, so the
// meter stops a response past it) and, with oneALine, the lines before
// the next section, so a count the input backs is reserved once, exactly.
func newCounted[T any](p *parser, f, minLine int, oneALine bool) counted[T] {
	n, _ := parseInt(p.header[f].value)
	if !p.header[f].set { // a fragment's: as many as the lines hold
		n = math.MaxInt64
	}
	full := int(min(n, int64(len(p.lines.Rest()))/int64(minLine)))
	var zero T
	reserve := int(min(int64(full), p.meter.MemoryRoom()/int64(unsafe.Sizeof(zero))+1))
	if oneALine {
		reserve = min(reserve, p.sectionLines())
	}
	return counted[T]{make([]T, 0, reserve), full}
}

// add appends x and returns it in place, for the meter.
func (c *counted[T]) add(x T) *T {
	c.s = append(room(c.s, c.full), x)
	return &c.s[len(c.s)-1]
}

// done returns the elements, after err, the section's, or the check of
// their count against header field f.
func (c *counted[T]) done(p *parser, err error, f int, section, items string) ([]T, error) {
	if err == nil {
		err = p.checkCount(f, section, len(c.s), items)
	}
	return c.s, err
}

// room returns s with room for one more element, doubling up to full.
func room[T any](s []T, full int) []T {
	if len(s) < cap(s) || len(s) >= full {
		return s
	}
	return slices.Grow(s, min(max(2*cap(s), 64), full)-len(s))
}

// Shortest lines, newline included: "0", "A:0 --> B:0", a path's further
// edge " --R--> B:0", "a=0".
const (
	minNodeLine = 2
	minEdgeLine = 12
	minPathEdge = 11
	minRowLine  = 4
)

func (p *parser) parseHeader() error {
	last := -1
	for {
		ok, err := p.body()
		if err != nil {
			return err
		}
		if !ok {
			if p.cur == "" && !(p.doc && p.contentLen == 0) {
				return p.errf("input ends, expected @nodes")
			}
			break
		}
		key, val, ok := strings.Cut(p.cur, ":")
		if !ok {
			return p.errf("expected a header field key:value, found " + textwire.Excerpt(p.cur))
		}
		f := slices.Index(fieldNames[:], key)
		k, docField := delta.FieldKind(key)
		switch {
		case f < 0 && docField && p.doc && last < 0: // a document's field, before GOON's own
			if err := p.documentField(key, val, k); err != nil {
				return err
			}
			continue
		case f < 0:
			if docField {
				return p.errf("document header field " + key + " among GOON's header fields (a document's fields come first, and DecodeDocument reads them)")
			}
			return p.errf("unknown header field " + textwire.Excerpt(key))
		case p.header[f].set:
			return p.errf("duplicate header field " + textwire.Clip(key))
		case f < last:
			return p.errf("header field " + textwire.Clip(key) + " out of order (after " + fieldNames[last] + ")")
		}
		last = f
		p.header[f] = headerField{set: true, line: p.line, value: val}
		if err := p.headerValue(f, val); err != nil {
			return err
		}
	}
	for _, f := range [...]int{fQueryType, fVersion, fNodes, fEdges} {
		if !p.header[f].set && !p.fragment {
			return p.errf("header has no " + fieldNames[f] + " field")
		}
	}
	if err := p.pagination(); err != nil {
		return err
	}
	// A fragment without a query type is an aggregation when it declares
	// rows or columns (encoder.layout).
	p.agg = p.r.QueryType == wire.Aggregation ||
		p.fragment && p.r.QueryType == "" && (p.header[fRows].set || p.header[fGroupBy].set || p.header[fAggregations].set)
	p.paths = p.r.QueryType == wire.PathFinding
	if !p.agg {
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
			return p.errf("unknown query_type " + textwire.Excerpt(val))
		}
		p.r.QueryType = q
	case fVersion:
		if !supportedVersion(val) {
			return p.errf("unsupported goon_version " + textwire.Excerpt(val) + " (this decoder reads " + minMajor + ".x.y to " + maxMajor + ".x.y)")
		}
	case fNodes, fEdges, fRows:
		n, ok := parseInt(val)
		if !ok || n < 0 {
			return p.errf("expected a count after " + fieldNames[f] + ":, found " + textwire.Excerpt(val))
		}
		if n > int64(p.lim.MaxElements) {
			return p.checkElements(p.lim.MaxElements+1, fieldNames[f])
		}
	case fHasMore, fTruncated:
		if val != "true" {
			return p.errf("expected " + fieldNames[f] + ":true, found " + textwire.Excerpt(val))
		}
	case fTotalRows:
		if _, ok := parseInt(val); !ok {
			return p.errf("expected an integer after total_rows:, found " + textwire.Excerpt(val))
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

// cursor reads next_cursor's value; quoted text the encoder would write
// bare gains one fillRune, as a quoted value does.
func (p *parser) cursor(val string) error {
	t, quoted, err := p.headerString(val, "next_cursor")
	if err != nil {
		return err
	}
	if quoted && cursorBare(t) {
		t += string(fillRune)
	}
	p.cursorText = t
	return nil
}

// headerString reads the string value of the header field what, as
// appendCursor writes it (quoted reports how), within MaxStringBytes.
func (p *parser) headerString(val, what string) (s string, quoted bool, err error) {
	if val == "" {
		return "", false, p.errf("expected a token after " + what + ":")
	}
	if val[0] != '"' {
		for i := 0; i < len(val); i++ {
			if !bareByte[val[i]] {
				return "", false, p.errf("unexpected " + quoteByte(val[i]) + " in the bare " + what + " (such tokens are quoted)")
			}
		}
		return val, false, p.checkString(len(val), what)
	}
	t, n, err := p.unquote(val)
	if err != nil {
		return "", false, err
	}
	if n != len(val) {
		return "", false, p.errf("unexpected " + quoteByte(val[n]) + " after the quoted " + what)
	}
	return t, true, p.checkString(len(t), what)
}

// pagination builds the response's pagination from the header fields read
// (see the package documentation, The text).
func (p *parser) pagination() error {
	hm, tr, tt, nc := p.header[fHasMore], p.header[fTotalRows], p.header[fTruncated], p.header[fNextCursor]
	switch {
	case tr.set && tt.set:
		return lineError(tt.line, "truncated (schema v5) in a header with total_rows (schema v2)")
	case tr.set && nc.set:
		return lineError(nc.line, "next_cursor (schema v5) in a header with total_rows (schema v2)")
	case tr.set:
		n, _ := parseInt(tr.value)
		p.r.Pagination = &wire.Pagination{HasMore: hm.set, TotalRows: wire.Some[int64](n)}
	case hm.set || tt.set || nc.set:
		pg := &wire.Pagination{HasMore: hm.set, Truncated: wire.Some(tt.set)}
		if nc.set {
			pg.NextCursor = wire.Some(p.cursorText)
		}
		p.r.Pagination = pg
	}
	return nil
}

// documentField reads a document's header field name:val of kind k.
func (p *parser) documentField(name, val string, k delta.Kind) error {
	for i, f := range p.fields {
		if f.Name == name {
			return p.errf("header field " + name + " twice (first on line " + strconv.Itoa(p.fieldLines[i]) + ")")
		}
	}
	f := delta.Field{Name: name}
	switch k {
	case delta.IntList:
		if strings.Count(val, ",") >= p.lim.MaxElements {
			return p.checkElements(p.lim.MaxElements+1, "numbers in "+name)
		}
		v, err := delta.ParseInts(val, p.lim.MaxElements)
		if err != nil {
			return p.errf(name + ": " + err.Error())
		}
		f.Ints = v
	case delta.Text:
		s, _, err := p.headerString(val, name)
		if err != nil {
			return err
		}
		f.Text = s
	}
	p.fields, p.fieldLines = append(p.fields, f), append(p.fieldLines, p.line)
	p.contentLen = len(p.lines.Rest())
	return nil
}
