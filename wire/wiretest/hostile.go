package wiretest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"iter"
	"strconv"
)

// Input is one hostile input: its class, a description of how it was made,
// and its bytes.
type Input struct {
	Class string // prefix, flip, length, nesting, utf8, nul, big
	Name  string
	Data  []byte
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

// Hostile returns the hostile inputs made from valid, the valid encodings
// of some responses in the codec under test, with repeated-prefix inputs
// of bigSize bytes, built one at a time as the sequence is read. They
// know nothing of the format: each class applies every format's way of
// going wrong (text numbers, MessagePack and CBOR length heads, every
// kind of opener), at evenly spaced places of each encoding, so that a
// text decoder also sees binary length headers, and the reverse. The
// class constants say what each holds; nesting also includes 4096 levels
// of indented "k:" lines (about 16 MiB, as indentation grows with the
// square of the depth).
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
		for _, in := range lengthHeaders() {
			if !emit(in.Name, in.Data) {
				return false
			}
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
					if !emit(fmt.Sprintf("valid[%d] with %q inserted at %d", vi, s, p), splice(v, p, 0, []byte(s))) {
						return false
					}
					if p+len(s) <= len(v) && !emit(fmt.Sprintf("valid[%d] with %q written at %d", vi, s, p), splice(v, p, len(s), []byte(s))) {
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
				if !emit(fmt.Sprintf("valid[%d] with NUL inserted at %d", vi, p), splice(v, p, 0, []byte{0})) {
					return false
				}
				if p < len(v) && !emit(fmt.Sprintf("valid[%d] with NUL written at %d", vi, p), splice(v, p, 1, []byte{0})) {
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

// lengthHeaders returns inputs that are nothing but a length header
// declaring a huge length, in MessagePack and CBOR.
func lengthHeaders() []Input {
	var out []Input
	add := func(name string, b []byte) { out = append(out, Input{Class: ClassLength, Name: name, Data: b}) }
	for _, n := range []uint64{1 << 31, 1<<32 - 1} {
		for _, h := range []struct {
			name string
			b    byte
		}{{"array32", 0xdd}, {"map32", 0xdf}, {"str32", 0xdb}, {"bin32", 0xc6}} {
			b := []byte{h.b, 0, 0, 0, 0}
			binary.BigEndian.PutUint32(b[1:], uint32(n))
			add(fmt.Sprintf("MessagePack %s declaring %d", h.name, n), b)
			add(fmt.Sprintf("MessagePack array of one %s declaring %d", h.name, n), append([]byte{0x91}, b...))
		}
	}
	for _, n := range append(bigLengths, 1<<40) {
		for _, major := range []struct {
			name string
			b    byte
		}{{"byte string", 0x40}, {"text string", 0x60}, {"array", 0x80}, {"map", 0xa0}} {
			b := make([]byte, 9)
			b[0] = major.b | 27
			binary.BigEndian.PutUint64(b[1:], n)
			add(fmt.Sprintf("CBOR %s declaring %d", major.name, n), b)
			add(fmt.Sprintf("CBOR array of one %s declaring %d", major.name, n), append([]byte{0x81}, b...))
		}
	}
	return out
}

// lengthInputs emits valid encoding v with its declared lengths replaced.
func lengthInputs(vi int, v []byte, emit func(string, []byte) bool) bool {
	// Decimal numbers, as text formats declare lengths and counts.
	runs := 0
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
			num := []byte(strconv.FormatUint(n, 10))
			if !emit(fmt.Sprintf("valid[%d] with the number at %d replaced by %d", vi, i, n), splice(v, i, j-i, num)) ||
				!emit(fmt.Sprintf("valid[%d][:%d] with the number at %d replaced by %d, then nothing", vi, j, i, n), splice(v[:j], i, j-i, num)) {
				return false
			}
		}
		i = j
	}
	// MessagePack headers.
	heads := 0
	for p := 0; p < len(v) && heads < 32; p++ {
		w, repl, ok := msgpackHeader(v[p:])
		if !ok {
			continue
		}
		heads++
		for _, n := range []uint64{1 << 31, 1<<32 - 1} {
			h := append([]byte(nil), repl...)
			binary.BigEndian.PutUint32(h[1:5], uint32(n))
			if !emit(fmt.Sprintf("valid[%d] with the MessagePack header at %d declaring %d", vi, p, n), splice(v, p, w, h)) ||
				!emit(fmt.Sprintf("valid[%d][:%d] then a MessagePack header declaring %d", vi, p, n), splice(v[:p], p, 0, h)) {
				return false
			}
		}
	}
	// CBOR heads of strings, arrays and maps.
	heads = 0
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
			h := make([]byte, 9)
			h[0] = major<<5 | 27
			binary.BigEndian.PutUint64(h[1:], n)
			if !emit(fmt.Sprintf("valid[%d] with the CBOR head at %d declaring %d", vi, p, n), splice(v, p, w, h)) ||
				!emit(fmt.Sprintf("valid[%d][:%d] then a CBOR head declaring %d", vi, p, n), splice(v[:p], p, 0, h)) {
				return false
			}
		}
	}
	return true
}

// msgpackHeader reports whether b starts with a MessagePack length header,
// its width, and the 32-bit form of the same family to replace it with
// (length bytes to be filled in at [1:5]).
func msgpackHeader(b []byte) (width int, repl []byte, ok bool) {
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
		return width, []byte{f.heads[2], 0, 0, 0, 0}, width <= len(b)
	}
	return 0, nil, false
}
