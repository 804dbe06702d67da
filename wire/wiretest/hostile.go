package wiretest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"iter"
	"strconv"
)

// Input is one hostile input: its class, how it was made, and its bytes.
type Input struct {
	Class, Name string
	Data        []byte
}

// The hostile-input classes.
const (
	ClassPrefix  = "prefix"  // every prefix of a valid encoding
	ClassFlip    = "flip"    // single-byte changes of a valid encoding
	ClassLength  = "length"  // declared lengths of 2^31, 2^32 and 2^62
	ClassNesting = "nesting" // nesting 100,000 deep
	ClassUTF8    = "utf8"    // invalid UTF-8
	ClassNUL     = "nul"     // NUL bytes
	ClassBig     = "big"     // a valid prefix repeated to 64 MiB
)

// Classes lists the hostile-input classes in the order Hostile yields them.
func Classes() []string {
	return []string{ClassPrefix, ClassFlip, ClassLength, ClassNesting, ClassUTF8, ClassNUL, ClassBig}
}

// NestingDepth is the depth of the nesting inputs.
const NestingDepth = 100_000

// Big declared lengths: 2^31, 2^32 and 2^62.
var bigLengths = []uint64{1 << 31, 1 << 32, 1 << 62}

// Hostile returns the hostile inputs made from valid encodings in the
// codec under test, ClassBig ones of bigSize bytes, built as the sequence
// is read. They know nothing of the format: each class applies every
// format's way of going wrong (text numbers, MessagePack and CBOR length
// heads, every opener) at evenly spaced places of each encoding.
func Hostile(valid [][]byte, bigSize int) iter.Seq[Input] {
	return func(yield func(Input) bool) {
		for _, class := range Classes() {
			if !hostileClass(class, valid, bigSize, yield) {
				return
			}
		}
	}
}

func hostileClass(class string, valid [][]byte, bigSize int, yield func(Input) bool) bool {
	emit := func(name string, data []byte) bool { return yield(Input{Class: class, Name: name, Data: data}) }
	switch class {
	case ClassPrefix:
		for vi, v := range valid {
			for _, i := range spread(len(v), 4096) {
				if !emit(fmt.Sprintf("valid[%d][:%d]", vi, i), bytes.Clone(v[:i])) {
					return false
				}
			}
		}
	case ClassFlip:
		for vi, v := range valid {
			for _, p := range spread(len(v), 1024) {
				for _, mask := range []byte{0xff, 1 << (p % 8)} {
					d := bytes.Clone(v)
					d[p] ^= mask
					if !emit(fmt.Sprintf("valid[%d] with byte %d XOR 0x%02x", vi, p, mask), d) {
						return false
					}
				}
			}
		}
	case ClassLength:
		if !lengthHeaders(emit) {
			return false
		}
		for vi, v := range valid {
			if !lengthInputs(vi, v, emit) {
				return false
			}
		}
	case ClassNesting:
		for _, u := range nestingUnits {
			if !emit(fmt.Sprintf("%q × %d", u, NestingDepth), bytes.Repeat([]byte(u), NestingDepth)) {
				return false
			}
		}
		if !emit("4096 levels of indented \"k:\" lines", indentBomb(4096)) {
			return false
		}
		for vi, v := range valid[:min(1, len(valid))] {
			for _, p := range spread(len(v)+1, 12) {
				for _, u := range nestingUnits {
					if !emit(fmt.Sprintf("valid[%d] with %q × %d inserted at %d", vi, u, NestingDepth, p), splice(v, p, 0, bytes.Repeat([]byte(u), NestingDepth))) {
						return false
					}
				}
			}
		}
	case ClassUTF8:
		for vi, v := range valid {
			for _, p := range spread(len(v)+1, 32) {
				for _, s := range invalidUTF8 {
					if !overlay(emit, vi, v, p, fmt.Sprintf("%q", s), []byte(s)) {
						return false
					}
				}
			}
		}
	case ClassNUL:
		for _, n := range []int{0, 1, 1024} {
			if !emit(fmt.Sprintf("%d NUL bytes", n), make([]byte, n)) {
				return false
			}
		}
		for vi, v := range valid {
			for _, p := range spread(len(v)+1, 64) {
				if !overlay(emit, vi, v, p, "NUL", []byte{0}) {
					return false
				}
			}
		}
	case ClassBig:
		for vi, v := range valid[:min(2, len(valid))] {
			if len(v) == 0 {
				continue
			}
			for _, cut := range []int{max(1, len(v)/2), len(v)} {
				if !emit(fmt.Sprintf("valid[%d][:%d] repeated to %d bytes", vi, cut, bigSize), repeatTo(v[:cut], bigSize)) {
					return false
				}
			}
		}
	}
	return true
}

