package gcfvalue

import (
	"slices"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/internal/keyset"
)

func itoa(n int) string { return strconv.Itoa(n) }

// arrHeader is a parsed count bracket and what follows it on the line.
type arrHeader struct {
	at       int // index of '[' in the line's content
	count    int
	deferred bool // [?]
	keyed    bool // [N:]
	fields   []field
	hasDecl  bool
	inline   bool // [N]: values
	vals     int  // index of the values of an inline array
	slot     int  // index into d.deferred of a [?] section
}

// bracket parses the count bracket at index i of l's content and the rest
// of the line ("[N]", "[?]", "[N:]", then "{fields}", or ": values").
func (d *decoder) bracket(l *line, i int) arrHeader {
	c := l.Text
	h := arrHeader{at: i}
	j := strings.IndexByte(c[i:], ']')
	if c[i] != '[' || j < 0 {
		d.failIn(l, i, KindSyntax, "expected a count bracket [N]")
	}
	inner := c[i+1 : i+j]
	if strings.HasSuffix(inner, ":") {
		h.keyed = true
		inner = inner[:len(inner)-1]
	}
	if inner == "?" {
		h.deferred = true
	} else {
		n, ok := ParseCount(inner)
		if !ok {
			d.failIn(l, i+1, KindInvalidCount, "a count is 0, a decimal without leading zeros, or ?: "+excerpt(inner))
		}
		if n > d.lim.maxElements {
			d.failLimitIn(l, i+1, "MaxElements", "a count of "+inner+", more than the limit of "+itoa(d.lim.maxElements))
		}
		h.count = n
	}
	i += j + 1
	if i < len(c) && c[i] == '{' {
		h.fields, i = d.decl(l, i)
		h.hasDecl = true
	}
	if i < len(c) && c[i] == ':' && !h.keyed && !h.hasDecl {
		h.inline = true
		i++
		if i < len(c) {
			if c[i] != ' ' {
				d.failIn(l, i, KindSyntax, "expected a space after the colon of an inline array")
			}
			i++
		}
		h.vals = i
		i = len(c)
	}
	if i != len(c) {
		d.failIn(l, i, KindSyntax, "unexpected characters after the array header: "+excerpt(c[i:]))
	}
	if h.keyed && !h.hasDecl {
		d.failIn(l, h.at, KindSyntax, "a keyed table [N:] needs its field declaration {key,...}")
	}
	if h.deferred {
		h.slot = len(d.deferred)
		d.deferred = append(d.deferred, deferredCount{line: l.Num})
	}
	return h
}

// emptyArray is an empty array's value, boxed once.
var emptyArray Value = []Value{}

// decl parses the field declaration "{a,"b c",@id}" at index i of l's
// content (spec §2a.3, §10a.1) and returns it and the index after it.
func (d *decoder) decl(l *line, i int) ([]field, int) {
	c := l.Text
	out := d.declBuf()
	if e := d.declRead(c[i:]); e != nil {
		out = append(out, e.fields...)
		d.charge(l, memField*int64(len(out)))
		d.declBufs[d.depth] = out
		return out, i + len(e.text)
	}
	start := i
	if n := strings.Count(c[i:], ",") + 1; cap(out) < n { // the names, or more
		out = make([]field, 0, n)
	}
	var seq keyset.Seq
	name := func(k int) string { return out[k].name }
	i++
	for {
		f := field{}
		if i < len(c) && c[i] == '@' {
			if d.idField == "" {
				d.failIn(l, i, KindSyntax, "an @ identity field needs key= in the header")
			}
			f.id = true
			i++
		}
		at := i
		f.name, i = d.key(l, i)
		f.gt = strings.IndexByte(f.name, '>') >= 0
		if f.id && f.name != d.idField {
			d.failIn(l, at, KindSyntax, "the @ identity field "+excerpt(f.name)+" is not the header's key="+d.idField)
		}
		if len(out) >= d.lim.maxFields {
			d.failLimitIn(l, at, "MaxElements", "more fields than the limit of "+itoa(d.lim.maxFields))
		}
		if seq.Add(f.name, name) {
			d.failIn(l, at, KindDuplicateFieldName, "duplicate field name "+excerpt(f.name))
		}
		d.charge(l, memField)
		out = append(out, f)
		if i >= len(c) {
			d.failIn(l, i, KindSyntax, "a field declaration without its closing }")
		}
		if c[i] == '}' {
			break
		}
		if c[i] != ',' {
			d.failIn(l, i, KindSyntax, "expected , or } in a field declaration")
		}
		i++
	}
	if k := seq.Repeat(name); k >= 0 {
		d.failIn(l, i, KindDuplicateFieldName, "duplicate field name "+excerpt(out[k].name))
	}
	ids := 0
	for _, f := range out {
		if f.id {
			ids++
		}
	}
	if ids > 1 {
		d.failIn(l, i, KindSyntax, "more than one @ identity field")
	}
	d.declBufs[d.depth] = out // its room, for the next declaration
	e := &d.declSeen[d.declNext]
	d.declNext = (d.declNext + 1) % len(d.declSeen)
	e.text, e.fields = c[start:i+1], append(e.fields[:0], out...)
	return out, i + 1
}

