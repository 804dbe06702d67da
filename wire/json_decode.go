package wire

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/internal/keyset"
)

// DecodeJSON parses canonical-shaped JSON into a response, within l (zero
// fields select their defaults). It accepts any whitespace, any key order
// and a leading UTF-8 byte order mark, and is otherwise strict: see the
// package documentation. Errors are *DecodeError with a byte offset; one
// caused by a limit names it in Limit and matches errors.Is(err, ErrLimit).
//
// Every limit is checked before the decoder allocates for what it bounds:
// the input's length first, list nesting and the number of elements as
// they are read, a string's length before it is copied, and the response's
// materialised size (see MaterializedSize) element by element.
func DecodeJSON(data []byte, l Limits) (*GraphResponse, error) {
	l, err := l.WithDefaults()
	if err != nil {
		return nil, &DecodeError{Codec: "json", Msg: err.Error()}
	}
	if int64(len(data)) > l.MaxInputBytes {
		return nil, &DecodeError{Codec: "json", Offset: l.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(l.MaxInputBytes, 10)}
	}
	// One copy of the input as a string: every string without escapes in
	// the response is a substring of it, which costs no allocation.
	d := decoder{data: data, src: string(data), l: l, m: newMeter(l, len(data))}
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		d.pos = 3 // a UTF-8 byte order mark
	}
	r, err := d.response()
	if err != nil {
		return nil, err
	}
	return r, nil
}

type decoder struct {
	data  []byte
	src   string // data as a string, for substrings
	pos   int
	depth int // list nesting
	l     Limits
	m     Meter

	props []Property // scratch for the properties of the node being read
	cells []Cell     // scratch for the cells of the row being read
}

// keepProps returns a copy of ps with its length for capacity.
func (d *decoder) keepProps(ps []Property) []Property {
	if len(ps) == 0 {
		return nil
	}
	return append([]Property(nil), ps...)
}

// objectKeys finds a repeated key in an object: among its first
// keyset.Eager keys at once, at the key; past them once the object ends,
// at the first repeat's offset, which it keeps for those keys.
type objectKeys struct {
	seq  keyset.Seq
	late []int // offsets of the keys past keyset.Eager
}

// add records key, at offset off, as the object's next key; earlier(i)
// returns the i-th key before it. It reports a repeat it finds at once.
func (k *objectKeys) add(key string, off int, earlier func(i int) string) bool {
	if k.seq.Add(key, earlier) {
		return true
	}
	if k.seq.Len() > keyset.Eager {
		k.late = append(k.late, off)
	}
	return false
}

// repeat returns the offset and text of the first key that repeats an
// earlier one, once the object has ended; key(i) returns its i-th key.
func (k *objectKeys) repeat(key func(i int) string) (off int, text string, found bool) {
	i := k.seq.Repeat(key)
	if i < 0 {
		return 0, "", false
	}
	return k.late[i-keyset.Eager], key(i), true
}

func (d *decoder) errAt(off int, msg string) error {
	return &DecodeError{Codec: "json", Offset: int64(off), Msg: msg}
}

// limitAt is errAt for a refusal by the Limits field limit.
func (d *decoder) limitAt(off int, limit, msg string) error {
	return &DecodeError{Codec: "json", Offset: int64(off), Msg: msg, Limit: limit}
}

// tooMany is the error for the element at off, one past MaxElements.
func (d *decoder) tooMany(off int, what string) error {
	return d.limitAt(off, "MaxElements", what+": more than "+strconv.Itoa(d.l.MaxElements)+" elements (MaxElements)")
}

// tooBig is the error for the element at off, past MaxMaterializedBytes or
// MaxExpansion times the input.
func (d *decoder) tooBig(off int) error {
	return d.limitAt(off, d.m.LimitName(), d.m.Msg())
}

