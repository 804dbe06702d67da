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
	// wirecodec.ExpansionAllowance (8 MiB), so that what it builds stays
	// proportional to what it read (a binary codec's name table, GOON's
	// key_len breadcrumbs, nodes lifted from rows). The same bound holds
	// the decoded response's size in memory (InMemorySize), where a format
	// writes in a byte or two what takes a struct once decoded; a decoder
	// whose scratch is no larger than what it builds then stays within 16
	// times its input plus 16 MiB at its peak. graphwire's corpus and
	// GKG's reference cases take at most 3.8 times their encoding's length
	// in canonical JSON and 9.0 in memory. Every encoder refuses, naming
	// MaxExpansion, a response its own decoder would refuse under it.
	// Default 8; at most math.MaxInt32.
	MaxExpansion int
}

// defaultMaxDepth is the default of Limits.MaxDepth, which ValueOf and
// NodeOf apply too.
const defaultMaxDepth = 32

// hardMaxDepth is the largest MaxDepth a Limits may set (wirecodec.HardMaxDepth):
// decoders recurse once per level, and the binary decoders' libraries
// bound nesting too.
const hardMaxDepth = 10_000

// DefaultLimits returns the Limits with every field at its default.
func DefaultLimits() Limits {
	return Limits{
		MaxInputBytes:        64 << 20,
		MaxDepth:             defaultMaxDepth,
		MaxElements:          1 << 20,
		MaxStringBytes:       16 << 20,
		MaxMaterializedBytes: 256 << 20,
		MaxExpansion:         8,
	}
}

// WithDefaults returns l with its zero fields set to their defaults, or an
// error naming the first field out of range.
func (l Limits) WithDefaults() (Limits, error) {
	d := DefaultLimits()
	orDefault(&l.MaxInputBytes, d.MaxInputBytes)
	orDefault(&l.MaxDepth, d.MaxDepth)
	orDefault(&l.MaxElements, d.MaxElements)
	orDefault(&l.MaxStringBytes, d.MaxStringBytes)
	orDefault(&l.MaxMaterializedBytes, d.MaxMaterializedBytes)
	orDefault(&l.MaxExpansion, d.MaxExpansion)
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

// orDefault sets a zero field to its default.
func orDefault[T int | int64](field *T, def T) {
	if *field == 0 {
		*field = def
	}
}