// declEntry is a field declaration read before: its text and fields.
type declEntry struct {
	text   string
	fields []field
}

// declRead returns the declaration read before that c starts with, or
// nil: a list of tables repeats a few declarations, each parsed once.
// The fields parsed from the same text are the same.
func (d *decoder) declRead(c string) *declEntry {
	for k := range d.declSeen {
		if e := &d.declSeen[k]; e.text != "" && strings.HasPrefix(c, e.text) {
			return e
		}
	}
	return nil
}

// declBuf returns the empty buffer of the field declaration of a table
// at the current depth: one buffer a depth, reused (a shared array
// schema, which outlives its table, is a copy).
func (d *decoder) declBuf() []field {
	for len(d.declBufs) <= d.depth {
		d.declBufs = append(d.declBufs, nil)
	}
	return d.declBufs[d.depth][:0]
}

// sharedDecl is a table's field's shared array schema (spec §7.4.5.3).
type sharedDecl struct {
	set    bool
	fields []field
}

// arrayFromHeader reads the array whose count bracket is at index i of
// the consumed line l, its rows or items at bodyDepth. sh is the field's
// shared array schema when the array is a row's attachment.
func (d *decoder) arrayFromHeader(l *line, i, bodyDepth int, sh *sharedDecl) Value {
	h := d.bracket(l, i)
	d.enter(l)
	defer d.leave()
	var v Value
	switch {
	case h.keyed:
		if len(h.fields) < 2 {
			d.failIn(l, h.at, KindSyntax, "a keyed table needs at least two fields (the key column and a value field)")
		}
		if !h.deferred && h.count == 0 {
			d.failIn(l, h.at, KindInvalidCount, "a keyed table with a zero count [0:]; an empty object is written as a section")
		}
		v = d.table(l, &h, bodyDepth)
	case h.inline:
		v = d.inlineArray(l, h)
		d.prevBlock = blockArray
	case h.hasDecl:
		if sh != nil && !sh.set {
			sh.set, sh.fields = true, slices.Clone(h.fields)
		}
		v = d.table(l, &h, bodyDepth)
	case !h.deferred && h.count == 0:
		v = emptyArray
		d.prevBlock = blockArray
	case sh != nil && sh.set:
		h.fields = sh.fields
		v = d.table(l, &h, bodyDepth)
	default:
		v = d.expanded(l, &h, bodyDepth)
	}
	return v
}

// inlineArray reads the values of "[N]: a,b,c" (spec §7.5).
func (d *decoder) inlineArray(l *line, h arrHeader) Value {
	if h.keyed || h.hasDecl {
		d.failIn(l, h.at, KindSyntax, "an inline array has no field declaration")
	}
	if d.inSink {
		v := d.scalarList(l, h.vals)
		d.checkCount(l, &h, len(v.Items))
		return v
	}
	if h.vals >= len(l.Text) {
		d.checkCount(l, &h, 0)
		return emptyArray
	}
	d.charge(l, memArray)
	out := make([]Value, 0, min(h.count, 64))
	_, n := d.scalars(l, h.vals, ',', false, nil, 0, &out)
	d.checkCount(l, &h, n)
	return out
}

