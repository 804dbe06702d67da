package jsonvalue

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

const strChunkMin, strChunkMax = 512, 64 << 10

// A Scanner reads JSON text (RFC 8259) token by token, each at its byte
// offset: the module's one JSON scanner, under Parse and the json codec
// (codecs/json). The caller says which token comes next and keeps what it
// builds; errors are *wire.DecodeError at a byte offset, quoting at most
// textwire.MaxExcerpt bytes. It copies its input once: a string without
// escapes is a substring of that copy, others are unescaped into chunks
// shared by many strings (512 bytes doubling up to 64 KiB).
type Scanner struct {
	src string
	// Pos is the offset of the next byte to read.
	Pos int
	// Escaped is set by a string read that is not the text of its literal
	// as it stands in the input (it had an escape or invalid UTF-8); the
	// caller clears it.
	Escaped bool
	depth   int
	strs    []byte // the chunk unescaped strings are written to
}

// NewScanner returns a Scanner at the start of data, which it copies.
func NewScanner(data []byte) Scanner { return Scanner{src: string(data)} }

// Len returns the length of the input.
func (s *Scanner) Len() int { return len(s.src) }

// Text returns the input from offset i to j.
func (s *Scanner) Text(i, j int) string { return s.src[i:j] }

// Err is a *wire.DecodeError at offset off.
func (s *Scanner) Err(off int, msg string) error {
	return &wire.DecodeError{Codec: codecName, Offset: int64(off), Msg: msg}
}

// LimitErr is Err for a refusal by the wire.Limits field limit.
func (s *Scanner) LimitErr(off int, limit, msg string) error {
	return &wire.DecodeError{Codec: codecName, Offset: int64(off), Msg: msg, Limit: limit}
}

// Expected is the error for a token other than what at the position.
func (s *Scanner) Expected(what string) error {
	return s.Err(s.Pos, "expected "+what+", found "+s.Found())
}

// Found describes the token at the position, for error messages.
func (s *Scanner) Found() string {
	switch c := s.Peek(); {
	case s.Pos >= len(s.src):
		return "end of input"
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
	default:
		return "byte 0x" + strconv.FormatUint(uint64(c), 16)
	}
}

// Space skips white space (space, tab, LF, CR).
func (s *Scanner) Space() {
	for s.Pos < len(s.src) {
		switch s.src[s.Pos] {
		case ' ', '\t', '\n', '\r':
			s.Pos++
		default:
			return
		}
	}
}

// Peek returns the byte at the position, or 0 at the end.
func (s *Scanner) Peek() byte {
	if s.Pos < len(s.src) {
		return s.src[s.Pos]
	}
	return 0
}

// End refuses anything but white space after the value read, what.
func (s *Scanner) End(what string) error {
	s.Space()
	if s.Pos < len(s.src) {
		return s.Err(s.Pos, "unexpected data after the "+what+": "+s.Found())
	}
	return nil
}

// Literal reads word (true, false, null) when it is at the position.
func (s *Scanner) Literal(word string) bool {
	if strings.HasPrefix(s.src[s.Pos:], word) {
		s.Pos += len(word)
		return true
	}
	return false
}

// Enter counts one more level of nesting, which what names in the error
// past max levels (wire.Limits' MaxDepth); Leave counts one less.
func (s *Scanner) Enter(max int, what string) error {
	if s.depth++; s.depth > max {
		return s.LimitErr(s.Pos, "MaxDepth", what+" nested more than "+strconv.Itoa(max)+" deep (MaxDepth)")
	}
	return nil
}

// Leave ends a level of nesting Enter counted.
func (s *Scanner) Leave() { s.depth-- }

// Open reads the '{' or '[' open of an object or array, named in errors
// "<what> object" or "<what> array", and the white space after it. more
// reports that an element follows; an empty object or array is read to
// its end.
func (s *Scanner) Open(open byte, what string) (more bool, err error) {
	if s.Peek() != open {
		if open == '{' {
			return false, s.Expected(what + " object")
		}
		return false, s.Expected(what + " array")
	}
	s.Pos++
	s.Space()
	if s.Peek() == open+2 { // '}' or ']'
		s.Pos++
		return false, nil
	}
	return true, nil
}

// Next reads what follows an element of the object or array what, which
// close ends: a ',' and white space (more is true) or close.
func (s *Scanner) Next(close byte, what string) (more bool, err error) {
	s.Space()
	switch s.Peek() {
	case ',':
		s.Pos++
		s.Space()
		return true, nil
	case close:
		s.Pos++
		return false, nil
	}
	return false, s.Expected("',' or '" + string(rune(close)) + "' in " + what)
}

