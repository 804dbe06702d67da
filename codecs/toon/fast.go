package toon

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// The fast reader. Decode first reads a document in the shape Encode
// writes — format_version and query_type lines, node tables under nodes,
// an inline node_order, an edges table — straight into the response,
// without building the generic TOON value of those sections; whatever
// follows them (columns, group_columns, rows, pagination) is read by the
// generic decoder and converted as Decode always did. The fast reader
// never reports an error: at anything it does not expect (another
// delimiter, quoted keys, blank or comment lines, indentation other than
// two spaces a level, a cell that is not what its field needs, a limit
// reached, a syntax error) it gives up and Decode reads the whole
// document through the generic decoder, which stays the reference: it
// gives the same response for what the fast reader accepts (a fuzz test
// holds the two to it), and the errors, positioned, for what is wrong.
//
// A limit the generic decoder checks, the fast reader checks too, by
// giving up where the generic decoder would fail: a declared length or a
// node's properties past MaxElements, a string or name past
// MaxStringBytes, a table whose rows would repeat its field names past
// MaxMaterializedBytes, and, on the response, the Meter of measure.
// Nothing is allocated from a declared length before it is checked
// against MaxElements and against the bytes of input left to hold it.

// giveUp is the panic value by which the fast reader stops.
type giveUp struct{}

// fastReader reads the lines of s, a copy of the input (the decoded
// strings point into it, so that they share no memory with the caller's
// buffer, at one allocation).
type fastReader struct {
	s   string
	pos int // offset of the next line
	lim wire.Limits
	esc []byte // unescaped strings (see unescape)

	scratch []wire.Property // the properties of the listed node being read
	slab    []wire.Property // where listed nodes' properties are kept

	// refused is the row at which the meter refused the rows table
	// (rowsTable), or -1, and refusedLimit and refusedMsg the refusal's
	// Limit and Msg.
	refused      int
	refusedLimit string
	refusedMsg   string

	has   bool   // a current line was read
	start int    // offset of the current line
	depth int    // its indentation level
	c     string // its content after the indentation
}

// decodeFast reads data in Encode's shape; false means "use the generic
// decoder" and says nothing about whether data is valid.
func (c *Codec) decodeFast(data []byte) (*wire.GraphResponse, bool) {
	r, ok, err := c.readFast(data)
	return r, ok && err == nil
}

// readFast is decodeFast, and, for a document whose rows table the meter
// refuses (see rowsTable), the refusal, which is the generic decoder's:
// ok then, with the error.
func (c *Codec) readFast(data []byte) (r *wire.GraphResponse, ok bool, err error) {
	if len(data) == 0 || !utf8.Valid(data) || strings.IndexByte(unsafe.String(&data[0], len(data)), '\r') >= 0 {
		return nil, false, nil
	}
	f := fastReader{s: string(data), lim: c.limits, refused: -1}
	defer func() {
		if p := recover(); p != nil {
			if _, is := p.(giveUp); !is {
				panic(p)
			}
			r, ok, err = nil, false, nil
		}
	}()
	r = f.document(c, data)
	d := graphDecoder{src: data, lim: c.limits}
	if f.refused >= 0 {
		d.failLimit([]pathStep{keyStep("rows"), indexStep(f.refused)}, f.refusedLimit, f.refusedMsg)
		return nil, true, d.err
	}
	if d.measure(r); d.err != nil {
		return nil, false, nil
	}
	return r, true, nil
}

func (f *fastReader) fail() { panic(giveUp{}) }

// next reads the next line into the current one; false at the end.
func (f *fastReader) next() bool {
	if f.pos >= len(f.s) {
		f.has = false
		return false
	}
	f.start = f.pos
	rest := f.s[f.pos:]
	l := rest
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		l = rest[:nl]
		f.pos += nl + 1
	} else {
		f.pos = len(f.s)
	}
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	if i == len(l) || i%2 != 0 || l[i] == '\t' || l[i] == '#' || l[len(l)-1] == ' ' {
		f.fail()
	}
	if f.start == 0 && strings.HasPrefix(l, "\uFEFF") {
		f.fail()
	}
	f.has, f.depth, f.c = true, i/2, l[i:]
	return true
}

