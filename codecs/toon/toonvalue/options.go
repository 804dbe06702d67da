package toonvalue

import (
	"fmt"
)

// Delimiter is the character that separates the values of inline arrays and
// tabular rows (spec §11).
type Delimiter byte

// The three delimiters of the spec. The zero Delimiter means Comma.
const (
	Comma Delimiter = ','
	Tab   Delimiter = '\t'
	Pipe  Delimiter = '|'
)

// DefaultIndentSize is the number of spaces per indentation level when an
// option leaves IndentSize zero (the CLI's --indent default, the
// GraphResponse codec's indentation).
const DefaultIndentSize = 2

// DefaultMaxDepth bounds the nesting of arrays, objects and field groups
// Unmarshal follows when DecodeOptions leaves MaxDepth zero. (It is a TOON
// nesting bound, unrelated to wire.DefaultLimits().MaxDepth, the GraphResponse
// codecs' bound on nested property lists.)
const DefaultMaxDepth = 1000

// maxIndentSize bounds IndentSize (an indentation unit of more than 64
// spaces is a mistake, not a style).
const maxIndentSize = 64

// EncodeOptions shape the encoder's output. The zero value is the spec's
// default: comma delimiter, two spaces per level.
type EncodeOptions struct {
	// Delimiter is the document delimiter (spec §11.1): Comma (default),
	// Tab or Pipe.
	Delimiter Delimiter
	// IndentSize is the number of spaces per indentation level, 1 to 64
	// (default 2).
	IndentSize int
}

func (o EncodeOptions) resolve() (EncodeOptions, error) {
	switch o.Delimiter {
	case 0:
		o.Delimiter = Comma
	case Comma, Tab, Pipe:
	default:
		return o, fmt.Errorf("toon: invalid delimiter %q (want ',', '\\t' or '|')", rune(o.Delimiter))
	}
	switch {
	case o.IndentSize == 0:
		o.IndentSize = DefaultIndentSize
	case o.IndentSize < 0 || o.IndentSize > maxIndentSize:
		return o, fmt.Errorf("toon: invalid IndentSize %d (want 1 to %d)", o.IndentSize, maxIndentSize)
	}
	return o, nil
}

// DecodeOptions shape the decoder. The zero value is the spec's default:
// strict mode, two spaces per level.
type DecodeOptions struct {
	// IndentSize is the number of spaces per indentation level, 1 to 64
	// (default 2).
	IndentSize int
	// Lenient turns strict mode off (the spec's strict=false, §14). Strict
	// mode, the default, rejects count and width mismatches, bad
	// indentation, tabs in indentation, blank lines inside arrays, duplicate
	// keys, malformed headers and ill-formed UTF-8. Lenient mode accepts
	// them where the spec allows: counts are not checked, indentation depth
	// is floor(spaces/IndentSize) and each tab counts as one level, blank
	// lines are skipped, a duplicate key's last value wins (at the first
	// key's position), a malformed header line is read as a key-value line
	// whose key is the literal text before the colon, and ill-formed UTF-8
	// is replaced by U+FFFD.
	Lenient bool
	// MaxDepth bounds the nesting of arrays, objects and header field
	// groups (default DefaultMaxDepth). Deeper input is an error.
	MaxDepth int
}
