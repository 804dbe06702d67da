package gcf

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire"
)

// Decode parses GCF text in the codec's layout into a new response. Bad
// text gives a *wire.DecodeError: positioned (line, column) when the GCF
// is malformed, naming the place in the layout ("nodes[3].id: ...") when
// well-formed GCF does not hold a response.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, err
	}
	return c.decode(data, true)
}

// decode is Decode, through the reader first when fast (see decodeFast),
// through the generic value otherwise.
func (c *Codec) decode(data []byte, fast bool) (*wire.GraphResponse, error) {
	return c.decodeAt(data, 0, 0, fast)
}

// decodeAt is decode of the response whose text is the GCF line then
// data[body:], after the GCF line and the fields lines of a header
// (a response's own text when body is 0); its errors are positioned in
// data. The generic path reads a copy of that text, which its memory
// budget is charged with.
func (c *Codec) decodeAt(data []byte, body, fields int, fast bool) (*wire.GraphResponse, error) {
	r, ok := (*wire.GraphResponse)(nil), false
	if fast {
		r, ok = c.decodeFast(data, body)
	}
	if !ok {
		text, scratch := data, 0
		if body > 0 {
			text = append(append(make([]byte, 0, len(gcfLine)+len(data)-body), gcfLine...), data[body:]...)
			scratch = len(text)
		}
		opts := c.valueOptions()
		opts.Limits.MaxMaterializedBytes = min(opts.Limits.MaxMaterializedBytes, genericBudget(len(data))-int64(scratch))
		v, err := gcfvalue.Decode(text, opts)
		if err != nil {
			return nil, shiftError(err, body, fields)
		}
		if r, err = response(v, body > 0); err != nil {
			return nil, err
		}
	}
	// What a decoder of GCF cannot refuse as it reads (the model's rules,
	// the limits of the response as a whole) it refuses here, with the
	// encoders' own check (Measure refuses exactly what Check does).
	if _, err := c.core.Limits.Measure(Name, checked(r, body > 0)); err != nil {
		var ee *wire.EncodeError
		if e, ok := err.(*wire.EncodeError); ok {
			ee = e
		}
		de := &wire.DecodeError{Codec: Name, Msg: err.Error()}
		if ee != nil {
			de.Msg, de.Limit = ee.Path+": "+ee.Msg, ee.Limit
		}
		return nil, de
	}
	return r, nil
}

// genericBudget is the most memory, as the generic layer estimates it,
// that the generic value decoded from n input bytes may take: 6 times the
// input plus 6 MiB. The response read from it takes at most half as much
// again (a row's cell, 48 bytes, for a member of 32), and the value is
// held until the response is read: the two stay within a decode's 16
// times the input plus 16 MiB.
func genericBudget(n int) int64 { return 6*int64(n) + 6<<20 }

// The reader reads a document in the form AppendEncode writes straight
// into a response, without the generic value: every line in its canonical
// place, every string bare where the encoder writes it bare, every count
// right. Where the text departs from that form in any way (another GCF
// writer's choices, an error, a limit), it gives up and Decode takes the
// generic path, which reads any GCF document and gives the positioned
// error. What the reader accepts, the generic path reads to the same
// response (the differential tests and FuzzDecodeFast hold them to it).
//
// The reader's strings are substrings of one copy of the input (a quoted
// string with escapes is its own). It bounds the memory of what it builds
// (readerBudget) and gives up past it.

// giveUp is the reader's panic: the generic path's turn.
type giveUp struct{}

type freader struct {
	s         string
	fragment  bool // the content of a document with a header
	i         int
	maxElem   int
	maxStr    int
	maxDepth  int
	mem       int64
	budget    int64
	props     []wire.Property // the slab node properties are cut from
	cols      []rcol
	cells     []wire.Cell // the slab row cells are cut from
	marks     []int       // the list cells of the row being read
	cellNodes []wire.Node // the slab of row cells' nodes
}

// rcol is a column of a table being read: a plain column (leaf -1) or the
// leaf-th path column of the node cell named field (leaf 0 type, 1 id).
type rcol struct {
	name  string
	field string
	leaf  int
}

const (
	sizeNode = int64(unsafe.Sizeof(wire.Node{}))
	sizeProp = int64(unsafe.Sizeof(wire.Property{}))
	sizeEdge = int64(unsafe.Sizeof(wire.Edge{}))
	sizeCell = int64(unsafe.Sizeof(wire.Cell{}))
	sizeVal  = int64(unsafe.Sizeof(wire.Value{}))
	slabLen  = 512
)

func (d *freader) fail() { panic(giveUp{}) }

func (d *freader) charge(n int64) {
	d.mem += n
	if d.mem > d.budget {
		d.fail()
	}
}