// found describes the byte at the current position for error messages.
func (d *decoder) found() string {
	if d.pos >= len(d.data) {
		return "end of input"
	}
	c := d.data[d.pos]
	switch {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '-' || (c >= '0' && c <= '9'):
		return "number"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c >= 0x20 && c < 0x7f:
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

func (d *decoder) expected(what string) error {
	return d.errAt(d.pos, "expected "+what+", found "+d.found())
}

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) peek() byte {
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *decoder) response() (*GraphResponse, error) {
	r := &GraphResponse{}
	var seen [8]bool
	fields := [...]string{"format_version", "query_type", "nodes", "edges", "columns", "group_columns", "rows", "pagination"}
	d.ws()
	err := d.object("response", func(key string, keyOff int) error {
		idx := -1
		for i, f := range fields {
			if f == key {
				idx = i
				break
			}
		}
		if idx < 0 {
			return d.errAt(keyOff, "unknown top-level field "+Excerpt(key))
		}
		if seen[idx] {
			return d.errAt(keyOff, "duplicate field "+Excerpt(key))
		}
		seen[idx] = true
		var err error
		switch idx {
		case 0:
			r.FormatVersion, err = d.str("format_version")
		case 1:
			off := d.pos
			var s string
			if s, err = d.enum("query_type"); err == nil {
				r.QueryType = QueryType(s)
				if !r.QueryType.Valid() {
					err = d.errAt(off, "query_type: expected one of traversal, search, neighbors, path_finding, aggregation, found "+Excerpt(s))
				}
			}
		case 2:
			err = elements(d, "nodes", &r.Nodes, d.node, d.m.Node)
		case 3:
			err = elements(d, "edges", &r.Edges, d.edge, d.m.Edge)
		case 4:
			err = elements(d, "columns", &r.Columns, d.column, d.m.Column)
		case 5:
			err = elements(d, "group_columns", &r.GroupColumns, d.groupColumn, d.m.GroupColumn)
		case 6:
			r.Rows = []Row{}
			err = d.array("rows", func(i int) error {
				off := d.pos
				row, err := d.row()
				if err != nil {
					return err
				}
				r.Rows = append(r.Rows, row)
				if !d.m.EndRow(len(row)) {
					return d.tooBig(off)
				}
				return nil
			})
		case 7:
			r.Pagination = &Pagination{}
			err = d.pagination(r.Pagination)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.pos < len(d.data) {
		return nil, d.errAt(d.pos, "unexpected data after the response: "+d.found())
	}
	for i, f := range fields[:4] {
		if !seen[i] {
			return nil, d.errAt(len(d.data), "response: missing required field "+strconv.Quote(f))
		}
	}
	if !d.m.Finish(r) {
		return nil, d.tooBig(len(d.data))
	}
	return r, nil
}

// object parses an object at the current position, calling fn with the

// elements reads the JSON array what into a new, present *list: each
// element by read, then charged to the materialised size by charge.
func elements[T any](d *decoder, what string, list *[]T, read func(*T) error, charge func(*T) bool) error {
	*list = []T{}
	return d.array(what, func(int) error {
		off := d.pos
		var zero T
		*list = append(*list, zero)
		x := &(*list)[len(*list)-1]
		if err := read(x); err != nil {
			return err
		}
		if !charge(x) {
			return d.tooBig(off)
		}
		return nil
	})
}

// position at each value.
func (d *decoder) object(what string, fn func(key string, keyOff int) error) error {
	if d.peek() != '{' {
		return d.expected(what + " object")
	}
	d.pos++
	d.ws()
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	for {
		d.ws()
		if d.peek() != '"' {
			return d.expected("object key")
		}
		keyOff := d.pos
		// Keys are compared with the schema's field names, or, where they
		// name a property or a cell, checked by keyOK.
		key, err := d.enum("key")
		if err != nil {
			return err
		}
		d.ws()
		if d.peek() != ':' {
			return d.expected("':' after object key")
		}
		d.pos++
		d.ws()
		if err := fn(key, keyOff); err != nil {
			return err
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return nil
		default:
			return d.expected("',' or '}' in " + what)
		}
	}
}

// array parses an array of at most MaxElements elements at the current
// position, calling fn at each element. The response's arrays sit at fixed
// places in its structure, so they nest no deeper than it does.
func (d *decoder) array(what string, fn func(i int) error) error {
	if d.peek() != '[' {
		return d.expected(what + " array")
	}
	d.pos++
	d.ws()
	if d.peek() == ']' {
		d.pos++
		return nil
	}
	for i := 0; ; i++ {
		d.ws()
		if i == d.l.MaxElements {
			return d.tooMany(d.pos, what)
		}
		if err := fn(i); err != nil {
			return err
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return nil
		default:
			return d.expected("',' or ']' in " + what)
		}
	}
}

func (d *decoder) node(n *Node) error {
	var haveType, haveID bool
	var keys objectKeys
	start := d.pos
	base := len(d.props)
	defer func() { d.props = d.props[:base] }()
	err := d.object("node", func(key string, keyOff int) error {
		var err error
		switch key {
		case "type":
			if haveType {
				return d.errAt(keyOff, "node: duplicate field \"type\"")
			}
			haveType = true
			n.Type, err = d.name1("node type")
		case "id":
			if haveID {
				return d.errAt(keyOff, "node: duplicate field \"id\"")
			}
			haveID = true
			n.ID, err = d.id("node id")
		default:
			err = d.property(&keys, base, "node", key, keyOff)
		}
		return err
	})
	if err != nil {
		return err
	}
	if n.Properties, err = d.endProperties(&keys, base, "node"); err != nil {
		return err
	}
	if !haveType {
		return d.errAt(start, "node: missing \"type\"")
	}
	if !haveID {
		return d.errAt(start, "node: missing \"id\"")
	}
	return nil
}

// fields parses an object whose keys are among names, each at most once,
// calling fn with the index in names of each key, at its value. The first
// required names must be present. Errors start with what. There are at
// most 8 names.
func (d *decoder) fields(what string, names []string, required int, fn func(idx int) error) error {
	var seen [8]bool
	start := d.pos
	err := d.object(what, func(key string, keyOff int) error {
		idx := -1
		for i, f := range names {
			if f == key {
				idx = i
				break
			}
		}
		if idx < 0 {
			return d.errAt(keyOff, what+": unknown field "+Excerpt(key))
		}
		if seen[idx] {
			return d.errAt(keyOff, what+": duplicate field "+Excerpt(key))
		}
		seen[idx] = true
		return fn(idx)
	})
	if err != nil {
		return err
	}
	for i, f := range names[:required] {
		if !seen[i] {
			return d.errAt(start, what+": missing "+strconv.Quote(f))
		}
	}
	return nil
}

var edgeFields = [...]string{"from", "from_id", "to", "to_id", "type", "depth", "path_id", "step"}

func (d *decoder) edge(e *Edge) error {
	return d.fields("edge", edgeFields[:], 5, func(idx int) error {
		var err error
		switch idx {
		case 0:
			e.From, err = d.name1("edge from")
		case 1:
			e.FromID, err = d.id("edge from_id")
		case 2:
			e.To, err = d.name1("edge to")
		case 3:
			e.ToID, err = d.id("edge to_id")
		case 4:
			e.Type, err = d.name1("edge type")
		case 5:
			e.Depth.Int, err = d.integer("edge depth")
			e.Depth.Valid = true
		case 6:
			e.PathID.Int, err = d.integer("edge path_id")
			e.PathID.Valid = true
		case 7:
			e.Step.Int, err = d.integer("edge step")
			e.Step.Valid = true
		}
		return err
	})
}

var columnFields = [...]string{"name", "function", "target", "property"}

func (d *decoder) column(c *Column) error {
	return d.fields("column", columnFields[:], 2, func(idx int) error {
		var err error
		switch idx {
		case 0:
			c.Name, err = d.name1("column name")
		case 1:
			c.Function, err = d.name1("column function")
		case 2:
			c.Target.String, err = d.name1("column target")
			c.Target.Valid = true
		case 3:
			c.Property.String, err = d.name1("column property")
			c.Property.Valid = true
		}
		return err
	})
}

var groupColumnFields = [...]string{"name", "kind", "node", "property", "entity"}

func (d *decoder) groupColumn(g *GroupColumn) error {
	return d.fields("group column", groupColumnFields[:], 3, func(idx int) error {
		var err error
		switch idx {
		case 0:
			g.Name, err = d.name1("group column name")
		case 1:
			off := d.pos
			var s string
			if s, err = d.enum("group column kind"); err == nil {
				g.Kind = GroupKind(s)
				if !g.Kind.Valid() {
					err = d.errAt(off, "group column kind: expected \"node\" or \"property\", found "+Excerpt(s))
				}
			}
		case 2:
			g.Node, err = d.name1("group column node")
		case 3:
			g.Property.String, err = d.name1("group column property")
			g.Property.Valid = true
		case 4:
			g.Entity.String, err = d.name1("group column entity")
			g.Entity.Valid = true
		}
		return err
	})
}

func (d *decoder) row() (Row, error) {
	var keys objectKeys
	base := len(d.cells)
	defer func() { d.cells = d.cells[:base] }()
	err := d.object("row", func(key string, keyOff int) error {
		cells := d.cells[base:]
		if len(cells) == d.l.MaxElements {
			return d.tooMany(keyOff, "row cells")
		}
		if len(key) > d.l.MaxStringBytes {
			return d.tooLong(keyOff)
		}
		if keys.add(key, keyOff, func(i int) string { return cells[i].Name }) {
			return d.errAt(keyOff, "row: duplicate cell "+Excerpt(key))
		}
		var c Cell
		if d.peek() == '{' {
			n, err := d.nodeRef()
			if err != nil {
				return err
			}
			c = Cell{Name: key, Node: n}
		} else {
			v, err := d.value(key)
			if err != nil {
				return err
			}
			c = Cell{Name: key, Value: v}
		}
		d.cells = append(d.cells, c)
		if !d.m.Cell(&c) {
			return d.tooBig(keyOff)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if off, k, dup := keys.repeat(func(i int) string { return d.cells[base+i].Name }); dup {
		return nil, d.errAt(off, "row: duplicate cell "+Excerpt(k))
	}
	return append(Row{}, d.cells[base:]...), nil
}

var nodeRefFields = [...]string{"type", "id", "properties"}

func (d *decoder) nodeRef() (*Node, error) {
	n := &Node{}
	err := d.fields("node reference", nodeRefFields[:], len(nodeRefFields), func(idx int) error {
		var err error
		switch idx {
		case 0:
			n.Type, err = d.name1("node reference type")
		case 1:
			n.ID, err = d.id("node reference id")
		case 2:
			n.Properties, err = d.refProperties()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// refProperties parses the properties object of a node reference.
func (d *decoder) refProperties() ([]Property, error) {
	var keys objectKeys
	base := len(d.props)
	defer func() { d.props = d.props[:base] }()
	err := d.object("properties", func(key string, keyOff int) error {
		if key == "type" || key == "id" {
			return d.errAt(keyOff, "node reference: property named "+strconv.Quote(key))
		}
		return d.property(&keys, base, "node reference", key, keyOff)
	})
	if err != nil {
		return nil, err
	}
	return d.endProperties(&keys, base, "node reference")
}

// property reads the value of the property key, at keyOff, of a node
// whose properties so far are d.props[base:], after checking the key
// against MaxElements, MaxStringBytes and the keys before it; what names
// the node in errors ("node", "node reference").
func (d *decoder) property(keys *objectKeys, base int, what, key string, keyOff int) error {
	props := d.props[base:]
	if len(props) == d.l.MaxElements {
		return d.tooMany(keyOff, what+" properties")
	}
	if len(key) > d.l.MaxStringBytes {
		return d.tooLong(keyOff)
	}
	if keys.add(key, keyOff, func(i int) string { return props[i].Key }) {
		return d.errAt(keyOff, what+": duplicate property "+Excerpt(key))
	}
	v, err := d.value(key)
	d.props = append(d.props, Property{Key: key, Value: v})
	return err
}

// endProperties returns a copy of the node's properties, d.props[base:],
// once its object has been read, or the error for a repeated key that
// property could not find at once.
func (d *decoder) endProperties(keys *objectKeys, base int, what string) ([]Property, error) {
	if off, k, dup := keys.repeat(func(i int) string { return d.props[base+i].Key }); dup {
		return nil, d.errAt(off, what+": duplicate property "+Excerpt(k))
	}
	return d.keepProps(d.props[base:]), nil
}

// paginationKeys are the pagination fields in canonical order.
var paginationKeys = [...]string{"has_more", "total_rows", "truncated", "next_cursor"}

// pagination parses a pagination object: schema v2's {has_more,
// total_rows} or schema v5's {has_more, truncated, next_cursor?}, keys in
// any order. A mix of the two, or a shape that is missing a field its
// schema requires, is an error at the key that makes it a mix, or at the
// object when a field is missing (see Pagination.Schema).
func (d *decoder) pagination(p *Pagination) error {
	at := [len(paginationKeys)]int{-1, -1, -1, -1} // offset of each key, -1 when absent
	start := d.pos
	err := d.object("pagination", func(key string, keyOff int) error {
		k := 0
		for k < len(paginationKeys) && paginationKeys[k] != key {
			k++
		}
		if k == len(paginationKeys) {
			return d.errAt(keyOff, "pagination: unknown field "+Excerpt(key))
		}
		if at[k] >= 0 {
			return d.errAt(keyOff, "pagination: duplicate field "+Excerpt(key))
		}
		at[k] = keyOff
		var err error
		switch k {
		case 0:
			p.HasMore, err = d.boolean("pagination has_more")
		case 1:
			p.TotalRows.Int, err = d.integer("pagination total_rows")
			p.TotalRows.Valid = true
		case 2:
			p.Truncated.Bool, err = d.boolean("pagination truncated")
			p.Truncated.Valid = true
		case 3:
			p.NextCursor.String, err = d.str("next_cursor")
			p.NextCursor.Valid = true
		}
		return err
	})
	if err != nil {
		return err
	}
	if at[0] < 0 {
		return d.errAt(start, `pagination: missing "has_more"`)
	}
	if err := p.Check(); err != nil {
		// Point at the later of the keys that clash, or at the object
		// when a required field is missing.
		off := start
		switch {
		case at[1] >= 0 && at[2] >= 0:
			off = max(at[1], at[2])
		case at[1] >= 0 && at[3] >= 0:
			off = max(at[1], at[3])
		case at[3] >= 0:
			off = at[3]
		}
		return d.errAt(off, "pagination: "+err.Error())
	}
	return nil
}

// boolean parses true or false.
func (d *decoder) boolean(field string) (bool, error) {
	switch {
	case d.lit("true"):
		return true, nil
	case d.lit("false"):
		return false, nil
	}
	return false, d.expected("boolean for " + field)
}

func (d *decoder) lit(s string) bool {
	if len(d.data)-d.pos >= len(s) && string(d.data[d.pos:d.pos+len(s)]) == s {
		d.pos += len(s)
		return true
	}
	return false
}

// value parses a property or cell value: null, bool, number, string or a
// list of values.
func (d *decoder) value(field string) (Value, error) {
	switch c := d.peek(); {
	case c == '"':
		s, err := d.str(field)
		return String(s), err
	case c == 'n':
		if d.lit("null") {
			return Null(), nil
		}
	case c == 't':
		if d.lit("true") {
			return Bool(true), nil
		}
	case c == 'f':
		if d.lit("false") {
			return Bool(false), nil
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number(field)
	case c == '[':
		return d.list(field)
	case c == '{':
		return Value{}, d.errAt(d.pos, Excerpt(field)+": expected a value (null, boolean, number, string or array), found object")
	}
	return Value{}, d.expected("a value for " + Excerpt(field))
}

// list parses a list value, nested at most MaxDepth deep and of at most
// MaxElements items. It is array with error messages that quote field,
// which comes from the input.
func (d *decoder) list(field string) (Value, error) {
	if d.depth++; d.depth > d.l.MaxDepth {
		return Value{}, d.limitAt(d.pos, "MaxDepth", "lists nested more than "+strconv.Itoa(d.l.MaxDepth)+" deep (MaxDepth)")
	}
	d.pos++ // '['
	d.ws()
	var vs []Value
	if d.peek() == ']' {
		d.pos++
		d.depth--
		return ListOf(), nil
	}
	for {
		d.ws()
		if len(vs) == d.l.MaxElements {
			return Value{}, d.tooMany(d.pos, "list "+Excerpt(field))
		}
		v, err := d.value(field)
		if err != nil {
			return Value{}, err
		}
		vs = append(vs, v)
		d.ws()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return ListOf(vs...), nil
		default:
			return Value{}, d.expected("',' or ']' in the list " + Excerpt(field))
		}
	}
}

// scanNumber checks JSON number syntax at the current position and returns
// its end and whether it has a fraction or exponent.
func (d *decoder) scanNumber() (end int, isFloat bool, ok bool) {
	i := d.pos
	data := d.data
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return i, false, false
	}
	if i < len(data) && data[i] == '.' {
		isFloat = true
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return i, false, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		isFloat = true
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return i, false, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	return i, isFloat, true
}

func (d *decoder) number(field string) (Value, error) {
	start := d.pos
	end, isFloat, ok := d.scanNumber()
	if !ok {
		d.pos = end
		return Value{}, d.expected("a digit in number for " + Excerpt(field))
	}
	lit := d.data[start:end]
	if isFloat {
		f, err := strconv.ParseFloat(unsafe.String(&lit[0], len(lit)), 64)
		if err != nil && !math.IsInf(f, 0) {
			return Value{}, d.errAt(start, Excerpt(field)+": invalid number "+Excerpt(string(lit)))
		}
		if math.IsInf(f, 0) {
			return Value{}, d.errAt(start, Excerpt(field)+": number "+clip(lit)+" is out of float64 range")
		}
		d.pos = end
		return Float(f), nil
	}
	i, ok := parseInt(lit)
	if !ok {
		return Value{}, d.errAt(start, Excerpt(field)+": integer "+clip(lit)+" is out of int64 range")
	}
	d.pos = end
	return Int(i), nil
}

// integer parses a JSON integer number (no fraction, no exponent).
func (d *decoder) integer(field string) (int64, error) {
	start := d.pos
	end, isFloat, ok := d.scanNumber()
	if !ok || isFloat {
		if ok {
			return 0, d.errAt(start, field+": expected an integer, found "+clip(d.data[start:end]))
		}
		return 0, d.expected("an integer for " + field)
	}
	i, ok := parseInt(d.data[start:end])
	if !ok {
		return 0, d.errAt(start, field+": integer "+clip(d.data[start:end])+" is out of int64 range")
	}
	d.pos = end
	return i, nil
}

// parseInt parses -?(0|[1-9][0-9]*) exactly into an int64.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg = true
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if len(b) > 1 && b[0] == '0' {
		return 0, false
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

// id parses an id: a JSON string holding a decimal int64.
func (d *decoder) id(field string) (int64, error) {
	if d.peek() != '"' {
		return 0, d.expected("a decimal string for " + field)
	}
	start := d.pos
	end := start + 1
	for end < len(d.data) && d.data[end] != '"' && d.data[end] != '\\' && end-start < 24 {
		end++
	}
	if end < len(d.data) && d.data[end] == '"' {
		if i, ok := parseInt(d.data[start+1 : end]); ok {
			d.pos = end + 1
			return i, nil
		}
	}
	s, err := d.str(field)
	if err != nil {
		return 0, err
	}
	return 0, d.errAt(start, field+": expected a decimal int64 string, found "+Excerpt(s))
}

// name parses an object key.
func (d *decoder) name() (string, error) { return d.str("key") }

// enum parses a string whose value must be one of an enumeration's: its
// length is not bounded by MaxStringBytes (the caller compares the value).
func (d *decoder) enum(field string) (string, error) {
	if d.peek() != '"' {
		return "", d.expected("a string for " + field)
	}
	limit := d.l.MaxStringBytes
	d.l.MaxStringBytes = max(limit, 64)
	s, err := d.str(field)
	d.l.MaxStringBytes = limit
	return s, err
}

// name1 parses a string field value that is likely to repeat.
func (d *decoder) name1(field string) (string, error) {
	if d.peek() != '"' {
		return "", d.expected("a string for " + field)
	}
	return d.name()
}

// str parses a JSON string of at most MaxStringBytes once decoded.
// Invalid UTF-8 and lone surrogates become U+FFFD.
func (d *decoder) str(field string) (string, error) {
	if d.peek() != '"' {
		return "", d.expected("a string for " + Excerpt(field))
	}
	start := d.pos + 1
	i := start
	data := d.data
	// Fast path: no escapes, all ASCII or valid UTF-8.
	for i < len(data) {
		for i < len(data) && plainASCII[data[i]] {
			i++
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		if c == '"' {
			if i-start > d.l.MaxStringBytes {
				return "", d.tooLong(start - 1)
			}
			d.pos = i + 1
			return d.src[start:i], nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
			continue
		}
		i++
	}
	// Slow path. The decoded string is at most as long as the rest of the
	// literal, except where invalid bytes grow into U+FFFD.
	end := i
	for end < len(data) && data[end] != '"' {
		if data[end] == '\\' {
			end++
		}
		end++
	}
	if i-start > d.l.MaxStringBytes {
		return "", d.tooLong(start - 1)
	}
	// The decoded string is checked against MaxStringBytes as it grows, so
	// the buffer need not be larger than the limit.
	buf := make([]byte, i-start, min(min(end, len(data))-start, d.l.MaxStringBytes)+8)
	copy(buf, data[start:i])
	for i < len(data) {
		c := data[i]
		if len(buf) > d.l.MaxStringBytes {
			return "", d.tooLong(start - 1)
		}
		switch {
		case c == '"':
			d.pos = i + 1
			// buf is not used again: the string may share its memory.
			return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
		case c < 0x20:
			return "", d.errAt(i, "control character 0x"+strconv.FormatUint(uint64(c), 16)+" in string")
		case c == '\\':
			if i+1 >= len(data) {
				return "", d.errAt(len(data), "unterminated string")
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
				i += 2
			case 'b':
				buf = append(buf, '\b')
				i += 2
			case 'f':
				buf = append(buf, '\f')
				i += 2
			case 'n':
				buf = append(buf, '\n')
				i += 2
			case 'r':
				buf = append(buf, '\r')
				i += 2
			case 't':
				buf = append(buf, '\t')
				i += 2
			case 'u':
				r, ok := hex4(data, i+2)
				if !ok {
					return "", d.errAt(i, "invalid \\u escape")
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(-1), false
					if i+1 < len(data) && data[i] == '\\' && data[i+1] == 'u' {
						r2, ok2 = hex4(data, i+2)
					}
					if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				if e > 0x20 && e < 0x7f {
					return "", d.errAt(i, "invalid escape \\"+string(rune(e))+" in string")
				}
				return "", d.errAt(i, "invalid escape in string: backslash followed by byte 0x"+strconv.FormatUint(uint64(e), 16))
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				buf = append(buf, "\ufffd"...)
			} else {
				buf = append(buf, data[i:i+size]...)
			}
			i += size
		default:
			buf = append(buf, c)
			i++
		}
	}
	return "", d.errAt(len(data), "unterminated string")
}

// tooLong is the error for the string at off, past MaxStringBytes.
func (d *decoder) tooLong(off int) error {
	return d.limitAt(off, "MaxStringBytes", "a string longer than "+strconv.Itoa(d.l.MaxStringBytes)+" bytes (MaxStringBytes)")
}

// Excerpt quotes s for an error message, cut to its first 64 bytes (at a
// UTF-8 boundary) with "..." after the closing quote when cut, so that no
// message quotes much of a hostile input.
func Excerpt(s string) string {
	const max = 64
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > max-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

// clip returns a number's literal for an error message, cut to its first
// 64 bytes with "..." after when cut.
func clip(lit []byte) string {
	if len(lit) > 64 {
		return string(lit[:64]) + "..."
	}
	return string(lit)
}

// plainASCII[c] is true for the bytes a string holds as they are: ASCII
// other than '"', '\\' and control characters.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
