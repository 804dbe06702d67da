package delta

import (
	"bytes"
	"strconv"
	"unsafe"

	"github.com/graphwire/graphwire/wire"
)

// Meter is the budget of a delta decoder: it holds what the decoder builds
// from an input of n bytes to the bound a response decoder keeps,
// Limits.MaxExpansion times n plus wire.ExpansionAllowance bytes in memory
// (and MaxMaterializedBytes for the responses it holds), so that a
// decoder's peak stays within 16 times its input plus 16 MiB. Every
// built-in delta decoder uses one, and refuses, with a positioned error
// naming LimitName, as soon as a charge reports false: before it
// allocates what the charge was for.
//
// The nodes, edges, rows and header fields a delta holds are charged to
// Response, a wire.Meter, as a response decoder charges them (and Fits
// checks the sum after each); the lists of the delta itself (keys,
// positions, the slots of its operations) are charged by Append, element
// by element, as they grow; Scratch charges what the decoder holds beside
// them while it reads (a copy of the input, a generic parse).
type Meter struct {
	resp  *wire.Meter
	mem   int64 // the delta's own lists and the decoder's scratch
	limit int64 // ratio times input plus wire.ExpansionAllowance
	ratio int64
	input int64
	over  bool // the sum, not the response meter, passed the limit
}

// NewMeter returns the Meter of a delta decoder configured with l
// reading an input of n bytes. Zero fields of l select their defaults.
func NewMeter(l wire.Limits, n int) *Meter {
	ratio := int64(l.MaxExpansion)
	if ratio <= 0 {
		ratio = wire.DefaultMaxExpansion
	}
	m := &Meter{resp: wire.NewMeter(l, n), ratio: ratio, input: int64(max(n, 0))}
	m.limit = ratio*m.input + wire.ExpansionAllowance
	if m.input > (1<<62)/ratio {
		m.limit = 1 << 62
	}
	return m
}

// Response is the meter of the nodes, edges, rows and header fields the
// delta holds: give it each as a response decoder does, and check Fits
// after.
func (m *Meter) Response() *wire.Meter { return m.resp }

// InMemory is the memory charged so far: the delta's lists, the scratch
// and the response meter's in-memory size.
func (m *Meter) InMemory() int64 { return m.mem + m.resp.InMemory() }

// Fits reports whether everything charged so far, to Response included,
// is within the bounds.
func (m *Meter) Fits() bool {
	if m.resp.InMemory()+m.mem > m.limit {
		m.over = true
		return false
	}
	return m.resp.Size() <= m.resp.Limit() && m.resp.InMemory() <= m.limit
}

// Scratch charges n bytes the decoder holds beside the delta while it
// reads (n may be negative once it lets them go), and reports whether
// they fit.
func (m *Meter) Scratch(n int64) bool {
	m.mem += n
	return m.Fits()
}

// LimitName is the Limits field that sets the bound passed, for the Limit
// of the decoder's *wire.DecodeError.
func (m *Meter) LimitName() string {
	if m.over {
		return "MaxExpansion"
	}
	return m.resp.LimitName()
}

// Msg describes the refusal, for the Msg of the decoder's
// *wire.DecodeError.
func (m *Meter) Msg() string {
	if !m.over {
		return m.resp.Msg()
	}
	return "the decoded delta would take more than " + strconv.FormatInt(m.limit, 10) + " bytes in memory, " +
		strconv.FormatInt(m.ratio, 10) + " times its input of " + strconv.FormatInt(m.input, 10) +
		" bytes plus " + strconv.Itoa(wire.ExpansionAllowance) + " (MaxExpansion)"
}

// The sizes of what a delta's lists hold, beside what Response charges.
const (
	sizeNode = int64(unsafe.Sizeof(wire.Node{}))
	sizeEdge = int64(unsafe.Sizeof(wire.Edge{}))
	sizeRow  = int64(unsafe.Sizeof(wire.Row{}))
)

// Append appends x to list and charges m for it: the array the list grows
// into, whole, and the one it outgrew, which stays on the heap until the
// collector frees it (it grows the list itself, doubling it, and charges
// before it allocates), and the bytes of the key's type name. A list
// of n elements is charged 1.5 to 3 times its n slots. The node, edge or row an element holds is
// Response's to charge (its struct, counted there, is not counted twice).
// It reports false, appending nothing and allocating nothing, when the
// charge would pass the bound.
func Append[T any](m *Meter, list []T, x T) ([]T, bool) {
	var extra, inner int64
	switch v := any(&x).(type) {
	case *NodeKey:
		extra = int64(len(v.Type))
	case *Move[NodeKey]:
		extra = int64(len(v.Key.Type))
	case *EdgeKey, *Move[EdgeKey], *Placed[wire.Edge]:
		inner = sizeEdge
	case *Changed, *Placed[wire.Node]:
		inner = sizeNode
	case *Placed[wire.Row]:
		inner = sizeRow
	}
	if len(list) < cap(list) {
		m.mem += extra - inner
		if !m.Fits() {
			m.mem -= extra - inner
			return list, false
		}
		return append(list, x), true
	}
	c := grown(cap(list))
	size := int64(unsafe.Sizeof(x))
	// The array outgrown stays charged until the next growth (the
	// collector may not have freed it yet); the one before it is let go.
	before := 0
	if cap(list) > 4 {
		before = cap(list) / 2
	}
	charge := int64(c-before)*size + extra - inner
	m.mem += charge
	if !m.Fits() {
		m.mem -= charge
		return list, false
	}
	next := make([]T, len(list), c)
	copy(next, list)
	return append(next, x), true
}

// grown is the capacity a list of capacity c grows to: twice c, so that
// the arrays it outgrows add up to less than the last.
func grown(c int) int { return max(4, 2*c) }

// Content charges a response the decoder read apart, under its own
// wire.Meter (the canonical JSON that holds a delta's rows and header
// fields), by its wire.InMemorySize, and reports whether it fits.
func (m *Meter) Content(r *wire.GraphResponse) bool { return m.Scratch(wire.InMemorySize(r)) }

// ParseCost is what a generic parser builds from a text document, an
// upper bound a codec gives for its parser: Line bytes for each line, the
// line's own bytes (strings the parse may copy), and Cell bytes for each
// of the line's bytes that are among Delims (a member or an item each).
type ParseCost struct {
	Line, Cell int64
	Delims     string
}

// Parse charges, as scratch, the generic parse of the text document data
// before a decoder parses it, line by line, at cost. It returns the line,
// from 1, where the charge stops fitting, or 0 when it all fits.
func (m *Meter) Parse(data []byte, cost ParseCost) int {
	for line, off := 1, 0; off < len(data); line++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		text := data[off : off+end]
		cells := 0
		for i := 0; i < len(cost.Delims); i++ {
			cells += bytes.Count(text, []byte{cost.Delims[i]})
		}
		if !m.Scratch(cost.Line + int64(len(text)) + cost.Cell*int64(cells)) {
			return line
		}
		off += end + 1
	}
	return 0
}
