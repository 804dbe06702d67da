package toon

import (
	"fmt"

	"github.com/graphwire/graphwire/wire"
)

// codecName is the Codec field of every *wire.DecodeError this package
// returns, so errors read "toon: line N, column M: ...".
const codecName = "toon"

// failure carries a decode error through a panic to Unmarshal's recover; it
// never escapes the package.
type failure struct{ err *wire.DecodeError }

func (d *decoder) failAt(line, col int, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	panic(failure{&wire.DecodeError{Codec: codecName, Line: line, Column: col, Msg: msg}})
}

// fail reports an error at byte offset off (an index into d.src) on line l.
func (d *decoder) fail(l *line, off int, format string, args ...any) {
	col := off - l.start + 1
	if col < 1 {
		col = 1
	}
	d.failAt(l.num, col, format, args...)
}
