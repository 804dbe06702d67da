package wiretest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/graphwire/graphwire/wire"
)

// Bounds bound the cost of one Decode of a hostile input of n bytes. It must
// return within Time + n×TimePerByte and allocate at most
// Alloc + n×AllocPerByte bytes, measured as the growth of
// runtime.MemStats.TotalAlloc across the call (so every byte allocated
// counts, even if freed before Decode returns).
//
// The defaults — 2 s + 200 ns/byte, 8 MiB + 64 bytes/byte — hold with room
// to spare under the race detector on two cores: a small input gets two
// seconds and 8 MiB, the 64 MiB input about 15 s and 4 GiB, which only a
// decoder that is quadratic, loops, or sizes an allocation by a length the
// input declares can exceed. Time and allocation are measured around Decode
// alone; a figure over its bound is measured twice more and the smallest of
// the three counts, so that a garbage collection or a busy machine does not
// fail the test. A Decode still running after ten times its time bound is
// reported as hung.
//
// The harness does not run its hostile check in parallel with other tests
// (allocation is measured process-wide); run it from a test that does not
// call t.Parallel.
type Bounds struct {
	Time         time.Duration
	TimePerByte  time.Duration
	Alloc        int64
	AllocPerByte int64
}

func (l Bounds) withDefaults() Bounds {
	if l.Time <= 0 {
		l.Time = 2 * time.Second
	}
	if l.TimePerByte <= 0 {
		l.TimePerByte = 200 * time.Nanosecond
	}
	if l.Alloc <= 0 {
		l.Alloc = 8 << 20
	}
	if l.AllocPerByte <= 0 {
		l.AllocPerByte = 64
	}
	return l
}

func (l Bounds) timeFor(n int) time.Duration { return l.Time + time.Duration(n)*l.TimePerByte }
func (l Bounds) allocFor(n int) int64        { return l.Alloc + int64(n)*l.AllocPerByte }

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

// Hostile returns the hostile inputs made from valid, the valid encodings of
// some responses in the codec under test, with repeated-prefix inputs of
// bigSize bytes. The inputs are built one at a time as the sequence is
// read, since some are large. They know nothing of the format: each class
// applies every format's way of going wrong, so that a text decoder also
// sees binary length headers, and the reverse.
//
//   - prefix: every proper prefix of each valid encoding (at most 4096
//     evenly spaced ones of an encoding longer than that).
//   - flip: each byte of each valid encoding XORed with 0xFF and, apart, with
//     a single bit (at most 1024 evenly spaced positions per encoding).
//   - length: every decimal number in an encoding replaced by 2^31, 2^32
//     and 2^62; every MessagePack length header replaced by its 32-bit form
//     declaring 2^31 and 2^32−1; every CBOR length head replaced by its
//     8-byte form declaring 2^31, 2^32 and 2^62 — each followed by the rest
//     of the encoding and, apart, by nothing (first 32 of each per
//     encoding); and ten-byte inputs that are nothing but such a header.
//   - nesting: 100,000 nested openers of every kind ('[', '{', "[{", "- ",
//     "[1]: ", MessagePack and CBOR one-element arrays and maps, CBOR
//     indefinite arrays), alone and spliced into the first encoding at 12
//     evenly spaced positions; and 4096 levels of indented "k:" lines
//     (about 16 MiB: indentation grows with the square of the depth, so
//     100,000 levels would be 10 GB).
//   - utf8: seven invalid UTF-8 sequences inserted at, and written over,
//     up to 32 evenly spaced positions of each encoding.
//   - nul: a NUL byte inserted at, and written over, up to 64 evenly
//     spaced positions of each encoding; the empty input, one NUL, 1024
//     NULs.
//   - big: half of the first two encodings, and each whole, repeated to
//     bigSize bytes.
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
		w := 1
		switch ai {
		case 24:
			w = 2
		case 25:
			w = 3
		case 26:
			w = 5
		case 27:
			w = 9
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
	switch {
	case c >= 0x80 && c <= 0x8f:
		return 1, []byte{0xdf, 0, 0, 0, 0}, true
	case c >= 0x90 && c <= 0x9f:
		return 1, []byte{0xdd, 0, 0, 0, 0}, true
	case c >= 0xa0 && c <= 0xbf:
		return 1, []byte{0xdb, 0, 0, 0, 0}, true
	}
	var w int
	switch c {
	case 0xd9, 0xc4: // str8, bin8
		w = 2
	case 0xda, 0xc5, 0xdc, 0xde: // str16, bin16, array16, map16
		w = 3
	case 0xdb, 0xc6, 0xdd, 0xdf: // str32, bin32, array32, map32
		w = 5
	default:
		return 0, nil, false
	}
	if len(b) < w {
		return 0, nil, false
	}
	switch c {
	case 0xd9, 0xda, 0xdb:
		return w, []byte{0xdb, 0, 0, 0, 0}, true
	case 0xc4, 0xc5, 0xc6:
		return w, []byte{0xc6, 0, 0, 0, 0}, true
	case 0xdc, 0xdd:
		return w, []byte{0xdd, 0, 0, 0, 0}, true
	}
	return w, []byte{0xdf, 0, 0, 0, 0}, true
}

