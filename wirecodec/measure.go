package wirecodec

import (
	"errors"
	"math"

	"github.com/graphwire/graphwire/wire"
)

// Measure is Check for an encoder about to write r: it checks the same
// rules and limits, returns the same *EncodeError for what breaks one,
// and on success returns a Measurement that sizes the encoder's buffer and
// checks its output against MaxExpansion. It is cheaper than CheckSize
// because it does not read the bytes of r's strings: it bounds the
// canonical JSON length of r between the length with no byte escaped and
// the length with every byte escaped, which settles MaxMaterializedBytes
// and MaxExpansion for any response not near them; for one near them it
// measures r exactly, as CheckSize does, and so refuses exactly what
// CheckSize refuses.
//
// The built-in encoders call it once per encoding; a codec of a user may
// too, in place of CheckSize and CheckExpansion.
func Measure(l wire.Limits, codec string, r *wire.GraphResponse) (Measurement, error) {
	l, err := l.WithDefaults()
	if err != nil {
		return Measurement{}, &wire.EncodeError{Codec: codec, Msg: err.Error()}
	}
	if r == nil {
		return Measurement{}, nil
	}
	c := checker{l: l, m: Meter{limit: l.MaxMaterializedBytes, memLimit: math.MaxInt64, name: "MaxMaterializedBytes", loose: true}}
	if err := c.response(codec, r); err == nil {
		m := Measurement{l: l, codec: codec, r: r, lo: c.m.n, hi: c.m.n + c.m.slack, mem: c.m.mem}
		// The encoding of json is the canonical JSON: at least lo bytes,
		// so what MaxExpansion allows it is at least what it allows lo.
		if codec != "json" || m.mem <= expansionLimit(int64(l.MaxExpansion), m.lo) {
			return m, nil
		}
	}
	// A rule or limit is broken, or the bounds do not settle a limit:
	// the exact walk decides, and names what it refuses.
	n, size, err := checkSizes(l, codec, r)
	if err != nil {
		return Measurement{}, err
	}
	return Measurement{l: l, codec: codec, r: r, lo: n, hi: n, mem: size, exact: true}, nil
}

// A Measurement is what Measure learned of a response it accepted.
// The zero Measurement is that of a nil response.
type Measurement struct {
	l      wire.Limits
	codec  string
	r      *wire.GraphResponse
	lo, hi int64 // bounds of the canonical JSON length
	mem    int64 // the in-memory size, or max(exact length, it) when exact
	exact  bool  // lo == hi is the exact length, and mem holds the size
}

// SizeHint returns a buffer size for an encoding of the response: the
// length of its canonical JSON with no byte escaped, and a sixteenth
// more. A text encoding is rarely longer (on the corpus, TOON at most
// 1.03 times that length, GCF 0.98, GOON 0.83), and a buffer no longer
// than needed costs less to clear.
func (m Measurement) SizeHint() int {
	if m.r == nil {
		return 0
	}
	return int(m.lo + m.lo/16 + 64)
}

// JSONBounds returns bounds of the length of the response's canonical
// JSON: lo when no byte of its strings is escaped, hi when every one is.
func (m Measurement) JSONBounds() (lo, hi int64) { return m.lo, m.hi }

// Exceeds reports whether the response's size, as CheckSize returns it
// (the larger of its canonical JSON length and its in-memory size), is
// more than limit. It measures the response exactly only when the bounds
// do not settle it.
func (m *Measurement) Exceeds(limit int64) bool {
	if m.r == nil || max(m.hi, m.mem) <= limit {
		return false
	}
	if max(m.lo, m.mem) > limit {
		return true
	}
	m.settle()
	return m.mem > limit
}

// settle measures the response exactly, once.
func (m *Measurement) settle() {
	if m.exact {
		return
	}
	n, size, err := checkSizes(m.l, m.codec, m.r)
	if err != nil {
		// Not reached: Measure accepted the response, and the exact walk
		// accepts whatever the bounds accepted. Keep the upper bound.
		n, size = m.hi, max(m.hi, m.mem)
	}
	m.lo, m.hi, m.mem, m.exact = n, n, size, true
}

// CheckExpansion is CheckExpansion for an encoding of n bytes of
// the measured response: nil when a decoder accepts the response from n
// bytes, or the *EncodeError naming MaxExpansion that CheckExpansion
// returns with the size CheckSize measures. Only when the bounds do not
// settle it does it measure the response exactly.
func (m *Measurement) CheckExpansion(n int64) error {
	if m.r == nil || !m.Exceeds(expansionLimit(int64(m.l.MaxExpansion), n)) {
		return nil
	}
	m.settle()
	return CheckExpansion(m.l, m.codec, m.mem, n)
}

// errLoose is what the walk of Measure returns for anything it does not
// accept at once; Measure then runs the exact walk, which names it.
var errLoose = errors.New("wire: not settled by the bounds")

// looseNode is, for Measure's walk, the checks of node and the count of
// Meter.Node in one loop over n's properties: false for anything the exact
// walk must look at (a rule or limit broken, or the bounds past
// MaxMaterializedBytes).
func (c *checker) looseNode(n *wire.Node) bool {
	ps := n.Properties
	if !c.strOK(n.Type) || len(ps) > c.l.MaxElements {
		return false
	}
	if c.propKeys("", ps, nil) != nil {
		return false
	}
	var s, slack, mem int64
	for i := range ps {
		p := &ps[i]
		if !c.strOK(p.Key) {
			return false
		}
		s += int64(len(p.Key)) + int64(len(`"":`))
		slack += 5 * int64(len(p.Key))
		mem += int64(len(p.Key))
		switch v := p.Value; v.Kind() {
		case wire.KindString:
			if !c.strOK(v.Text()) {
				return false
			}
			s += int64(len(v.Text())) + int64(len(`""`))
			slack += 5 * int64(len(v.Text()))
			mem += int64(len(v.Text()))
		case wire.KindList:
			if c.value1(v, 0) != nil {
				return false
			}
			s += c.m.value(v)
		default:
			s += c.m.value(v)
		}
	}
	c.m.slack += slack
	c.m.mem += mem + int64(len(ps))*sizeProperty
	if len(ps) > 0 {
		s = inlineSize(s, len(ps))
	}
	return c.m.node(n, s)
}
