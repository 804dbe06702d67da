package json

import (
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

type decoder struct {
	data  []byte
	src   string // data as a string, for substrings
	pos   int
	depth int // list nesting
	l     wire.Limits
	m     wirecodec.Meter
	// fragment reads a document's content (see decoder.response).
	fragment bool

	strs []byte // the chunk unescaped strings are written to (see str)
	// escaped says a string read since the last part charged to m was
	// not taken as it was from the input (see cleanCharge).
	escaped bool
	props   []wire.Property // scratch for the properties of the node being read
	cells   []wire.Cell     // scratch for the cells of the row being read

	// Where the response's property lists, rows and node references are
	// kept: a few backing arrays rather than an allocation each.
	keptProps slab[wire.Property]
	keptCells slab[wire.Cell]
	keptNodes slab[wire.Node]
}

// keepProps returns a copy of ps with its length for capacity.
func (d *decoder) keepProps(ps []wire.Property) []wire.Property {
	if len(ps) == 0 {
		return nil
	}
	return d.keptProps.keep(ps)
}

// A slab hands out copies of slices, and new elements, from backing arrays
// it allocates a chunk at a time: a decoded response's many small slices
// cost a few allocations rather than one each. Each chunk is sized by what
// has been read so far (twice the last, from slabMin up to slabMax
// elements, or one slice's length when that is more), never by a count
// the input declares, so the spare room at most doubles what was read.
// A slice handed out has its length for capacity: appending to it copies
// it rather than overwriting its neighbour. A chunk lives as long as any
// slice of it does.
type slab[T any] struct{ buf []T }

const slabMin, slabMax = 16, 1024

// room makes room for n more elements in s.buf.
func (s *slab[T]) room(n int) {
	if cap(s.buf)-len(s.buf) >= n {
		return
	}
	size := min(max(2*cap(s.buf), slabMin), slabMax)
	s.buf = make([]T, 0, max(size, n))
}

// keep returns a copy of xs from the slab.
func (s *slab[T]) keep(xs []T) []T {
	s.room(len(xs))
	i := len(s.buf)
	s.buf = append(s.buf, xs...)
	return s.buf[i:len(s.buf):len(s.buf)]
}

// next returns a new zero element from the slab.
func (s *slab[T]) next() *T {
	s.room(1)
	var zero T
	s.buf = append(s.buf, zero)
	return &s.buf[len(s.buf)-1]
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
	return &wire.DecodeError{Codec: "json", Offset: int64(off), Msg: msg}
}

// limitAt is errAt for a refusal by the Limits field limit.
func (d *decoder) limitAt(off int, limit, msg string) error {
	return &wire.DecodeError{Codec: "json", Offset: int64(off), Msg: msg, Limit: limit}
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

// object parses an object at the current position, calling fn with the
// key, and the key's offset, with the position at each value.
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
// Invalid UTF-8 and lone surrogates become U+FFFD. A string without
// escapes shares the memory of d.src; one with escapes is unescaped into
// d.strs, a chunk of memory shared by many strings. Anything else (a
// control character, invalid UTF-8 with escapes, an unterminated string,
// a bad escape, a string whose text may pass MaxStringBytes) is
// textwire.JSONString's, which gives the error.
func (d *decoder) str(field string) (string, error) {
	if d.peek() != '"' {
		return "", d.expected("a string for " + textwire.Excerpt(field))
	}
	if end, esc, ok := d.literal(); ok && end-d.pos-1 <= d.l.MaxStringBytes {
		raw := d.src[d.pos+1 : end]
		if !esc {
			d.pos = end + 1
			return raw, nil
		}
		// The text of raw is no longer than raw: each escape stands for
		// fewer bytes than it takes, and raw is valid UTF-8.
		d.escaped = true
		dst := d.strRoom(len(raw))
		if out, err := textwire.JSONUnescaping.Unescape(dst, raw); err == nil {
			d.strs = out
			d.pos = end + 1
			text := out[len(dst):]
			// Sound: the bytes of text are not written again; d.strs only
			// grows past them, or is replaced by a new chunk.
			return unsafe.String(unsafe.SliceData(text), len(text)), nil
		}
	}
	d.escaped = true
	s, end, err := textwire.JSONString(d.data, d.src, d.pos, d.l.MaxStringBytes)
	if err != nil {
		if err.TooLong {
			return "", d.tooLong(err.Off)
		}
		return "", d.errAt(err.Off, err.Msg)
	}
	d.pos = end
	return s, nil
}

// literal finds the end of the string literal at d.pos, eight bytes at a
// time between escapes: the offset of its closing quote, whether it holds
// an escape, and ok when it is closed, holds no control character and is
// valid UTF-8.
func (d *decoder) literal() (end int, esc, ok bool) {
	s := d.src
	var hi uint64
	i := d.pos + 1
	for {
		for {
			if i+8 > len(s) {
				for ; i < len(s) && !jsonSpecial[s[i]]; i++ {
					hi |= uint64(s[i])
				}
				break
			}
			x := textwire.Load8(s, i)
			hi |= x // perhaps bytes past a quote too: at worst a needless UTF-8 check
			if m := textwire.EscMask(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			return 0, false, false
		}
		switch c := s[i]; {
		case c == '"':
			if hi&textwire.Highs != 0 && !utf8.ValidString(s[d.pos+1:i]) {
				return 0, false, false
			}
			return i, esc, true
		case c == '\\':
			esc = true
			i += 2
		default: // a control character
			return 0, false, false
		}
	}
}

// Chunks of d.strs: each twice the last, from strChunkMin up to
// strChunkMax bytes (or one string's length when that is more), so the
// spare room is at most what has been read.
const strChunkMin, strChunkMax = 512, 64 << 10

// strRoom returns d.strs with room for n more bytes, in a new chunk when
// the current one has too little.
func (d *decoder) strRoom(n int) []byte {
	if cap(d.strs)-len(d.strs) < n {
		size := min(max(2*cap(d.strs), strChunkMin), strChunkMax)
		d.strs = make([]byte, 0, max(size, n))
	}
	return d.strs
}

// tooLong is the error for the string at off, past MaxStringBytes.
func (d *decoder) tooLong(off int) error {
	return d.limitAt(off, "MaxStringBytes", "a string longer than "+strconv.Itoa(d.l.MaxStringBytes)+" bytes (MaxStringBytes)")
}
