package json

import (
	"slices"
	"strings"
)

// presizeMin is the length from which a sequence the decoder is reading
// (a list value, a node's properties, rows) is sized from its rest
// rather than grown by append: append's growth would leave garbage
// several times what the sequence holds, and a dense sequence (one-digit
// list items, one-int rows) holds up to twelve times its input in
// memory, so the decoder's peak must not be a multiple of it. Nodes and
// edges, which take at least 20 bytes of input each, grow by append: the
// count would cost a pass over the section for garbage within the bound.
const presizeMin = 64

// grown returns s, which holds n elements of the sequence being read,
// with room for the rest of that sequence when it is full and n is at
// least presizeMin: counted by rest from the current position, at most
// MaxElements in all (the decoder refuses the one past). The allocation
// is bounded by the input, each element taking at least a byte and its
// separator.
func grown[T any](d *decoder, s []T, n int) []T {
	if len(s) < cap(s) || n < presizeMin {
		return s
	}
	return slices.Grow(s, max(min(d.rest(), d.l.MaxElements-n), 1))
}

// rest counts the elements of the array or object being read from the
// current position, inside one of its elements (or a member's value) or
// just after one, to its end: one, and one more for each separator at
// its level that follows something other than whitespace, so that each
// element counted takes at least two bytes of the input. It reads no
// more than the sequence and checks nothing, the parse that follows
// does; each sequence is counted at most once by grown, so the cost is
// one pass over the long sequences, once per level of nesting.
func (d *decoder) rest() int {
	s := d.src
	n, depth := 1, 0
	filled := true // the element before the next separator has a byte
	for i := d.pos; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			i = closingQuote(s, i+1)
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
