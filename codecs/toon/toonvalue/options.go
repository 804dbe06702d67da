package toonvalue

import (
	"fmt"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
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

// DefaultIndentSize and DefaultMaxDepth are the options' defaults for
// IndentSize and MaxDepth left zero.
const (
	DefaultIndentSize = toonread.DefaultIndentSize
	DefaultMaxDepth   = toonread.DefaultMaxDepth
)

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
	var err error
	o.IndentSize, err = toonread.IndentSize(o.IndentSize)
	return o, err
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