// document reads the sections, in any order, each at most once; the
// first key it does not read itself starts the rest of the document,
// which the generic decoder reads.
func (f *fastReader) document(c *Codec, data []byte) *wire.GraphResponse {
	r := &wire.GraphResponse{}
	var groups []fastGroup
	var order []int
	var seen [5]bool // format_version, query_type, nodes, node_order, edges
	once := func(k int) {
		if seen[k] {
			f.fail()
		}
		seen[k] = true
	}
	f.next()
	for f.has {
		if f.depth != 0 {
			f.fail()
		}
		switch l := f.c; {
		case strings.HasPrefix(l, "format_version:"):
			once(0)
			r.FormatVersion = f.scalarString(l[len("format_version:"):])
			f.next()
		case strings.HasPrefix(l, "query_type:"):
			once(1)
			r.QueryType = wire.QueryType(f.scalarString(l[len("query_type:"):]))
			if !r.QueryType.Valid() {
				f.fail()
			}
			f.next()
		case l == "nodes:":
			once(2)
			groups = f.nodeGroups()
		case strings.HasPrefix(l, "node_order["):
			once(3)
			order = f.nodeOrder(l[len("node_order["):])
			f.next()
		case l == "edges: []":
			once(4)
			r.Edges = make([]wire.Edge, 0)
			f.next()
		case strings.HasPrefix(l, "edges["):
			once(4)
			r.Edges = f.edges(l[len("edges"):])
		default:
			f.rest(c, data[f.start:], r, groups)
			f.has = false
		}
	}
	if !seen[0] || !seen[1] {
		f.fail()
	}
	r.Nodes = f.assemble(groups, order, seen[3])
	return r
}

// scalar reads the value after a key's colon: a primitive, or the empty
// array of "key: []".
func (f *fastReader) scalar(s string) wire.Value {
	if len(s) < 2 || s[0] != ' ' || s[1] == ' ' {
		f.fail()
	}
	s = s[1:]
	if s == "[]" {
		return wire.ListOf(make([]wire.Value, 0)...) // an empty array, as "key: []" is read
	}
	if s[0] != '"' {
		return f.literal(s)
	}
	v, end := f.quoted(s, 0)
	if end != len(s)+1 {
		f.fail()
	}
	return v
}

// scalarString reads the value after a key's colon: a string.
func (f *fastReader) scalarString(s string) string {
	v := f.scalar(s)
	if v.Kind() != wire.KindString {
		f.fail()
	}
	return v.Text()
}

// header reads "Key[N]{a,b,c}:" (the key is read by the caller up to
// the '['; s starts at it): the length and the field names, checked
// against the limits as the generic decoder checks them.
func (f *fastReader) header(s string) (int, []string) {
	n, list := f.tableHeader(s)
	k := strings.Count(list, ",") + 1
	if k > maxFastFields || k > f.lim.MaxElements+layoutFields {
		f.fail()
	}
	fields := make([]string, 0, k)
	names := 0
	for list != "" || len(fields) < k {
		name := list
		if i := strings.IndexByte(list, ','); i >= 0 {
			name, list = list[:i], list[i+1:]
		} else {
			list = ""
		}
		f.name(name)
		for _, g := range fields {
			if g == name {
				f.fail()
			}
		}
		fields = append(fields, name)
		names += len(name)
	}
	if m := f.lim.MaxMaterializedBytes; m > 0 && int64(n)*int64(names) > m {
		f.fail()
	}
	return n, fields
}

// tableHeader reads "[N]{...}:", a table's header after its key: the
// length, and the field list between the braces.
func (f *fastReader) tableHeader(s string) (int, string) {
	if len(s) < 2 || s[0] != '[' {
		f.fail()
	}
	close := strings.IndexByte(s, ']')
	if close < 0 {
		f.fail()
	}
	n := f.length(s[1:close])
	s = s[close+1:]
	if len(s) < 4 || s[0] != '{' || !strings.HasSuffix(s, "}:") {
		f.fail()
	}
	return n, s[1 : len(s)-2]
}

// maxFastFields is the widest table the fast reader reads.
const maxFastFields = 64

// length reads a declared length: 0 or [1-9][0-9]*, at most MaxElements.
func (f *fastReader) length(s string) int {
	n, ok := smallInt(s)
	if !ok || n > int64(f.lim.MaxElements) {
		f.fail()
	}
	return int(n)
}