// Key reads an object key of at most max bytes, the ':' after it and
// white space, and returns the key and its offset.
func (s *Scanner) Key(max int) (key string, off int, err error) {
	off = s.Pos
	if s.Peek() != '"' {
		return "", off, s.Expected("object key")
	}
	if key, err = s.String(max); err != nil {
		return "", off, err
	}
	s.Space()
	if s.Peek() != ':' {
		return "", off, s.Expected("':' after object key")
	}
	s.Pos++
	s.Space()
	return key, off, nil
}

// Number reads a number literal, for what in errors: its text, and
// whether it has a fraction or an exponent (textwire.ScanNumber's
// grammar, every text codec's).
func (s *Scanner) Number(what string) (lit string, isFloat bool, err error) {
	start := s.Pos
	end, isFloat, ok := textwire.ScanNumber(s.src, start)
	s.Pos = end
	if !ok {
		return "", false, s.Expected("a digit in number for " + textwire.Excerpt(what))
	}
	return s.src[start:end], isFloat, nil
}

// String reads a string of at most max bytes once decoded. Invalid UTF-8
// and lone surrogates become U+FFFD. What the fast scan below does not
// take (a control character, invalid UTF-8, an unterminated string, a bad
// escape, a text that may pass max) is textwire.JSONString's, which gives
// the error.
func (s *Scanner) String(max int) (string, error) {
	if s.Peek() != '"' {
		return "", s.Expected("a string")
	}
	if end, esc, ok := s.literal(); ok && end-s.Pos-1 <= max {
		raw := s.src[s.Pos+1 : end]
		if !esc {
			s.Pos = end + 1
			return raw, nil
		}
		// The text of raw is no longer than raw: each escape stands for
		// fewer bytes than it takes, and raw is valid UTF-8.
		s.Escaped = true
		dst := s.strRoom(len(raw))
		if out, err := textwire.JSONUnescaping.Unescape(dst, raw); err == nil {
			s.strs = out
			s.Pos = end + 1
			text := out[len(dst):]
			// Sound: the bytes of text are not written again; s.strs only
			// grows past them, or is replaced by a new chunk.
			return unsafe.String(unsafe.SliceData(text), len(text)), nil
		}
	}
	s.Escaped = true
	data := unsafe.Slice(unsafe.StringData(s.src), len(s.src)) // read, never written
	str, end, err := textwire.JSONString(data, s.src, s.Pos, max)
	if err != nil {
		if err.TooLong {
			return "", s.LimitErr(err.Off, "MaxStringBytes", "a string longer than "+strconv.Itoa(max)+" bytes (MaxStringBytes)")
		}
		return "", s.Err(err.Off, err.Msg)
	}
	s.Pos = end
	return str, nil
}

// literal finds the end of the string literal at the position, eight
// bytes at a time between escapes: the offset of its closing quote,
// whether it holds an escape, and ok when it is closed, holds no control
// character and is valid UTF-8.
func (s *Scanner) literal() (end int, esc, ok bool) {
	src := s.src
	var hi uint64
	i := s.Pos + 1
	for {
		for {
			if i+8 > len(src) {
				for ; i < len(src) && src[i] >= 0x20 && src[i] != '"' && src[i] != '\\'; i++ {
					hi |= uint64(src[i])
				}
				break
			}
			x := textwire.Load8(src, i)
			hi |= x // perhaps bytes past a quote too: at worst a needless UTF-8 check
			if m := textwire.EscMask(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(src) {
			return 0, false, false
		}
		switch c := src[i]; {
		case c == '"':
			if hi&textwire.Highs != 0 && !utf8.ValidString(src[s.Pos+1:i]) {
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

// strRoom returns s.strs with room for n more bytes, in a new chunk when
// the current one has too little: each twice the last, from strChunkMin
// up to strChunkMax bytes (or n when that is more).
func (s *Scanner) strRoom(n int) []byte {
	if cap(s.strs)-len(s.strs) < n {
		size := min(max(2*cap(s.strs), strChunkMin), strChunkMax)
		s.strs = make([]byte, 0, max(size, n))
	}
	return s.strs
}

// Remaining counts the elements of the array or object being read, from
// inside one of its elements (or a member's value) or just after one, to
// its end: one, and one for each separator at its level that follows
// something other than white space, so each takes two bytes of input at
// least. It checks nothing; the reading that follows does.
func (s *Scanner) Remaining() int {
	src := s.src
	n, depth := 1, 0
	filled := true // the element before the next separator has a byte
	for i := s.Pos; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			i = closingQuote(src, i+1)
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				if filled {
					n++
				}
				filled = false
				continue
			}
		}
		filled = true
	}
	return n
}

// closingQuote returns the offset of the quote that closes the string
// whose text starts at i, or len(s) when none does.
func closingQuote(s string, i int) int {
	for {
		q := strings.IndexByte(s[i:], '"')
		if q < 0 {
			return len(s)
		}
		i += q
		back := 0
		for back < i && s[i-1-back] == '\\' {
			back++
		}
		if back%2 == 0 {
			return i
		}
		i++
	}
}
