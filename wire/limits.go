package wire

import (
	"fmt"
	"math"
)

// Limits bound what a decoder accepts from untrusted input, and, for the
// symmetry every built-in codec keeps, what an encoder agrees to write: an
// encoder refuses, with an *EncodeError naming the place, exactly the
// responses its own decoder would refuse under the same Limits. So whatever
// one built-in codec decodes under some Limits, every built-in codec
// configured with those Limits encodes and decodes back.
//
// A zero field selects its default; a negative field is invalid
// (WithDefaults reports it). Decoders check a limit before they allocate
// for what it bounds, and refuse past it with a positioned *DecodeError.
type Limits struct {
	// MaxInputBytes is the longest input a decoder reads, in bytes.
	// Default 64 MiB.
	MaxInputBytes int64

	// MaxDepth is the deepest nesting of list values: a list holding
	// scalars is at depth 1, a list inside it at depth 2. Default
	// 32; at most 10,000 (wirecodec.HardMaxDepth).
	MaxDepth int

	// MaxElements is the most elements in any one sequence of a
	// response: its nodes, its edges, its rows, the cells of one row, the
	// properties of one node, the items of one list value.
	// Default 1,048,576 (1 << 20).
	MaxElements int

	// MaxStringBytes is the longest string value, name or key, in bytes
	// as decoded (UTF-8; Check counts a byte that is not UTF-8 as the
	// three bytes of the U+FFFD a decoder returns for it). The query type,
	// the group kinds and a format's own field names are compared with
	// their fixed values instead, so a small MaxStringBytes never refuses
	// them. Default 16 MiB.
	MaxStringBytes int

	// MaxMaterializedBytes bounds the size of the decoded response as
	// its canonical JSON would take it, counting every use of a shared
	// string (a binary codec's name table) or of a lifted node (a GOON
	// aggregation's node cells) in full. It is what keeps a small input
	// that refers to a large value many times from becoming a large
	// output when the response is encoded again. Default
	// 256 MiB.
	MaxMaterializedBytes int64

	// MaxExpansion bounds the same materialised size relative to the
	// input: a decoder refuses a response whose canonical JSON would take
	// more than MaxExpansion times the length of its input plus
	// wirecodec.ExpansionAllowance (8 MiB) bytes, so that what it builds, and what encoding
	// the response again writes, stays proportional to what it read. It
	// matters where a format writes less than it means: a binary codec's
	// name table, GOON's truncated values restored to the length their
	// key_len breadcrumb declares, shared type names and nodes lifted
	// from rows. Every built-in encoding of graphwire's corpus and of
	// GKG's reference cases materialises to at most 3.8 times its length
	// (msgpack and cbor; goon and toon 2.5, json 1), well under the
	// default. An encoder whose output can be much smaller than its
	// materialised size refuses a response its own decoder would refuse
	// under this limit.
	//
	// The same bound, MaxExpansion times the input plus
	// ExpansionAllowance (but not MaxMaterializedBytes), holds the
	// decoded response's size in memory, estimated by InMemorySize from
	// the sizes of the structs it is made of and the bytes of its
	// strings. It matters where a format writes an element in one to
	// three bytes that takes a struct of 24 to 112 bytes once decoded: a
	// GOON or TOON row of one digit, a binary node of a shared type name,
	// a JSON list of one-digit numbers. It is one knob rather than two
	// because both bound what a decode builds per input byte, and it is
	// set at MaxExpansion rather than twice it because a decoder's own
	// scratch (slices grown by appending, the parse before the response)
	// comes on top: a decoder whose scratch is no larger than what it
	// builds stays within 16 times its input plus 16 MiB at its peak.
	// graphwire's corpus and GKG's reference cases take at most 2.7
	// (json), 5.8 (goon), 6.5 (toon), 9.0 (msgpack) and 8.5 (cbor) times
	// their encoding's length in memory, all within ExpansionAllowance;
	// the largest, text-heavy/traversal_xl, at most 4.7 (msgpack and
	// cbor). Every encoder refuses,
	// naming MaxExpansion, a response whose in-memory size is past the
	// bound for the length of its own encoding (Measure and
	// Measurement.CheckExpansion), as its decoder would.
	//
	// Default 8; at most math.MaxInt32.
	MaxExpansion int
}

// The defaults of Limits (DefaultLimits), written on each field.
const (
	defaultMaxInputBytes        = 64 << 20  // 64 MiB
	defaultMaxDepth             = 32        // list nesting
	defaultMaxElements          = 1 << 20   // 1,048,576 per sequence
	defaultMaxStringBytes       = 16 << 20  // 16 MiB
	defaultMaxMaterializedBytes = 256 << 20 // 256 MiB of canonical JSON
	defaultMaxExpansion         = 8         // bytes of canonical JSON per input byte, beyond wirecodec.ExpansionAllowance
)

// hardMaxDepth is the largest MaxDepth a Limits may set (wirecodec.HardMaxDepth):
// decoders recurse once per level, and the binary decoders' libraries
// bound nesting too.
const hardMaxDepth = 10_000

// DefaultLimits returns the Limits with every field at its default.
func DefaultLimits() Limits {
	return Limits{
		MaxInputBytes:        defaultMaxInputBytes,
		MaxDepth:             defaultMaxDepth,
		MaxElements:          defaultMaxElements,
		MaxStringBytes:       defaultMaxStringBytes,
		MaxMaterializedBytes: defaultMaxMaterializedBytes,
		MaxExpansion:         defaultMaxExpansion,
	}
}

// WithDefaults returns l with its zero fields set to their defaults, or an
// error naming the first field out of range.
func (l Limits) WithDefaults() (Limits, error) {
	d := DefaultLimits()
	if l.MaxInputBytes == 0 {
		l.MaxInputBytes = d.MaxInputBytes
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxElements == 0 {
		l.MaxElements = d.MaxElements
	}
	if l.MaxStringBytes == 0 {
		l.MaxStringBytes = d.MaxStringBytes
	}
	if l.MaxMaterializedBytes == 0 {
		l.MaxMaterializedBytes = d.MaxMaterializedBytes
	}
	if l.MaxExpansion == 0 {
		l.MaxExpansion = d.MaxExpansion
	}
	switch {
	case l.MaxInputBytes < 0:
		return l, fmt.Errorf("wire: Limits.MaxInputBytes is negative (%d)", l.MaxInputBytes)
	case l.MaxDepth < 0 || l.MaxDepth > hardMaxDepth:
		return l, fmt.Errorf("wire: Limits.MaxDepth %d is out of range [0, %d]", l.MaxDepth, hardMaxDepth)
	case l.MaxElements < 0 || l.MaxElements > math.MaxInt32:
		return l, fmt.Errorf("wire: Limits.MaxElements %d is out of range [0, %d]", l.MaxElements, math.MaxInt32)
	case l.MaxStringBytes < 0:
		return l, fmt.Errorf("wire: Limits.MaxStringBytes is negative (%d)", l.MaxStringBytes)
	case l.MaxMaterializedBytes < 0:
		return l, fmt.Errorf("wire: Limits.MaxMaterializedBytes is negative (%d)", l.MaxMaterializedBytes)
	case l.MaxExpansion < 0 || l.MaxExpansion > math.MaxInt32:
		return l, fmt.Errorf("wire: Limits.MaxExpansion %d is out of range [0, %d]", l.MaxExpansion, math.MaxInt32)
	}
	return l, nil
}