// Outcome is what one Decode of a hostile input did.
type Outcome struct {
	Response *wire.GraphResponse // the decoded response, nil on error
	Err      error               // the decode error
	Elapsed  time.Duration       // smallest of the measurements
	Alloc    int64               // bytes allocated (TotalAlloc growth), smallest of the measurements
}

// DecodeHostile decodes data with c and checks the outcome. Decode must
// not panic, hang, exceed l, or modify data. It must end either in an error
// that is a *wire.DecodeError (errors.As) naming the codec, one line,
// with a nil response; or in a valid response: one the codec encodes, and
// whose encoding decodes and encodes again to the same bytes. The returned
// error describes the first violation.
func DecodeHostile(c wire.Codec, data []byte, l Bounds) (Outcome, error) {
	l = l.withDefaults()
	timeBound, allocBound := l.timeFor(len(data)), l.allocFor(len(data))
	seed := maphash.MakeSeed()
	sum := maphash.Bytes(seed, data)
	var out Outcome
	for attempt := 0; attempt < 3; attempt++ {
		o, err := measureDecode(c, data, 10*timeBound)
		if err != nil {
			return o, err
		}
		if attempt == 0 || o.Elapsed < out.Elapsed {
			out.Elapsed = o.Elapsed
		}
		if attempt == 0 || o.Alloc < out.Alloc {
			out.Alloc = o.Alloc
		}
		out.Response, out.Err = o.Response, o.Err
		if maphash.Bytes(seed, data) != sum {
			return out, errors.New("decoding modified its input")
		}
		if out.Elapsed <= timeBound && out.Alloc <= allocBound {
			break
		}
	}
	if out.Elapsed > timeBound {
		return out, fmt.Errorf("decoding took %v, over the bound of %v for %d bytes", out.Elapsed, timeBound, len(data))
	}
	if out.Alloc > allocBound {
		return out, fmt.Errorf("decoding allocated %d bytes, over the bound of %d for %d bytes", out.Alloc, allocBound, len(data))
	}
	name := strings.ToLower(c.Info().Name)
	if out.Err != nil {
		if errors.Is(out.Err, errPanic) {
			return out, fmt.Errorf("decoding panicked: %v", out.Err)
		}
		if out.Response != nil {
			return out, fmt.Errorf("decoding returned both a response and an error (%v)", out.Err)
		}
		var de *wire.DecodeError
		if !errors.As(out.Err, &de) {
			return out, fmt.Errorf("the decode error is %T, not a *wire.DecodeError: %v", out.Err, out.Err)
		}
		if !strings.EqualFold(de.Codec, name) {
			return out, fmt.Errorf("the decode error names codec %q, not %q: %v", de.Codec, name, out.Err)
		}
		msg := out.Err.Error()
		if msg == "" || strings.ContainsAny(msg, "\n\r") {
			return out, fmt.Errorf("the decode error is not one line: %q", msg)
		}
		return out, nil
	}
	if out.Response == nil {
		return out, errors.New("decoding returned neither a response nor an error")
	}
	if err := stable(c, out.Response); err != nil {
		return out, fmt.Errorf("decoding accepted it, but the response it returned is not valid: %v", err)
	}
	return out, nil
}