// checkCount checks the n items of an array against its header (§13).
func (d *decoder) checkCount(l *line, h *arrHeader, n int) {
	if h.deferred {
		d.deferred[h.slot].n = n
		return
	}
	if n != h.count {
		d.failIn(l, h.at, KindCountMismatch, "the array declares "+itoa(h.count)+" items and holds "+itoa(n))
	}
}

// more reports whether the item after the n-th of h, at depth, follows.
func (d *decoder) more(h *arrHeader, n, depth int) bool {
	if !h.deferred && n == h.count {
		return false
	}
	l := d.peek()
	if l == nil || l.Depth < depth {
		return false
	}
	if l.Depth > depth {
		d.failIn(l, 0, KindInvalidIndent, "indented more than one level deeper than the line above")
	}
	if h.deferred && strings.HasPrefix(l.Text, "##") {
		return false
	}
	if h.deferred && n >= d.lim.maxElements {
		d.failLimitIn(l, 0, "MaxElements", "an array of more items than the limit of "+itoa(d.lim.maxElements))
	}
	return true
}

// itemLine returns the slot of the item line being read at the current
// depth: kept in the decoder rather than in expanded's frame, which the
// recursion would move to the heap once per item.
func (d *decoder) itemLine() *line {
	for len(d.itemLines) <= d.depth {
		d.itemLines = append(d.itemLines, line{})
	}
	return &d.itemLines[d.depth]
}

// expanded reads the items of an expanded array (spec §7.6) at depth.
func (d *decoder) expanded(hl *line, h *arrHeader, depth int) Value {
	out := make([]Value, 0, min(h.count, 64))
	for n := 0; d.more(h, n, depth); n++ {
		l := d.itemLine()
		*l = *d.read()
		c, j := l.Text, d.itemID(l, n)
		if j <= 0 {
			d.failIn(l, 0, KindSyntax, "expected item @"+itoa(n)+" followed by =value, {}, or [count]")
		}
		var v Value
		d.push("")
		switch {
		case j < len(c) && c[j] == '=':
			v = d.scalar(l, j+1)
		case c[j:] == "{}":
			v = d.members(*l, depth+1)
		case j < len(c) && c[j] == '[':
			v = d.arrayFromHeader(l, j, depth+1, nil)
		default:
			d.failIn(l, j, KindSyntax, "expected =value, {}, or [count] after the item id")
		}
		d.pop()
		d.charge(l, memItem)
		out = append(out, v)
	}
	d.checkCount(hl, h, len(out))
	d.prevBlock = blockArray
	return out
}

// summary reads a "##! summary" trailer (spec §8.4).
func (d *decoder) summary(l *line) {
	c := l.Text
	if c != "##! summary" && !strings.HasPrefix(c, "##! summary ") {
		d.failIn(l, 0, KindSyntax, "a ##! line that is not a summary trailer: "+excerpt(c))
	}
	d.summaryLine = l.Num
	for _, f := range strings.Fields(c[len("##! summary"):]) {
		eq := strings.IndexByte(f, '=')
		if eq <= 0 {
			d.failIn(l, 0, KindMalformedHeaderField, "a summary field is key=value: "+excerpt(f))
		}
		if f[:eq] != "counts" {
			continue
		}
		d.summaryCounts = []int{}
		for _, s := range strings.Split(f[eq+1:], ",") {
			n, ok := ParseCount(s)
			if !ok {
				d.failIn(l, 0, KindInvalidCount, "a summary count is a decimal integer: "+excerpt(s))
			}
			if len(d.summaryCounts) >= d.lim.maxElements {
				d.failLimitIn(l, 0, "MaxElements", "more summary counts than the limit of "+strconv.Itoa(d.lim.maxElements))
			}
			d.summaryCounts = append(d.summaryCounts, n)
		}
	}
}
