package gcf

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire"
)

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
	d := freader{s: string(data), maxElem: c.limits.MaxElements, maxStr: c.limits.MaxStringBytes,
		maxDepth: min(c.limits.MaxDepth+layoutDepth, wire.HardMaxDepth), budget: readerBudget(len(data))}
	d.expect(d.line(), "GCF profile=generic")
	if body > 0 {
		d.i = body
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
	r.FormatVersion = d.member("format_version")
	r.QueryType = wire.QueryType(d.member("query_type"))
	if !r.QueryType.Valid() {
		d.fail()
	}
	d.nodes(r)
	d.edges(r)
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
	t := l[i+1 : i+j]
	if len(t) > 1 && t[0] == '0' {
		d.fail()
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || n > d.maxElem || t[0] == '+' || t[0] == '-' {
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
			j := i
			for j < len(l) && l[j] != ',' && l[j] != '}' {
				j++
			}
			name, i = l[i:j], j
			if !gcfvalue.IsBareKey(name) {
				d.fail()
			}
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

func (d *freader) nodes(r *wire.GraphResponse) {
	d.tables(d.section("nodes"), func(n, rowDepth, level int) {
		if len(d.cols) < 2 || d.cols[0].name != "type" || d.cols[1].name != "id" {
			d.fail()
		}
		for _, c := range d.cols[2:] {
			if c.name == "type" || c.name == "id" || strings.IndexByte(c.name, '>') >= 0 {
				d.fail()
			}
		}
		if r.Nodes == nil {
			c := d.capFor(n, 4)
			d.charge(sizeNode * int64(c))
			r.Nodes = make([]wire.Node, 0, c)
		}
		for k := range n {
			if len(r.Nodes) >= d.maxElem {
				d.fail()
			}
			r.Nodes = append(r.Nodes, d.nodeRow(k, rowDepth, level))
		}
	})
}

// slab is the length of a new slab that has room for n: slabLen, or less
// when the rest of the input cannot fill it (a property or a cell takes
// two bytes or more).
func (d *freader) slab(n int) int {
	return max(n, min(slabLen, (len(d.s)-d.i)/2))
}

// propSlab returns room for n more properties.
func (d *freader) propSlab(n int) {
	if cap(d.props)-len(d.props) < n {
		d.props = make([]wire.Property, 0, d.slab(n))
	}
}

// nodeRow reads the k-th row of a node table.
func (d *freader) nodeRow(k, rowDepth, level int) wire.Node {
	l, lists := d.rowPrefix(d.indent(d.line(), rowDepth), k)
	d.charge(sizeNode)
	var n wire.Node
	var i int
	n.Type, i = d.str(l, 0, '|')
	n.ID, i = d.integer(l, sep(d, l, i), '|')
	d.propSlab(len(d.cols) - 2)
	start := len(d.props)
	d.marks = d.marks[:0]
	for _, c := range d.cols[2:] {
		v, kind, end := d.scalar(l, sep(d, l, i), '|')
		i = end
		switch kind {
		case tokAbsent:
			continue
		case tokList:
			d.marks = append(d.marks, len(d.props)-start)
		}
		d.charge(sizeProp)
		d.props = append(d.props, wire.Property{Key: c.name, Value: v})
	}
	if i != len(l) || (len(d.marks) > 0) != lists {
		d.fail()
	}
	if len(d.props) > start {
		n.Properties = d.props[start:len(d.props):len(d.props)]
	}
	for _, m := range d.marks {
		p := &n.Properties[m]
		p.Value = d.attachment(p.Key, rowDepth, level)
	}
	return n
}

// attachment reads the list attachment ".name <list>" of a row's field
// name, the next line at rowDepth.
func (d *freader) attachment(name string, rowDepth, level int) wire.Value {
	l := d.indent(d.line(), rowDepth)
	if len(l) < 2 || l[0] != '.' {
		d.fail()
	}
	var key string
	var i int
	if l[1] == '"' {
		s, e, ok := gcfvalue.Unquote(l, 1)
		if !ok {
			d.fail()
		}
		key, i = s, e
	} else {
		j := strings.IndexByte(l, ' ')
		if j < 0 {
			d.fail()
		}
		key, i = l[1:j], j
		if !gcfvalue.IsBareKey(key) {
			d.fail()
		}
	}
	if key != name || i >= len(l) || l[i] != ' ' {
		d.fail()
	}
	return d.list(l, i+1, rowDepth+2, level+1)
}

// list reads a list body at l[i:]: "[0]", "[N]: a,b" or "[N]" and N item
// lines at depth; level is the list's nesting in the generic value.
func (d *freader) list(l string, i, depth, level int) wire.Value {
	if level > d.maxDepth {
		d.fail()
	}
	n, j := d.count(l, i)
	d.charge(sizeVal * int64(n)) // the items, and room for them: n is within the input
	if j == len(l) {
		if n == 0 {
			return wire.ListOf()
		}
		items := make([]wire.Value, 0, d.capFor(n, 4))
		for k := range n {
			t := d.indent(d.line(), depth)
			p := "@" + strconv.Itoa(k) + " "
			if !strings.HasPrefix(t, p) {
				d.fail()
			}
			t = t[len(p):]
			if strings.HasPrefix(t, "=") {
				v, kind, end := d.scalar(t, 1, '\n')
				if kind != tokValue || end != len(t) {
					d.fail()
				}
				items = append(items, v)
				continue
			}
			items = append(items, d.list(t, 0, depth+1, level+1))
		}
		return wire.ListOf(items...)
	}
	if n == 0 || !strings.HasPrefix(l[j:], ": ") {
		d.fail()
	}
	items := make([]wire.Value, 0, d.capFor(n, 1))
	j += 2
	for k := range n {
		if k > 0 {
			if j >= len(l) || l[j] != ',' {
				d.fail()
			}
			j++
		}
		v, kind, end := d.scalar(l, j, ',')
		if kind != tokValue {
			d.fail()
		}
		items = append(items, v)
		j = end
	}
	if j != len(l) {
		d.fail()
	}
	return wire.ListOf(items...)
}
