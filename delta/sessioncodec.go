package delta

import (
	"errors"
	"fmt"
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// sessionCodec finds the DocumentCodec registered in g (the default
// registry when nil) under name, and its Fidelity; one without documents
// is ErrNoSyntax.
func sessionCodec(g *wire.Registry, name string) (DocumentCodec, wire.Fidelity, error) {
	c, err := registry(g).Lookup(name)
	if err != nil {
		return nil, 0, err
	}
	dc, err := documentCodec(c)
	if err != nil {
		return nil, 0, err
	}
	return dc, c.Info().Fidelity, nil
}

// heldOther reports whether a reader of a codec of fidelity f may hold
// another response than r: always for a Lossy codec (GOON), for one that
// keeps numbers by value (TOON and GCF write 81.0 as 81) when r holds a
// float, whose form the round trip may change; never for an Exact one.
func heldOther(f wire.Fidelity, r *wire.GraphResponse) bool {
	switch f {
	case wire.Exact:
		return false
	case wire.NumbersByValue:
		return r != nil && holdsFloat(r)
	}
	return true
}

// holdsFloat reports whether a value of r, in a property or a cell, at
// any depth, is a float.
func holdsFloat(r *wire.GraphResponse) bool {
	props := func(n *wire.Node) bool {
		return slices.ContainsFunc(n.Properties, func(p wire.Property) bool { return valueHoldsFloat(p.Value) })
	}
	cell := func(c wire.Cell) bool { return valueHoldsFloat(c.Value) || c.Node != nil && props(c.Node) }
	for i := range r.Nodes {
		if props(&r.Nodes[i]) {
			return true
		}
	}
	for _, row := range r.Rows {
		if slices.ContainsFunc(row, cell) {
			return true
		}
	}
	return false
}

func valueHoldsFloat(v wire.Value) bool {
	return v.Kind() == wire.KindFloat || slices.ContainsFunc(v.List(), valueHoldsFloat)
}

// DecodeReferenced reads a document of c that AppendReferenced wrote, or
// any response of c: the response with each reference a node of its type
// and id and nil properties, and the references' positions, ascending.
// Session.Resolve puts the nodes back; Session.Decode does both.
func DecodeReferenced(c DocumentCodec, data []byte) (*wire.GraphResponse, []int, error) {
	return readReferenced(c, codecName(c), data)
}

func readReferenced(c DocumentCodec, codec string, data []byte) (*wire.GraphResponse, []int, error) {
	dh, r, refs, err := readSessionDocument(c, codec, data)
	switch {
	case err != nil:
		return nil, nil, err
	case len(dh) > 0:
		return nil, nil, documentError(codec, data, errors.New("delta: the document is a delta, not a response"))
	case !r.QueryType.Valid():
		// A document with a header leaves out an empty query_type, which
		// only a delta's content may have.
		return nil, nil, documentError(codec, data, errors.New("delta: the response has no query_type"))
	}
	return r, refs, nil
}

// documentError is err, of a document's header, as its reader reports it:
// at the document's end, which the header is checked at.
func documentError(codec string, data []byte, err error) error {
	return &wire.DecodeError{Codec: codec, Offset: int64(len(data)), Msg: err.Error(), Err: err}
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
// remembers what the reader will hold. It returns the text and held, the
// response its reader's Decode returns (Held(codec, r)), whose
// Fingerprint is the want of Resolve; held shares its nodes with the
// session: treat it as read-only. A codec that writes no documents is
// ErrNoSyntax; a text the reader would refuse under g's Limits is a
// *wire.EncodeError matching wire.ErrLimit (see the package doc). On an
// error the session is unchanged.
func (s *Session) Encode(g *wire.Registry, name string, r *wire.GraphResponse) (text []byte, held *wire.GraphResponse, err error) {
	c, fid, err := sessionCodec(g, name)
	if err != nil {
		return nil, nil, err
	}
	lossy := heldOther(fid, r)
	if r, err = Held(c.(wire.Codec), r); err != nil {
		return nil, nil, err
	}
	return s.encode(c, lossy, registry(g).Limits(), name, nil, r)
}

// Held returns r as a reader of c holds it once c has carried it: r
// itself when c carries r exactly, else what c reads back of what it
// writes of r (GOON truncates long strings; TOON and GCF read 81.0 as
// 81). A diff made from Held(c, r) is one the reader's copy matches.
func Held(c wire.Codec, r *wire.GraphResponse) (*wire.GraphResponse, error) {
	if r == nil || !heldOther(c.Info().Fidelity, r) {
		return r, nil
	}
	b, err := c.AppendEncode(nil, r)
	if err != nil {
		return nil, err
	}
	held, err := c.Decode(b)
	if err != nil {
		return nil, readerRefuses(c.Info().Name, fmt.Errorf("delta: %s cannot read back what it wrote: %w", c.Info().Name, err))
	}
	return held, nil
}

// EncodeDelta writes d, a delta between two responses as the reader holds
// them, as a document of the codec registered in g under name, the nodes
// of its content that the session delivered before written as references
// (sent_earlier and sent_earlier_at after the delta's fields, positions
// in the content), and remembers the content's nodes as delivered. Its
// reader is Session.Patch. Like Encode it never writes a text its reader
// would refuse, and like AppendDelta it writes a lossy codec's delta only
// when it reads back exactly. On an error the session is unchanged.
func (s *Session) EncodeDelta(g *wire.Registry, name string, d *Delta) ([]byte, error) {
	c, fid, err := sessionCodec(g, name)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, &wire.EncodeError{Codec: name, Msg: "nil delta"}
	}
	lossy := heldOther(fid, d.Content)
	if d.Content == nil || lossy {
		// The unchanged delta has nothing to reference; a lossy codec's
		// delta is first checked to read back exactly, so that its
		// content's nodes are what the reader will remember.
		plain, err := AppendDelta(c.(wire.Codec), nil, d)
		if err != nil || d.Content == nil {
			return plain, err
		}
	}
	out, _, err := s.encode(c, lossy, registry(g).Limits(), name, d.header(), d.Content)
	return out, err
}

// encode writes r, a response or (after the header fields pre) a delta's
// content, with the references Mark picks, and remembers what the reader
// will hold of it, which it returns.
func (s *Session) encode(c DocumentCodec, lossy bool, l wire.Limits, name string, pre []Field, r *wire.GraphResponse) ([]byte, *wire.GraphResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	refs, hashes := s.mark(r)
	out, held, err := s.write(c, lossy, l, name, pre, r, refs)
	if errors.Is(err, wire.ErrLimit) {
		if firsts := firstListings(r, refs); len(firsts) < len(refs) {
			out, held, err = s.write(c, lossy, l, name, pre, r, firsts)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if !lossy {
		s.deliver(r.Nodes, hashes)
		return out, r, nil
	}
	heldHashes := make([]Hash, len(held.Nodes))
	for i := range held.Nodes {
		heldHashes[i] = nodeHash(&held.Nodes[i])
	}
	s.deliver(held.Nodes, heldHashes)
	return out, held, nil
}

// write is the text of r with references at refs in c, after the header
// fields pre, checked as its reader under l would check it, and, for a
// lossy codec, the response (or content) the reader will hold. A text
// the reader would refuse is an *wire.EncodeError matching wire.ErrLimit.
func (s *Session) write(c DocumentCodec, lossy bool, l wire.Limits, name string, pre []Field, r *wire.GraphResponse, refs []int) ([]byte, *wire.GraphResponse, error) {
	h, content := referencedDocument(r, refs)
	out, err := c.AppendDocument(nil, append(slices.Clip(pre), h...), content)
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
	_, back, backRefs, err := readSessionDocument(c, name, out)
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
// registered in g under name, and resolves its references (Resolve) under
// g's Limits (see the package doc, "Limits and security"). A reference
// the session cannot resolve matches ErrUnresolved; on any error the
// session is unchanged.
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

// readSessionDocument reads a document of c written in a session: the
// header fields of a delta (none for a response), and the response or
// the delta's content with each reference a node of its type and id and
// nil properties, with the references' positions, ascending.
func readSessionDocument(c DocumentCodec, codec string, data []byte) ([]Field, *wire.GraphResponse, []int, error) {
	h, content, err := c.DecodeDocument(data)
	if err != nil {
		return nil, nil, nil, err
	}
	var dh, rh []Field
	for _, f := range h {
		if f.Name == FieldSentEarlier || f.Name == FieldSentEarlierAt {
			rh = append(rh, f)
		} else {
			dh = append(dh, f)
		}
	}
	if len(dh) > 0 && len(rh) == 0 {
		return dh, content, nil, nil
	}
	r, refs, err := referenced(rh, content)
	if err != nil {
		return nil, nil, nil, documentError(codec, data, err)
	}
	return dh, r, refs, nil
}

// Patch reads data, a delta the writer's session wrote in the codec
// registered in g under name, resolves the references of its content as
// Decode does, applies it to base (Patch) and remembers the content's
// nodes as delivered. A document that is not a delta matches
// ErrNotDelta; a reference the session cannot resolve, ErrUnresolved; a
// delta for another base, ErrWrongBase. On any error the session is
// unchanged.
func (s *Session) Patch(g *wire.Registry, name string, base *wire.GraphResponse, data []byte) (*wire.GraphResponse, error) {
	c, _, err := sessionCodec(g, name)
	if err != nil {
		return nil, err
	}
	dh, content, refs, err := readSessionDocument(c, name, data)
	if err != nil {
		return nil, err
	}
	if len(dh) == 0 {
		return nil, documentError(name, data, ErrNotDelta)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writerOnly {
		return nil, fmt.Errorf("%w (%w)", ErrUnresolved, ErrWriterOnly)
	}
	var ents []*sessionEntry
	if len(refs) > 0 {
		if content, ents, err = s.resolved(content, refs, Hash{}, registry(g).Limits(), name, int64(len(data))); err != nil {
			return nil, err
		}
	}
	d, err := deltaOf(dh, content)
	if err != nil {
		return nil, documentError(name, data, err)
	}
	next, err := Patch(base, d)
	if err != nil {
		return nil, err
	}
	if content != nil {
		s.remember(content, refs, ents)
	}
	return next, nil
}