// spread returns the integers in [0, n), all of them when n <= max, else
// max of them evenly spaced (first and last included).
func spread(n, max int) []int {
	if n <= 0 {
		return nil
	}
	if n <= max {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, max)
	for i := range out {
		out[i] = int(int64(i) * int64(n-1) / int64(max-1))
	}
	return out
}

// overlay emits valid[vi] with s inserted at p and, where it fits, written
// over the bytes at p.
func overlay(emit func(string, []byte) bool, vi int, v []byte, p int, what string, s []byte) bool {
	return emit(fmt.Sprintf("valid[%d] with %s inserted at %d", vi, what, p), splice(v, p, 0, s)) &&
		(p+len(s) > len(v) || emit(fmt.Sprintf("valid[%d] with %s written at %d", vi, what, p), splice(v, p, len(s), s)))
}

// splice returns v with v[p:p+del] replaced by ins.
func splice(v []byte, p, del int, ins []byte) []byte {
	out := make([]byte, 0, len(v)-del+len(ins))
	out = append(out, v[:p]...)
	out = append(out, ins...)
	return append(out, v[p+del:]...)
}

func repeatTo(unit []byte, size int) []byte {
	out := make([]byte, size)
	for i := 0; i < size; i += copy(out[i:], unit) {
	}
	return out
}

var nestingUnits = []string{
	"[", "{", "[{", "- ", "[1]: ",
	"\x91",         // MessagePack fixarray of 1
	"\x81",         // MessagePack fixmap of 1; CBOR array of 1
	"\xdc\x00\x01", // MessagePack array16 of 1
	"\xa1\x61\x6b", // CBOR map of 1 with key "k"
	"\x9f",         // CBOR indefinite-length array
}

var invalidUTF8 = []string{
	"\xff",             // never valid
	"\x80",             // lone continuation byte
	"\xc0\x80",         // overlong NUL
	"\xe2\x82",         // truncated three-byte sequence
	"\xed\xa0\x80",     // UTF-16 surrogate
	"\xf4\x90\x80\x80", // above U+10FFFF
	"\xfe\xfe\xff\xff", // never valid
}

func indentBomb(depth int) []byte {
	var b bytes.Buffer
	for i := 0; i < depth; i++ {
		b.Write(bytes.Repeat([]byte("  "), i))
		b.WriteString("k:\n")
	}
	return b.Bytes()
}

// lengthHeaders emits bare MessagePack and CBOR heads of huge lengths,
// alone and as the one item of an array.
func lengthHeaders(emit func(string, []byte) bool) bool {
	both := func(name string, n uint64, array byte, h []byte) bool {
		return emit(fmt.Sprintf("%s declaring %d", name, n), h) &&
			emit(fmt.Sprintf("array of one %s declaring %d", name, n), append([]byte{array}, h...))
	}
	for _, n := range msgpackLengths {
		for i, code := range []byte{0xdd, 0xdf, 0xdb, 0xc6} {
			name := [...]string{"array32", "map32", "str32", "bin32"}[i]
			if !both("MessagePack "+name, n, 0x91, msgpackHead(code, n)) {
				return false
			}
		}
	}
	for _, n := range append(bigLengths, 1<<40) {
		for major := byte(2); major <= 5; major++ {
			if !both(fmt.Sprintf("CBOR major type %d", major), n, 0x81, cborHead(major, n)) {
				return false
			}
		}
	}
	return true
}

