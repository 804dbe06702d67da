package delta

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unsafe"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// A resolved response obeys the limits a decoder applies to any response
// (see the package doc, "Limits and security").

// nodeShape is what a remembered node holds that the per-value limits
// bound: its longest sequence (its properties, or the items of one list
// value), its deepest list nesting, and its longest string, key or type,
// in bytes; and bytes, what it counts against MaxBytes: its entry
// (sessionEntryOverhead), each property's struct and key, each value's
// string and list elements.
type nodeShape struct {
	elems, depth, longest int
	bytes                 int64
}

func shapeOf(n *wire.Node) nodeShape {
	s := nodeShape{elems: len(n.Properties), longest: len(n.Type),
		bytes: sessionEntryOverhead + int64(len(n.Type)) + int64(len(n.Properties))*propertySize}
	for i := range n.Properties {
		s.longest = max(s.longest, len(n.Properties[i].Key))
		s.bytes += int64(len(n.Properties[i].Key))
		s.value(n.Properties[i].Value, 0)
	}
	return s
}

func (s *nodeShape) value(v wire.Value, depth int) {
	switch v.Kind() {
	case wire.KindString:
		s.longest = max(s.longest, len(v.Text()))
		s.bytes += int64(len(v.Text()))
	case wire.KindList:
		s.depth = max(s.depth, depth+1)
		s.elems = max(s.elems, len(v.List()))
		s.bytes += int64(len(v.List())) * valueSize
		for _, x := range v.List() {
			s.value(x, depth+1)
		}
	}
}

// The sizes a nodeShape counts: a wire.Property and a wire.Value in memory.
const (
	propertySize = int64(unsafe.Sizeof(wire.Property{}))
	valueSize    = int64(unsafe.Sizeof(wire.Value{}))
)

// unbounded is the Limits of the meter that sizes remembered nodes.
var unbounded = wire.Limits{MaxMaterializedBytes: math.MaxInt64, MaxExpansion: math.MaxInt32}

// listingCost is what one more listing of n adds to a response, the
// larger of its canonical JSON (separator included) and its in-memory
// size as wirecodec.InMemorySize counts them, measured on m, a meter of
// unbounded limits that sees each node once.
func listingCost(m *wirecodec.Meter, n *wire.Node) int64 {
	json, mem := m.Size(), m.InMemory()
	m.Node(n)
	return max(m.Size()-json, m.InMemory()-mem)
}

// substitute returns r with the nodes at positions refs replaced by the
// remembered nodes of their type and id (sharing their properties), and
// those entries, in the order of refs; nothing else is copied or hashed.
// A position out of range or named twice, or a node not remembered, is an
// error matching ErrUnresolved.
func (s *Session) substitute(r *wire.GraphResponse, refs []int) (*wire.GraphResponse, []*sessionEntry, error) {
	out := *r
	out.Nodes = slices.Clone(r.Nodes)
	ents := make([]*sessionEntry, len(refs))
	seen := make([]bool, len(out.Nodes))
	var last *sessionEntry // a run of references to one node looks it up once
	for k, i := range refs {
		if i < 0 || i >= len(out.Nodes) || seen[i] {
			return nil, nil, fmt.Errorf("%w: position %d is out of range or named twice", ErrUnresolved, i)
		}
		seen[i] = true
		n := &out.Nodes[i]
		if last == nil || last.key.id != n.ID || last.key.typ != n.Type {
			el, ok := s.nodes[sessionKey{n.Type, n.ID}]
			if !ok {
				return nil, nil, fmt.Errorf("%w: node %s %s at position %d", ErrUnresolved, strconv.Quote(n.Type), strconv.FormatInt(n.ID, 10), i)
			}
			last = el.Value.(*sessionEntry)
		}
		ents[k] = last
		*n = last.node
	}
	return &out, ents, nil
}

// A refusal is why a resolved response breaks a limit: the Limits field,
// the position in the response's nodes where the total passed it (-1
// past the nodes), the text's length and the bytes of the distinct
// remembered nodes referenced, which make the input the limits measure.
type refusal struct {
	limit    string
	at       int
	ref      bool // the node at is a reference
	msg      string
	text     int64
	distinct int64
}

// charge checks out, a response whose nodes at refs were put back from
// ents (substitute), against l, as a decoder checks a response read from
// an input of text bytes plus the cost of every distinct remembered node
// referenced: the per-value limits once per distinct node, then the whole
// response, each reference charged in full for each use (a meter sizes a
// large property list once, by its address). Nothing is built.
func charge(l wire.Limits, text int64, out *wire.GraphResponse, refs []int, ents []*sessionEntry) *refusal {
	l, err := l.WithDefaults()
	if err != nil {
		l = wire.DefaultLimits()
	}
	var distinct int64
	counted := make(map[*sessionEntry]bool)
	for k, e := range ents {
		if k > 0 && ents[k-1] == e || counted[e] {
			continue
		}
		counted[e] = true
		distinct += e.cost
		for _, c := range [...]struct {
			limit    string
			got, max int
		}{{"MaxElements", e.shape.elems, l.MaxElements}, {"MaxDepth", e.shape.depth, l.MaxDepth}, {"MaxStringBytes", e.shape.longest, l.MaxStringBytes}} {
			if c.got > c.max {
				return &refusal{limit: c.limit, at: refs[k], ref: true, text: text,
					msg: "the remembered node is past " + c.limit + " (" + strconv.Itoa(c.max) + ")"}
			}
		}
	}
	m := wirecodec.NewMeter(l, int(min(text+distinct, math.MaxInt)))
	if at, ok := m.Response(out); !ok {
		return &refusal{limit: m.LimitName(), at: at, ref: slices.Contains(refs, at), msg: m.Msg(), text: text, distinct: distinct}
	}
	return nil
}

// where names the place of a refusal in a response.
func (f *refusal) where(out *wire.GraphResponse) string {
	if f.at < 0 {
		return "the response"
	}
	n := &out.Nodes[f.at]
	what := "node"
	if f.ref {
		what = "reference to node"
	}
	return "nodes[" + strconv.Itoa(f.at) + "], the " + what + " " + strconv.Quote(n.Type) + " " + strconv.FormatInt(n.ID, 10)
}

// describe says where and why, naming the input the limits measured.
func (f *refusal) describe(out *wire.GraphResponse) string {
	return f.where(out) + ": with its references resolved, " + f.msg + "; the input counted is the text's " +
		strconv.FormatInt(f.text, 10) + " bytes and the " + strconv.FormatInt(f.distinct, 10) +
		" bytes of the distinct remembered nodes it references"
}

// decodeError is the refusal as a reader reports it: a *wire.DecodeError
// of the codec, at the end of the text of n bytes (the references are
// resolved once the text is read), matching wire.ErrLimit.
func (f *refusal) decodeError(codec string, n int64, out *wire.GraphResponse) error {
	return &wire.DecodeError{Codec: codec, Offset: n, Msg: f.describe(out), Limit: f.limit}
}

// encodeError is the refusal as a writer reports it: the reader would
// refuse the text.
func (f *refusal) encodeError(codec string, out *wire.GraphResponse) error {
	path := ""
	if f.at >= 0 {
		path = "nodes[" + strconv.Itoa(f.at) + "]"
	}
	return &wire.EncodeError{Codec: codec, Path: path, Limit: f.limit,
		Msg: "a reader would refuse the response written in the session: " + f.describe(out)}
}
