package delta

import (
	"github.com/graphwire/graphwire/wire"
)

// SessionCodec is the optional interface of a wire.Codec that writes a
// response encoded in a Session, with some nodes as references to nodes
// sent earlier, in its own syntax, and reads it back. Session.Encode and
// Session.Decode find it by type assertion on the registered codec, as
// EncodeWith finds Codec, so wire.Codec does not change.
//
// AppendReferenced writes r with the nodes at positions refs (ascending,
// each once, as Session.Mark returns them) written as references: their
// type and id only, marked as sent earlier in words a model reads without
// a manual; their properties are not written. With no refs it writes
// exactly what AppendEncode writes. It follows AppendEncode's rules (on
// error, dst as given and an *wire.EncodeError).
//
// DecodeReferenced reads what AppendReferenced wrote, and any response of
// the codec (which has no references): the response with each reference
// a node of its type and id and nil Properties, and the positions of the
// references in the decoded response's nodes, ascending. It follows
// Decode's rules (a positioned *wire.DecodeError, the codec's Limits,
// never a panic). Session.Resolve checks the positions.
type SessionCodec interface {
	AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error)
	DecodeReferenced(data []byte) (r *wire.GraphResponse, refs []int, err error)
}

// sessionCodec finds the SessionCodec registered in g (the default
// registry when nil) under name; one without is ErrNoSyntax.
func sessionCodec(g *wire.Registry, name string) (SessionCodec, error) {
	if g == nil {
		g = wire.DefaultRegistry()
	}
	c, err := g.Lookup(name)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(SessionCodec)
	if !ok {
		return nil, &noSyntaxError{codec: c.Info().Name, what: "session"}
	}
	return sc, nil
}

// Encode writes r in the codec registered in g (nil: the default
// registry) under name, the nodes Mark picks written as references, and
// remembers r as delivered. A codec without a session syntax is
// ErrNoSyntax. On an encoding error the session is unchanged.
func (s *Session) Encode(g *wire.Registry, name string, r *wire.GraphResponse) ([]byte, error) {
	c, err := sessionCodec(g, name)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	refs, hashes := s.mark(r)
	out, err := c.AppendReferenced(nil, r, refs)
	if err != nil {
		return nil, err
	}
	s.deliver(r.Nodes, hashes)
	return out, nil
}

// Decode reads data, a response the writer's session encoded in the codec
// registered in g under name, and resolves its references (Resolve): the
// response the writer encoded, as the codec carries it. A reference the
// session cannot resolve matches ErrUnresolved; on any error the session
// is unchanged.
func (s *Session) Decode(g *wire.Registry, name string, data []byte) (*wire.GraphResponse, error) {
	c, err := sessionCodec(g, name)
	if err != nil {
		return nil, err
	}
	r, refs, err := c.DecodeReferenced(data)
	if err != nil {
		return nil, err
	}
	return s.Resolve(r, refs, Hash{})
}