// readerBudget is the most memory the reader lets what it builds take
// for an input of n bytes: 4 times the input plus 4 MiB. When it gives
// up, the generic path builds its value within its own bound (10 times
// plus 10 MiB) while the reader's garbage may not yet be collected; the
// two stay within a decode's 16 times plus 16 MiB.
func readerBudget(n int) int64 { return 4*int64(n) + 4<<20 }

// decodeFast reads data, or reports false (see the reader); when body is
// not 0, the response's lines after its GCF line start at data[body]
// (decodeAt).
func (c *Codec) decodeFast(data []byte, body int) (r *wire.GraphResponse, ok bool) {
	if !utf8.Valid(data) {
		return nil, false
	}
	defer func() {
		if e := recover(); e != nil {
			if _, mine := e.(giveUp); !mine {
				panic(e)
			}
			r, ok = nil, false
		}
	}()
	d := freader{s: string(data), maxElem: c.core.Limits.MaxElements, maxStr: c.core.Limits.MaxStringBytes,
		maxDepth: min(c.core.Limits.MaxDepth+layoutDepth, wire.HardMaxDepth), budget: readerBudget(len(data))}
	d.expect(d.line(), "GCF profile=generic")
	if body > 0 {
		d.i, d.fragment = body, true
	}
	return d.response(), true
}

// line returns the next line, without its '\n'; every line ends with one.
func (d *freader) line() string {
	j := strings.IndexByte(d.s[d.i:], '\n')
	if j < 0 {
		d.fail()
	}
	l := d.s[d.i : d.i+j]
	d.i += j + 1
	return l
}

// peek returns the next line without reading it, "" at the end.
func (d *freader) peek() string {
	j := strings.IndexByte(d.s[d.i:], '\n')
	if j < 0 {
		return d.s[d.i:]
	}
	return d.s[d.i : d.i+j]
}

func (d *freader) expect(l, want string) {
	if l != want {
		d.fail()
	}
}

// response reads the response's lines after its GCF line.
func (d *freader) response() *wire.GraphResponse {
	r := &wire.GraphResponse{}
	if !d.fragment || strings.HasPrefix(d.peek(), "format_version=") {
		r.FormatVersion = d.member("format_version")
	}
	if !d.fragment || strings.HasPrefix(d.peek(), "query_type=") {
		r.QueryType = wire.QueryType(d.member("query_type"))
		if !r.QueryType.Valid() {
			d.fail()
		}
	}
	if !d.fragment || strings.HasPrefix(d.peek(), "## nodes ") {
		d.nodes(r)
	}
	if !d.fragment || strings.HasPrefix(d.peek(), "## edges ") {
		d.edges(r)
	}
	if strings.HasPrefix(d.peek(), "## columns ") {
		d.columns(r)
	}
	if strings.HasPrefix(d.peek(), "## group_columns ") {
		d.groupColumns(r)
	}
	if strings.HasPrefix(d.peek(), "## rows ") {
		d.rows(r)
	}
	if d.peek() == "## pagination" {
		d.pagination(r)
	}
	if d.i != len(d.s) {
		d.fail()
	}
	return r
}

// member reads "name=<string>" at depth 0.
func (d *freader) member(name string) string {
	l := d.line()
	if len(l) <= len(name) || l[:len(name)] != name || l[len(name)] != '=' {
		d.fail()
	}
	v, end := d.str(l, len(name)+1, '\n')
	if end != len(l) {
		d.fail()
	}
	return v
}

// count reads "[N]" at l[i:], N within MaxElements, returning N and the
// index after ']'.
func (d *freader) count(l string, i int) (int, int) {
	if i >= len(l) || l[i] != '[' {
		d.fail()
	}
	j := strings.IndexByte(l[i:], ']')
	if j < 2 {
		d.fail()
	}
	n, ok := gcfvalue.ParseCount(l[i+1 : i+j])
	if !ok || n > d.maxElem {
		d.fail()
	}
	return n, i + j + 1
}

// capFor bounds a slice's capacity by what the rest of the input can
// hold at minBytes a line.
func (d *freader) capFor(n, minBytes int) int {
	return min(n, (len(d.s)-d.i)/minBytes)
}

// token returns the cell or item at l[i:] up to delim (or the line's end)
// and the index of that delimiter (len(l) at the end). A quoted token
// must end at the delimiter.
func (d *freader) token(l string, i int, delim byte) (tok string, quoted bool, end int) {
	if i < len(l) && l[i] == '"' {
		s, e, ok := gcfvalue.Unquote(l, i)
		if !ok || e < len(l) && l[e] != delim {
			d.fail()
		}
		return s, true, e
	}
	j := strings.IndexByte(l[i:], delim)
	if j < 0 {
		return l[i:], false, len(l)
	}
	return l[i : i+j], false, i + j
}

// Token kinds besides a value.
const (
	tokValue = iota
	tokAbsent
	tokList
)

