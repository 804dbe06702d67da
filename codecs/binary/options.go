package binary

import (
	"fmt"
	"math"
)

// The defaults of Options. A zero field selects its default.
const (
	DefaultMaxInputBytes  = 64 << 20 // 64 MiB
	DefaultMaxNesting     = 32
	DefaultMaxElements    = 1 << 20  // 1,048,576 per array
	DefaultMaxStringBytes = 16 << 20 // 16 MiB
)

// The ranges Options are checked against. MaxNesting and MaxElements are
// bounded by what the CBOR library can enforce, and the same bounds apply to
// msgpack so that both codecs accept the same responses.
const (
	minMaxNesting  = 5 // response, rows, row, cell, list
	maxMaxNesting  = 65535
	minMaxElements = 16
	maxMaxElements = math.MaxInt32
)

// Options bound what a decoder accepts from untrusted bytes. They do not
// constrain encoding. A zero field selects its default; a negative or
// out-of-range field makes New fail.
type Options struct {
	// MaxInputBytes is the longest input Decode reads.
	// Default DefaultMaxInputBytes; at least 1.
	MaxInputBytes int

	// MaxNesting is the deepest nesting of arrays, the response itself
	// counting as level 1: node, edge and row records sit at level 3, and a
	// list value inside a property at level 4 (each inner list adds one).
	// Default DefaultMaxNesting; range 5 to 65535.
	MaxNesting int

	// MaxElements is the most elements one array may declare: nodes, edges,
	// rows, the cells of a row, twice the properties of a node, the items of
	// a list. Default DefaultMaxElements; range 16 to 2^31-1.
	MaxElements int

	// MaxStringBytes is the longest string, in bytes.
	// Default DefaultMaxStringBytes; at least 1.
	MaxStringBytes int
}

// withDefaults returns o with its zero fields set to their defaults, or an
// error naming the first field out of range.
func (o Options) withDefaults() (Options, error) {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.MaxInputBytes, DefaultMaxInputBytes)
	def(&o.MaxNesting, DefaultMaxNesting)
	def(&o.MaxElements, DefaultMaxElements)
	def(&o.MaxStringBytes, DefaultMaxStringBytes)
	switch {
	case o.MaxInputBytes < 1:
		return o, fmt.Errorf("binary: invalid MaxInputBytes %d (must be at least 1)", o.MaxInputBytes)
	case o.MaxNesting < minMaxNesting || o.MaxNesting > maxMaxNesting:
		return o, fmt.Errorf("binary: invalid MaxNesting %d (range is [%d, %d])", o.MaxNesting, minMaxNesting, maxMaxNesting)
	case o.MaxElements < minMaxElements || o.MaxElements > maxMaxElements:
		return o, fmt.Errorf("binary: invalid MaxElements %d (range is [%d, %d])", o.MaxElements, minMaxElements, maxMaxElements)
	case o.MaxStringBytes < 1:
		return o, fmt.Errorf("binary: invalid MaxStringBytes %d (must be at least 1)", o.MaxStringBytes)
	}
	return o, nil
}
