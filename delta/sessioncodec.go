package delta

import (
	"errors"
	"fmt"

	"github.com/graphwire/graphwire/wire"
)

// sessionCodec finds the DocumentCodec registered in g (the default
// registry when nil) under name, and whether its round trip is lossy; one
// without is ErrNoSyntax.
func sessionCodec(g *wire.Registry, name string) (DocumentCodec, bool, error) {
	c, err := registry(g).Lookup(name)
	if err != nil {
		return nil, false, err
	}
	dc, err := documentCodec(c)
	if err != nil {
		return nil, false, err
	}
	return dc, c.Info().Fidelity == wire.Lossy, nil
}

// DecodeReferenced reads a document of c that AppendReferenced wrote, or
// any response of c: the response with each reference a node of its type
// and id and nil properties, and the references' positions, ascending
// (none for a response). Session.Resolve puts the nodes back;
// Session.Decode does both. A delta is an error.
func DecodeReferenced(c DocumentCodec, data []byte) (*wire.GraphResponse, []int, error) {
	return readReferenced(c, codecName(c), data)
}

func readReferenced(c DocumentCodec, codec string, data []byte) (*wire.GraphResponse, []int, error) {
	h, content, err := c.DecodeDocument(data)
	if err != nil {
		return nil, nil, err
	}
	r, refs, err := referenced(h, content)
	if err != nil {
		return nil, nil, &wire.DecodeError{Codec: codec, Offset: int64(len(data)), Msg: err.Error(), Err: err}
	}
	return r, refs, nil
}

// codecName is c's registry name, when it is a wire.Codec.
func codecName(c DocumentCodec) string {
	if wc, ok := c.(wire.Codec); ok {
		return wc.Info().Name
	}
	return "document"
}

// Encode writes r in the codec registered in g (nil: the default
// registry) under name, the nodes Mark picks written as references, and
// remembers r as delivered. A codec that writes no documents is
// ErrNoSyntax. On an error the session is unchanged.
//
// Encode never writes a text its reader's Session.Decode, under the same
// registry's Limits, would refuse: when the references of a node that r
// lists many times would resolve past a limit, only the first listing
// of each node is written as a reference and the others in full; if the
// reader would still refuse, the error is a *wire.EncodeError matching
// wire.ErrLimit and nothing is written.
//
// With a Lossy codec (GOON drops nulls, truncates long strings and adds
// their key_len, and groups nodes by type) the reader holds other nodes
// than r's, in another order; so Encode writes the response as the
// reader holds it, Decode(Encode(r)), which the codec writes as it wrote
// r (a lossy codec's fixed point), marks its references on that, reads
// its own output back, and remembers what the reader will hold, keeping
// the two sessions in step at their bounds.
func (s *Session) Encode(g *wire.Registry, name string, r *wire.GraphResponse) ([]byte, error) {
	c, lossy, err := sessionCodec(g, name)
	if err != nil {
		return nil, err
	}
	if lossy && r != nil {
		wc := c.(wire.Codec)
		b, err := wc.AppendEncode(nil, r)
		if err != nil {
			return nil, err
		}
		if r, err = wc.Decode(b); err != nil {
			return nil, readerRefuses(name, fmt.Errorf("delta: session: the codec cannot read back what it wrote: %w", err))
		}
	}
	l := registry(g).Limits()
	s.mu.Lock()
	defer s.mu.Unlock()
	refs, hashes := s.mark(r)
	out, held, err := s.write(c, lossy, l, name, r, refs)
	if errors.Is(err, wire.ErrLimit) {
		if firsts := firstListings(r, refs); len(firsts) < len(refs) {
			out, held, err = s.write(c, lossy, l, name, r, firsts)
		}
	}
	if err != nil {
		return nil, err
	}
	if !lossy {
		s.deliver(r.Nodes, hashes)
		return out, nil
	}
	heldHashes := make([]Hash, len(held.Nodes))
	for i := range held.Nodes {
		heldHashes[i] = nodeHash(&held.Nodes[i])
	}
	s.deliver(held.Nodes, heldHashes)
	return out, nil
}

// write is the text of r with references at refs in c, checked as its
// reader under l would check it, and, for a lossy codec, the response the
// reader will hold. A text the reader would refuse is an *wire.EncodeError
// matching wire.ErrLimit.
func (s *Session) write(c DocumentCodec, lossy bool, l wire.Limits, name string, r *wire.GraphResponse, refs []int) ([]byte, *wire.GraphResponse, error) {
	out, err := AppendReferenced(c, nil, r, refs)
	if err != nil {
		return nil, nil, err
	}
	if !lossy {
		if len(refs) == 0 {
			return out, r, nil // the codec's plain encoding, under its limits
		}
		if f := s.refused(l, int64(len(out)), r, refs); f != nil {
			return nil, nil, f.encodeError(name, r)
		}
		return out, r, nil
	}
	back, backRefs, err := readReferenced(c, name, out)
	if err != nil {
		return nil, nil, readerRefuses(name, fmt.Errorf("delta: session: the codec cannot read back what it wrote: %w", err))
	}
	held, _, err := s.resolved(back, backRefs, Hash{}, l, name, int64(len(out)))
	if err != nil {
		return nil, nil, readerRefuses(name, fmt.Errorf("delta: session: the codec's references do not resolve: %w", err))
	}
	return out, held, nil
}

// readerRefuses is err, a reader's, as the writer reports it: a limit of
// the reader is an *wire.EncodeError naming it.
func readerRefuses(codec string, err error) error {
	var de *wire.DecodeError
	if errors.As(err, &de) && de.Limit != "" {
		return &wire.EncodeError{Codec: codec, Limit: de.Limit, Msg: "a reader would refuse the response written in the session: " + de.Msg}
	}
	return err
}

// refused is what a reader's Session.Decode under l would say of a text
// of n bytes carrying r with references at refs: nil when it resolves.
func (s *Session) refused(l wire.Limits, n int64, r *wire.GraphResponse, refs []int) *refusal {
	out, ents, err := s.substitute(r, refs)
	if err != nil {
		return nil // not reached: mark names remembered nodes only
	}
	return charge(l, n, out, refs, ents)
}

// firstListings is refs without the positions of a node listed at an
// earlier position of refs: each remembered node referenced once.
func firstListings(r *wire.GraphResponse, refs []int) []int {
	seen := make(map[sessionKey]bool, len(refs))
	var firsts []int
	for _, i := range refs {
		if k := (sessionKey{r.Nodes[i].Type, r.Nodes[i].ID}); !seen[k] {
			seen[k] = true
			firsts = append(firsts, i)
		}
	}
	return firsts
}

// Decode reads data, a response the writer's session encoded in the codec
// registered in g under name, and resolves its references (Resolve): the
// response the writer encoded, as the codec carries it. A reference the
// session cannot resolve matches ErrUnresolved; on any error the session
// is unchanged.
//
// The resolved response obeys g's Limits as any response the codec
// decodes, measured against the length of data plus the bytes of the
// distinct remembered nodes it references: past them the error is a
// *wire.DecodeError of the codec matching wire.ErrLimit, which names the
// limit and the reference, found before anything is copied or hashed
// (see the package doc, "Limits and security").
func (s *Session) Decode(g *wire.Registry, name string, data []byte) (*wire.GraphResponse, error) {
	c, _, err := sessionCodec(g, name)
	if err != nil {
		return nil, err
	}
	r, refs, err := readReferenced(c, name, data)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resolve(r, refs, Hash{}, registry(g).Limits(), name, int64(len(data)))
}
