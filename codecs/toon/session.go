package toon

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// Session references (see the package documentation, Sessions): the
// nodes a delta.Session marks as sent earlier are written in the
// sent_earlier section, their ids grouped by type, and node_order places
// them among the nodes written in full.

// refKey is the document key of the references.
const refKey = "sent_earlier"

var _ delta.SessionCodec = (*Codec)(nil)

// refGroup is the references of one type, in the order of the response:
// the positions of their nodes.
type refGroup struct {
	typ string
	at  []int
}

// AppendReferenced implements delta.SessionCodec: it appends the TOON
// text of r with the nodes at positions refs (ascending, each once)
// written as references, their type and id in the sent_earlier section.
// With no refs it is AppendEncode. refs out of range or out of order are
// refused with a *wire.EncodeError; otherwise the rules are
// AppendEncode's (the referenced nodes count against the limits as the
// response holds them).
func (c *Codec) AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	if r != nil {
		for k, i := range refs {
			if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] {
				return dst, &wire.EncodeError{Codec: Name, Path: "nodes",
					Msg: "reference " + strconv.Itoa(k) + " is to node " + strconv.Itoa(i) + ": references must be positions of the nodes, ascending, each once"}
			}
		}
	}
	return c.appendEncode(dst, r, refs)
}

// prepareRefs sets the nodes at positions refs (checked) apart as
// references, grouped by type in first-seen order, and groups the others
// as a plain response's nodes.
func (s *streamer) prepareRefs(nodes []wire.Node, refs []int) error {
	s.full = make([]wire.Node, 0, len(nodes)-len(refs))
	s.pos = make([]int, 0, len(nodes)-len(refs))
	s.refs = s.refs[:0]
	k := 0
	for i := range nodes {
		if k < len(refs) && refs[k] == i {
			k++
			t := nodes[i].Type
			g := len(s.refs) - 1
			for g >= 0 && s.refs[g].typ != t {
				g--
			}
			if g < 0 {
				if len(s.refs) >= maxScannedTypes {
					// Many types: find them by a map, once.
					return s.prepareManyRefs(nodes, refs)
				}
				s.refs = append(s.refs, refGroup{typ: t})
				g = len(s.refs) - 1
			}
			s.refs[g].at = append(s.refs[g].at, i)
			continue
		}
		s.full = append(s.full, nodes[i])
		s.pos = append(s.pos, i)
	}
	return s.group(s.full)
}

// prepareManyRefs is prepareRefs for references of many types.
func (s *streamer) prepareManyRefs(nodes []wire.Node, refs []int) error {
	s.full, s.pos, s.refs = s.full[:0], s.pos[:0], s.refs[:0]
	index := make(map[string]int)
	k := 0
	for i := range nodes {
		if k < len(refs) && refs[k] == i {
			k++
			g, ok := index[nodes[i].Type]
			if !ok {
				g = len(s.refs)
				index[nodes[i].Type] = g
				s.refs = append(s.refs, refGroup{typ: nodes[i].Type})
			}
			s.refs[g].at = append(s.refs[g].at, i)
			continue
		}
		s.full = append(s.full, nodes[i])
		s.pos = append(s.pos, i)
	}
	return s.group(s.full)
}

// sentEarlier writes the references: "sent_earlier:" and, per type, the
// ids as an inline array ("User[2]: 3,4").
func (s *streamer) sentEarlier(e *toonwrite.Writer, nodes []wire.Node) {
	e.Enter()
	defer e.Leave()
	e.Line(0)
	e.Buf = append(e.Buf, refKey+":"...)
	for _, g := range s.refs {
		e.Line(1)
		e.Header(&g.typ, len(g.at), nil, false)
		for j, i := range g.at {
			if j == 0 {
				e.Buf = append(e.Buf, ' ')
			} else {
				e.Buf = append(e.Buf, e.Delim())
			}
			e.Buf = strconv.AppendInt(e.Buf, nodes[i].ID, 10)
		}
	}
}

// refOrder writes node_order for a referenced response of n nodes when
// the groups, the node groups then the reference groups, concatenated,
// are not the nodes in order: the reference groups are numbered after
// the node groups.
func (s *streamer) refOrder(e *toonwrite.Writer, n int) {
	of := s.groupOf(n, s.pos)
	for g, rg := range s.refs {
		for _, i := range rg.at {
			of[i] = len(s.groups) + g
		}
	}
	for i := 1; i < n; i++ {
		if of[i] < of[i-1] {
			writeOrder(e, of)
			return
		}
	}
}

// DecodeReferenced implements delta.SessionCodec: it reads a response
// AppendReferenced wrote, or any response Decode reads, under the codec's
// limits. Each reference is a node of its type and id with nil
// Properties; refs are their positions in the response's nodes,
// ascending (none for a response without a sent_earlier section).
func (c *Codec) DecodeReferenced(data []byte) (*wire.GraphResponse, []int, error) {
	return c.decode(data, true)
}
