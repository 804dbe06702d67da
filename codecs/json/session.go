package json

import (
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// AppendReferenced implements delta.SessionCodec: it appends r as
// AppendEncode does, with the nodes at positions refs (ascending, each
// once, as delta.Session.Mark returns them) written in place as references
// to nodes sent earlier, {"type":T,"sent_earlier_id":ID} (see the package
// documentation, "Session references"). With no refs the bytes are
// AppendEncode's. The codec's Limits apply to what is written; on error
// dst is returned unchanged with a *wire.EncodeError.
func (c *Codec) AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	return wire.AppendJSONReferenced(dst, r, refs, c.limits)
}

// DecodeReferenced implements delta.SessionCodec: it reads what
// AppendReferenced writes, and any response Decode reads, under the
// codec's Limits: the response with each reference a node of its type and
// id and nil Properties, and the references' positions in its nodes,
// ascending (none for a plain response). delta.Session.Resolve puts the
// nodes back. Errors are *wire.DecodeError with a byte offset.
func (c *Codec) DecodeReferenced(data []byte) (*wire.GraphResponse, []int, error) {
	return wire.DecodeJSONReferenced(data, c.limits)
}

var _ delta.SessionCodec = (*Codec)(nil)
