package binary

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
)

// source reads the items of one encoding in place, in either format, one
// per call of next, checking each declared length before anything is
// allocated for it.
type source struct {
	data []byte
	// text is data as a string, made once: string items are substrings.
	text   string
	off    int
	start  int // offset of the item last read
	format Format
	b      *bounds
	lim    *wire.Limits
	// pending counts the elements open arrays have declared and not yet
	// read: a new array may declare no more than the bytes left less
	// pending, so nested arrays cannot claim the same bytes twice.
	pending int
	// maps lets the next item be a map head, a document's (head.go).
	maps bool
}

func (s *source) reset(data []byte, f Format, c *Codec) {
	*s = source{data: data, format: f}
	if c != nil {
		s.text, s.b, s.lim = string(data), &c.b, &c.core.Limits
	}
}

// left is the number of bytes not yet read.
func (s *source) left() int { return len(s.data) - s.off }

// next reads the next item into t. Its errors are *wire.DecodeError.
func (s *source) next(t *token) error {
	s.start = s.off
	if s.pending > 0 {
		s.pending-- // this item is an element of an open array
	}
	if s.off >= len(s.data) {
		return s.failAt(s.off, "unexpected end of input", nil)
	}
	if s.format == CBOR {
		return s.nextCBOR(t)
	}
	return s.nextMsgpack(t)
}

// uintAt reads the big-endian integer of size bytes after the head byte
// at s.off; false when the input ends first.
func (s *source) uintAt(size int) (uint64, bool) {
	p := s.off + 1
	if len(s.data)-p < size {
		return 0, false
	}
	b := s.data[p : p+size]
	switch size {
	case 1:
		return uint64(b[0]), true
	case 2:
		return uint64(binary.BigEndian.Uint16(b)), true
	case 4:
		return uint64(binary.BigEndian.Uint32(b)), true
	}
	return binary.BigEndian.Uint64(b), true
}

// str reads the n bytes of a string item whose head takes h bytes.
func (s *source) str(t *token, n uint64, h int) error {
	if _, err := s.declared(n, h, s.b.maxString, "MaxStringBytes", "string of %d bytes", s.lim.MaxStringBytes); err != nil {
		return err
	}
	p := s.off + h
	b := s.data[p : p+int(n)]
	if !utf8.Valid(b) {
		return s.fail("string is not valid UTF-8")
	}
	t.kind, t.s = kString, s.text[p:p+int(n)]
	s.off = p + int(n)
	return nil
}

// declared checks a length n that a head of h bytes declares against
// bound (limit, whose value is max) and the bytes left, which it returns.
func (s *source) declared(n uint64, h, bound int, limit, noun string, max int) (int, error) {
	left := len(s.data) - s.off - h
	switch {
	case n > uint64(bound):
		return left, s.failLimit(limit, fmt.Sprintf(noun+" exceeds the limit of %d", n, max))
	case n > uint64(left):
		return left, s.fail(fmt.Sprintf(noun+" runs past the end of input (%d bytes left)", n, left))
	}
	return left, nil
}

// array reads an array head of h bytes declaring n elements.
func (s *source) array(t *token, n uint64, h int) error {
	left, err := s.declared(n, h, s.b.maxArray, "MaxElements", "array of %d items", s.lim.MaxElements)
	switch {
	case err != nil:
		return err
	case int(n) > left-s.pending:
		return s.fail(fmt.Sprintf("array of %d elements does not fit in the %d bytes left after the %d elements already declared", n, left, s.pending))
	}
	s.pending += int(n)
	s.off += h
	t.kind, t.i = kArray, int64(n)
	return nil
}

// mapHead reads a map head of h bytes declaring n entries; the caller
// (headReader.object) bounds n before reading any entry.
func (s *source) mapHead(t *token, n uint64, h int) error {
	t.kind, t.i = kMap, int64(min(n, math.MaxInt64))
	s.off += h
	return nil
}