var msgpackLengths = []uint64{1 << 31, 1<<32 - 1}

// msgpackHead returns the 32-bit MessagePack header code declaring n.
func msgpackHead(code byte, n uint64) []byte {
	return binary.BigEndian.AppendUint32([]byte{code}, uint32(n))
}

// cborHead returns the head of a CBOR major type declaring n in 8 bytes.
func cborHead(major byte, n uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{major<<5 | 27}, n)
}

// lengthInputs emits valid encoding v with its declared lengths replaced.
func lengthInputs(vi int, v []byte, emit func(string, []byte) bool) bool {
	// replace emits v with v[p:p+w] replaced by h, and v[:p] then h.
	replace := func(what string, p, w int, h []byte) bool {
		return emit(fmt.Sprintf("valid[%d] with the %s at %d", vi, what, p), splice(v, p, w, h)) &&
			emit(fmt.Sprintf("valid[%d][:%d] then the %s", vi, p, what), splice(v[:p], p, 0, h))
	}
	runs := 0 // decimal numbers, as text formats declare lengths
	for i := 0; i < len(v) && runs < 32; {
		if v[i] < '0' || v[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		runs++
		for _, n := range bigLengths {
			if !replace(fmt.Sprintf("number %d", n), i, j-i, strconv.AppendUint(nil, n, 10)) {
				return false
			}
		}
		i = j
	}
	heads := 0
	for p := 0; p < len(v) && heads < 32; p++ {
		w, code, ok := msgpackHeader(v[p:])
		if !ok {
			continue
		}
		heads++
		for _, n := range msgpackLengths {
			if !replace(fmt.Sprintf("MessagePack header declaring %d", n), p, w, msgpackHead(code, n)) {
				return false
			}
		}
	}
	heads = 0 // CBOR heads of strings, arrays and maps
	for p := 0; p < len(v) && heads < 32; p++ {
		major, ai := v[p]>>5, v[p]&0x1f
		if major < 2 || major > 5 || ai > 27 {
			continue
		}
		w := 1 // the head, then 1, 2, 4 or 8 bytes of length for ai 24 to 27
		if ai >= 24 {
			w += 1 << (ai - 24)
		}
		if p+w > len(v) {
			continue
		}
		heads++
		for _, n := range bigLengths {
			if !replace(fmt.Sprintf("CBOR head declaring %d", n), p, w, cborHead(major, n)) {
				return false
			}
		}
	}
	return true
}

// msgpackHeader reports whether b starts with a MessagePack length header,
// its width, and the code of the 32-bit header of its family.
func msgpackHeader(b []byte) (width int, code byte, ok bool) {
	c := b[0]
	for _, f := range [...]struct {
		fix, fixEnd byte    // the fixed-size headers of the family, if any
		heads       [3]byte // its 8-, 16- and 32-bit length headers (0: none)
	}{
		{0xa0, 0xbf, [3]byte{0xd9, 0xda, 0xdb}}, // str
		{0, 0, [3]byte{0xc4, 0xc5, 0xc6}},       // bin
		{0x90, 0x9f, [3]byte{0, 0xdc, 0xdd}},    // array
		{0x80, 0x8f, [3]byte{0, 0xde, 0xdf}},    // map
	} {
		if f.fix != 0 && c >= f.fix && c <= f.fixEnd {
			width = 1
		} else if k := bytes.IndexByte(f.heads[:], c); c != 0 && k >= 0 {
			width = 1 + 1<<k // 2, 3 or 5
		} else {
			continue
		}
		return width, f.heads[2], width <= len(b)
	}
	return 0, 0, false
}
