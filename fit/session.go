package fit

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// ErrSessionChanged is matched (errors.Is) by the error of Page and
// Pager.Page when the session was used by another caller while the page
// was being found, so that the page as delivered is not the page priced.
// The page has been remembered as delivered all the same: Reset the
// writer's and the reader's sessions.
var ErrSessionChanged = errors.New("fit: the session changed while the page was being priced")

// sessionCodec returns the session syntax of codec, or an error matching
// delta.ErrNoSyntax.
func sessionCodec(codec wire.Codec) (delta.DocumentCodec, error) {
	sc, ok := codec.(delta.DocumentCodec)
	if !ok {
		return nil, fmt.Errorf("fit: codec %s cannot page within a session: %w (it does not implement delta.DocumentCodec)", codec.Info().Name, delta.ErrNoSyntax)
	}
	return sc, nil
}

// sessionRefs returns, for each node of r, whether s would write it as a
// reference now (delta.Session.References: delivered before, with the
// same content, still remembered). s is not changed.
func sessionRefs(s *delta.Session, r *wire.GraphResponse) ([]bool, error) {
	out := make([]bool, len(r.Nodes))
	for _, i := range s.References(r) {
		if i < 0 || i >= len(out) {
			return nil, fmt.Errorf("fit: the session names a reference at %d of %d nodes", i, len(out))
		}
		out[i] = true
	}
	return out, nil
}

// encodePage appends the encoding of units [from, to) of the response
// with pagination pag: within a session, with the nodes the session
// remembers written as references.
func (f *fitter) encodePage(dst []byte, from, to int, pag *wire.Pagination) ([]byte, error) {
	pg := f.plan.page(from, to, pag)
	if f.sc == nil {
		return f.codec.AppendEncode(dst, pg)
	}
	var refs []int
	for j, i := range f.plan.nodes.of(from, to) {
		if f.refs[i] {
			refs = append(refs, j)
		}
	}
	return delta.AppendReferenced(f.sc, dst, pg, refs)
}

// encodeWhole appends the encoding of the whole response, within a
// session with its references.
func (f *fitter) encodeWhole(dst []byte) ([]byte, error) {
	if f.sc == nil {
		return f.codec.AppendEncode(dst, f.r)
	}
	var refs []int
	for i, ref := range f.refs {
		if ref {
			refs = append(refs, i)
		}
	}
	return delta.AppendReferenced(f.sc, dst, f.r, refs)
}

// refresh asks the session for its references again before the page
// from unit from is found: a Pager's session may have delivered more (its
// earlier pages, other responses) or forgotten some since the last page.
// Only the nodes of units from on matter to that page; when the answer
// differs for one of them, the references are replaced and the
// remembered walks, priced with the old ones, dropped (the segment counts
// stay: they are counts of texts). Otherwise nothing changes, so the walk
// of a budget survives the delivery of its own pages, which only adds
// references to units before from.
func (f *fitter) refresh(from int) error {
	if f.sess == nil {
		return nil
	}
	refs, err := sessionRefs(f.sess, f.r)
	if err != nil {
		return err
	}
	for i, u := range f.plan.nodeUnit {
		if int(u) >= from && refs[i] != f.refs[i] {
			f.refs = refs
			f.walks = nil
			return nil
		}
	}
	return nil
}

// deliver encodes the page in the session, which remembers it as
// delivered, and checks that the bytes are those priced (enc).
func (f *fitter) deliver(page *wire.GraphResponse, enc []byte) error {
	if f.sess == nil {
		return nil
	}
	got, _, err := f.sess.Encode(f.reg, f.name, page)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	if !bytes.Equal(got, enc) {
		return ErrSessionChanged
	}
	return nil
}
