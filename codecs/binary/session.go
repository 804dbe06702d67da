package binary

import (
	"fmt"
	"slices"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Session references (see the package documentation, Session references):
// a node sent earlier in the session is written as the record
// [type, id, "sent_earlier"], in a response led by layoutReferenced.
const (
	// referenceMarker is the third item of a reference, a name (so that it
	// takes one table index after its first use).
	referenceMarker = "sent_earlier"
	// referenceItems is the length of a reference record: odd, where a
	// node record is always even.
	referenceItems = 3
)

var _ delta.SessionCodec = (*Codec)(nil)

// AppendReferenced implements delta.SessionCodec: it appends the encoding
// of r with the nodes at the positions refs (ascending, each once, as
// delta.Session.Mark returns them) written as references, their type and
// id only. With no refs it appends exactly what AppendEncode does;
// otherwise the encoding is led by layout version 3, which Decode refuses
// and DecodeReferenced reads. Its refusals are AppendEncode's, applied to
// r with the referenced nodes' properties left out, and positions refs
// that are out of range, repeated or out of order.
func (c *Codec) AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	if len(refs) == 0 || r == nil {
		return c.AppendEncode(dst, r)
	}
	for k, i := range refs {
		if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] {
			return dst, &wire.EncodeError{Codec: c.format.String(), Path: wire.NodePath(i).String(),
				Msg: fmt.Sprintf("reference %d: position %d out of range (%d nodes), repeated or out of order", k, i, len(r.Nodes))}
		}
	}
	// What the reader decodes: the response with the references' nodes
	// bare. The Limits are checked on it, since it is what Decode's
	// checks meet.
	stub := *r
	stub.Nodes = slices.Clone(r.Nodes)
	for _, i := range refs {
		stub.Nodes[i].Properties = nil
	}
	size, err := c.check(&stub)
	if err != nil {
		return dst, err
	}
	out, err := c.write(dst, &stub, true, c.limits.MaxInputBytes, nil, refs)
	if err != nil {
		return dst, err
	}
	if err := c.checkOut(size, int64(len(out)-len(dst))); err != nil {
		return dst, err
	}
	return out, nil
}

// DecodeReferenced implements delta.SessionCodec: it reads what
// AppendReferenced wrote, and any response Decode reads (which has no
// references). Each reference decodes to a node of its type and id with
// nil Properties; refs are the references' positions in the response's
// nodes, ascending. Errors, limits and positions are Decode's; a
// malformed reference (a third item other than the marker "sent_earlier",
// or a reference in a document of layout 1 or 2) is a *wire.DecodeError
// at the item at fault.
func (c *Codec) DecodeReferenced(data []byte) (*wire.GraphResponse, []int, error) {
	return c.decode(data, true)
}

// reference writes the node at nodes[i] as a reference: [type, id,
// "sent_earlier"].
func (e *encoder) reference(nd *wire.Node, i int) bool {
	e.sink.array(referenceItems)
	if !e.name(nd.Type) {
		return e.failField("nodes", i, "type")
	}
	e.sink.integer(nd.ID)
	e.name(referenceMarker)
	return true
}

// layoutVersion checks the version that leads the response and keeps it:
// Decode reads layouts 1 and 2, DecodeReferenced also 3.
func (d *decoder) layoutVersion(v int64) {
	switch {
	case d.err != nil:
	case v == layoutVersion || v == layoutV1 || v == layoutReferenced && d.referenced:
		d.layout = v
	case v == layoutReferenced:
		d.failf("layout version %d holds session references: DecodeReferenced reads it, Decode does not", v)
	default:
		d.failf("unsupported layout version %d (Decode reads %d and %d, DecodeReferenced also %d)", v, layoutV1, layoutVersion, layoutReferenced)
	}
}

// reference reads the body of a reference record, [type, id, marker], the
// array head having been read, into nd, the at-th node of the response.
func (d *decoder) reference(nd *wire.Node, at int) {
	nd.Type = d.name("reference type")
	nd.ID = d.int("reference id")
	if m := d.name("reference marker"); d.err == nil && m != referenceMarker {
		d.failf("reference: expected the marker %q as its third item, found %s", referenceMarker, textwire.Excerpt(m))
		return
	}
	if d.err == nil {
		d.refs = append(d.refs, at)
	}
}