// stable checks that r encodes, and that its encoding decodes and encodes
// again to the same bytes: the codec can carry r. (It is the cheap half of
// RoundTrip, which hostile inputs, many and large, cannot afford.)
func stable(c wire.Codec, r *wire.GraphResponse) (err error) {
	defer recoverTo(&err)
	b1, err := c.AppendEncode(nil, r)
	if err != nil {
		return fmt.Errorf("encode: %v", err)
	}
	got, err := c.Decode(b1)
	if err != nil {
		return fmt.Errorf("decode of its encoding: %v\nencoding: %s", err, Quote(b1))
	}
	b2, err := c.AppendEncode(nil, got)
	if err != nil {
		return fmt.Errorf("encode of the decoded response: %v", err)
	}
	if !bytes.Equal(b1, b2) {
		return fmt.Errorf("Encode(Decode(Encode(r))) differs from Encode(r) %s", ByteDiff(b1, b2))
	}
	return nil
}

func measureDecode(c wire.Codec, data []byte, hang time.Duration) (Outcome, error) {
	type result struct {
		r   *wire.GraphResponse
		err error
	}
	done := make(chan result, 1)
	timer := time.NewTimer(hang)
	defer timer.Stop()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	go func() {
		r, err := decodeSafe(c, data)
		done <- result{r, err}
	}()
	select {
	case res := <-done:
		elapsed := time.Since(start)
		runtime.ReadMemStats(&m1)
		return Outcome{Response: res.r, Err: res.err, Elapsed: elapsed, Alloc: int64(m1.TotalAlloc - m0.TotalAlloc)}, nil
	case <-timer.C:
		return Outcome{Elapsed: hang}, fmt.Errorf("decoding did not return within %v (hung)", hang)
	}
}

// validEncodings encodes the fixed responses, c.Responses and one
// generated response with codec; the ones it cannot encode are left out.
func (c Config) validEncodings(codec wire.Codec) ([][]byte, []string) {
	rs := append(FixedResponses(), c.Responses...)
	rs = append(rs, ResponseWith(c.Gen).Example(1))
	var out [][]byte
	var skipped []string
	for i, r := range rs {
		b, err := encodeSafe(codec, r)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("response %d: %v", i, err))
			continue
		}
		out = append(out, b)
	}
	return out, skipped
}

func (c Config) checkHostile(t reporter, codec wire.Codec) {
	t.Helper()
	valid, skipped := c.validEncodings(codec)
	for _, s := range skipped {
		t.Logf("not a base for hostile inputs (cannot encode) %s", s)
	}
	if len(valid) == 0 {
		t.Fatalf("no response encodes; no hostile inputs can be made")
		return
	}
	for _, class := range Classes() {
		t.run(class, func(t reporter) {
			var n, ok, failures int
			var worstT time.Duration
			var worstA int64
			hostileClass(class, valid, c.BigInput, func(in Input) bool {
				n++
				out, err := DecodeHostile(codec, in.Data, c.Bounds)
				worstT, worstA = max(worstT, out.Elapsed), max(worstA, out.Alloc)
				if err != nil {
					failures++
					t.Errorf("%s: %v\ninput (%d bytes): %s", in.Name, err, len(in.Data), Quote(in.Data))
					return failures < 10 && !strings.Contains(err.Error(), "hung")
				}
				if out.Err == nil {
					ok++
				}
				return true
			})
			t.Logf("%d %s inputs, %d decoded to a valid response; slowest %v, most allocated %d bytes", n, class, ok, worstT, worstA)
		})
	}
}