// scalar reads the token at l[i:] as a value.
func (d *freader) scalar(l string, i int, delim byte) (wire.Value, int, int) {
	t, quoted, end := d.token(l, i, delim)
	if quoted {
		if len(t) > d.maxStr {
			d.fail()
		}
		if len(t) > 0 && unsafe.StringData(t) != unsafe.StringData(l[i+1:]) {
			d.charge(int64(len(t)))
		}
		return wire.String(t), tokValue, end
	}
	switch t {
	case "-":
		return wire.Null(), tokValue, end
	case "~":
		return wire.Value{}, tokAbsent, end
	case "^":
		return wire.Value{}, tokList, end
	case "true":
		return wire.Bool(true), tokValue, end
	case "false":
		return wire.Bool(false), tokValue, end
	}
	if v, ok := gcfvalue.SmallInt(t); ok {
		return wire.Int(v), tokValue, end // the integers most cells hold
	}
	if n, isNum, ok := gcfvalue.ParseNumber(t); isNum {
		if !ok {
			d.fail()
		}
		if n.IsInt() {
			v, _ := n.Int64()
			return wire.Int(v), tokValue, end
		}
		return wire.Float(n.Float64()), tokValue, end
	}
	if len(t) > d.maxStr || gcfvalue.NeedsQuotes(t) {
		d.fail()
	}
	return wire.String(t), tokValue, end
}

// str reads a string token.
func (d *freader) str(l string, i int, delim byte) (string, int) {
	v, k, end := d.scalar(l, i, delim)
	if k != tokValue || v.Kind() != wire.KindString {
		d.fail()
	}
	return v.Text(), end
}

// integer reads an integer token.
func (d *freader) integer(l string, i int, delim byte) (int64, int) {
	v, k, end := d.scalar(l, i, delim)
	if k != tokValue || v.Kind() != wire.KindInt {
		d.fail()
	}
	return v.Int(), end
}

// sep steps over the delimiter at l[i], which must be there.
func sep(d *freader, l string, i int) int {
	if i >= len(l) || l[i] != '|' {
		d.fail()
	}
	return i + 1
}

// decl reads "{a,b,...}" at l[i:], to the line's end, into d.cols.
func (d *freader) decl(l string, i int) {
	d.cols = d.cols[:0]
	if i >= len(l) || l[i] != '{' || l[len(l)-1] != '}' {
		d.fail()
	}
	i++
	for {
		var name string
		if l[i] == '"' {
			s, e, ok := gcfvalue.Unquote(l, i)
			if !ok {
				d.fail()
			}
			name, i = s, e
		} else {
			j := gcfvalue.BareKeyEnd(l, i)
			if j == i {
				d.fail()
			}
			name, i = l[i:j], j
		}
		for k := range d.cols {
			if d.cols[k].name == name || len(d.cols) > 64 {
				d.fail() // a repeated column, or a union the generic path reads
			}
		}
		d.cols = append(d.cols, rcol{name: name, field: name, leaf: -1})
		if i >= len(l) {
			d.fail()
		}
		if l[i] == '}' {
			if i != len(l)-1 {
				d.fail()
			}
			return
		}
		if l[i] != ',' {
			d.fail()
		}
		i++
	}
}

// indent steps over the 2*depth spaces that start l.
func (d *freader) indent(l string, depth int) string {
	n := 2 * depth
	if len(l) <= n || l[n] == ' ' {
		d.fail()
	}
	for k := range n {
		if l[k] != ' ' {
			d.fail()
		}
	}
	return l[n:]
}

// rowPrefix steps over "@i " when the row has attachments.
func (d *freader) rowPrefix(l string, i int) (string, bool) {
	if l == "" || l[0] != '@' {
		return l, false
	}
	p := "@" + strconv.Itoa(i) + " "
	if !strings.HasPrefix(l, p) {
		d.fail()
	}
	return l[len(p):], true
}

// tables reads the header of a section of tables ("## name " read): one
// table, calling one(n, rowDepth, level), or a list of tables.
func (d *freader) tables(l string, one func(n, rowDepth, level int)) {
	n, i := d.count(l, 0)
	if i == len(l) {
		if n == 0 {
			return
		}
		for g := range n {
			t := d.line()
			p := "@" + strconv.Itoa(g) + " "
			if !strings.HasPrefix(t, p) {
				d.fail()
			}
			m, j := d.count(t, len(p))
			if m == 0 {
				d.fail()
			}
			d.decl(t, j)
			one(m, 1, 4)
		}
		return
	}
	d.decl(l, i)
	one(n, 0, 3)
}

// section reads "## name " and returns the rest of the line.
func (d *freader) section(name string) string {
	l := d.line()
	if !strings.HasPrefix(l, "## ") || !strings.HasPrefix(l[3:], name) || len(l) < 4+len(name) || l[3+len(name)] != ' ' {
		d.fail()
	}
	return l[4+len(name):]
}