// name checks a key read unquoted: a letter or '_', then letters,
// digits, '_' or '.', no longer than MaxStringBytes.
func (f *fastReader) name(s string) {
	if s == "" || len(s) > f.lim.MaxStringBytes {
		f.fail()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || (i > 0 && (c == '.' || (c >= '0' && c <= '9'))) {
			continue
		}
		f.fail()
	}
}

// rows checks that n rows of k cells each can be in what is left of the
// input, at indentation depth: each takes at least its indentation,
// k-1 delimiters and a byte.
func (f *fastReader) rows(n, k, depth int) {
	if int64(n)*int64(2*depth+k) > int64(len(f.s)-f.pos) {
		f.fail()
	}
}

// row reads the next line as a row of the table at depth.
func (f *fastReader) row(depth int) string {
	if !f.next() || f.depth != depth {
		f.fail()
	}
	return f.c
}

// smallInt reads 0 or [1-9][0-9]{0,17}: an int64 written as JSON writes
// it, short enough not to overflow.
func smallInt(s string) (int64, bool) {
	if s == "" || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	return n, true
}

// cell reads the cell of row c that starts at i: its value, and the
// offset past the delimiter that ends it (len(c)+1 after the last).
func (f *fastReader) cell(c string, i int) (wire.Value, int) {
	for i < len(c) && c[i] == ' ' {
		i++
	}
	if i < len(c) && c[i] == '"' {
		return f.quoted(c, i)
	}
	start := i
	for ; i < len(c); i++ {
		switch c[i] {
		case ',':
			goto end
		case '"', ':':
			f.fail()
		}
	}
end:
	j := i
	for j > start && c[j-1] == ' ' {
		j--
	}
	return f.literal(c[start:j]), i + 1
}

// quoted reads the quoted cell of c at i, which ends at the delimiter or
// the end after its closing quote.
func (f *fastReader) quoted(c string, i int) (wire.Value, int) {
	j, esc := i+1, false
	for ; j < len(c); j++ {
		if c[j] == '\\' {
			esc = true
			j++
			continue
		}
		if c[j] == '"' {
			break
		}
	}
	if j >= len(c) {
		f.fail()
	}
	body := c[i+1 : j]
	k := j + 1
	for k < len(c) && c[k] == ' ' {
		k++
	}
	if k < len(c) && c[k] != ',' {
		f.fail()
	}
	if esc {
		body = f.unescape(body)
	}
	if len(body) > f.lim.MaxStringBytes {
		f.fail()
	}
	return wire.String(body), k + 1
}

// unescape decodes the escapes of body into the reader's arena, sized
// once to the input left (no unescaped text is longer than its escaped
// form, so the arena never moves). The string returned points into the
// arena (unsafe.String): sound because its bytes are written once, by
// the append that decodes them, and later strings go past them.
func (f *fastReader) unescape(body string) string {
	if f.esc == nil {
		f.esc = make([]byte, 0, len(f.s)-f.start)
	}
	start := len(f.esc)
	b, err := textwire.TOONUnescaping.Unescape(f.esc, body)
	if err != nil || cap(b) != cap(f.esc) {
		f.fail()
	}
	f.esc = b
	if len(b) == start {
		return ""
	}
	return unsafe.String(&b[start], len(b)-start)
}

// literal reads an unquoted value token (spec §4), as the generic
// decoder reads it.
func (f *fastReader) literal(t string) wire.Value {
	if t == "" {
		return wire.String("")
	}
	switch t[0] {
	case 't':
		if t == "true" {
			return wire.Bool(true)
		}
	case 'f':
		if t == "false" {
			return wire.Bool(false)
		}
	case 'n':
		if t == "null" {
			return wire.Null()
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n, ok := smallInt(t); ok {
			return wire.Int(n)
		}
		if n, ok := jsonvalue.LiteralNumber(t); ok {
			if n.IsInt() {
				i, _ := n.Int64()
				return wire.Int(i)
			}
			return wire.Float(n.Float64())
		}
	}
	if len(t) > f.lim.MaxStringBytes {
		f.fail()
	}
	return wire.String(t)
}
