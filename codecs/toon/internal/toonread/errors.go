package toonread

import (
	"fmt"
	"strconv"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// codecName is the Codec of the errors this package returns.
const codecName = "toon"

// failure carries a decode error through a panic to decode's recover.
type failure struct{ err *wire.DecodeError }

func (d *decoder) failAt(line, col int, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	panic(failure{&wire.DecodeError{Codec: codecName, Line: line, Column: col, Msg: msg}})
}

// fail reports an error at byte offset off (an index into d.src) on line l.
func (d *decoder) fail(l *textwire.Line, off int, format string, args ...any) {
	col := off - l.Start + 1
	if col < 1 {
		col = 1
	}
	d.failAt(l.Num, col, format, args...)
}

// failLimit is fail for input past the wire.Limits field limit.
func (d *decoder) failLimit(l *textwire.Line, off int, limit, msg string) {
	panic(failure{&wire.DecodeError{Codec: codecName, Line: l.Num, Column: max(off-l.Start+1, 1), Msg: msg, Limit: limit}})
}

// checkString refuses a decoded string or key of n bytes past MaxString.
func (d *decoder) checkString(l *textwire.Line, n int, off int) {
	if d.lim.Set && n > d.lim.MaxString {
		d.failLimit(l, off, "MaxStringBytes", "a string of "+strconv.Itoa(n)+" bytes, longer than the limit of "+strconv.Itoa(d.lim.MaxString))
	}
}

// checkTable refuses a table whose declared rows times its names' bytes,
// a lower bound of its canonical JSON, pass MaxMaterialized.
func (d *decoder) checkTable(h *header, hl *textwire.Line) {
	if !d.lim.Set || d.lim.MaxMaterialized <= 0 {
		return
	}
	if n := int64(h.length) * int64(namesBytes(h.fields)); n > d.lim.MaxMaterialized {
		d.failLimit(hl, hl.TextStart(), "MaxMaterializedBytes", "a table of "+strconv.Itoa(h.length)+" rows repeating "+
			strconv.Itoa(namesBytes(h.fields))+" bytes of field names would take more than "+strconv.FormatInt(d.lim.MaxMaterialized, 10)+" bytes as canonical JSON")
	}
}
