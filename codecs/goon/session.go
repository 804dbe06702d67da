package goon

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Session references (package delta, SessionCodec): a node the reader was
// sent earlier in its session is written as a reference, its row in its
// Type(n): group reduced to "id (sent earlier)", and the header counts
// them in sent_earlier:N, right after nodes:. See the package
// documentation, Session references.

// refMarker is what follows a reference's id on its row. No node row can
// hold it: after the id a row has only " key=value" pairs, whose keys are
// names.
const refMarker = " (sent earlier)"

// AppendReferenced appends the GOON text of r with the nodes at positions
// refs written as references (see the package documentation, Session
// references), under the codec's limits, and returns the extended slice.
// refs must be ascending positions in r.Nodes, each once, as
// delta.Session.Mark returns them. With no refs it writes exactly what
// AppendEncode writes. On error, a *wire.EncodeError, dst comes back as
// given. delta.Session.Encode calls it, as delta.SessionCodec.
func (c *Codec) AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	if len(refs) == 0 || r == nil {
		return c.AppendEncode(dst, r)
	}
	e := encoderPool.Get().(*encoder)
	defer e.release()
	for k, i := range refs {
		if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] {
			return dst, &wire.EncodeError{Codec: Name, Path: "nodes",
				Msg: "reference position " + strconv.Itoa(i) + " (refs[" + strconv.Itoa(k) + "]) is out of range, repeated or out of order (refs are ascending positions in nodes)"}
		}
		e.refs[&r.Nodes[i]] = struct{}{}
	}
	e.nrefs = len(refs)
	if err := c.encode(e, r); err != nil {
		return dst, err
	}
	return append(dst, e.b...), nil
}

// isRef reports whether n is written as a reference.
func (e *encoder) isRef(n *wire.Node) bool {
	_, ok := e.refs[n]
	return ok
}

// DecodeReferenced parses GOON text that may hold session references,
// under the codec's limits: the response, each reference a node of its
// type and id with nil Properties, and the positions of the references in
// its Nodes, ascending (none for a response without references). Errors
// are Decode's, and a malformed reference or a sent_earlier: count that
// disagrees with the rows is a positioned *wire.DecodeError.
// delta.Session.Decode calls it, then resolves the references.
func (c *Codec) DecodeReferenced(data []byte) (*wire.GraphResponse, []int, error) {
	return c.decode(data, true)
}

// sentEarlier reads the header's sent_earlier: count, which only
// DecodeReferenced accepts.
func (p *parser) sentEarlier(val string) error {
	if !p.acceptRefs {
		return p.errf("sent_earlier: announces session references, which Decode does not resolve (read the text with DecodeReferenced and resolve it with its delta.Session)")
	}
	n, ok := parseInt(val)
	if !ok || n < 1 {
		return p.errf("expected a count of at least 1 after sent_earlier:, found " + textwire.Excerpt(val))
	}
	if n > int64(p.lim.MaxElements) {
		return p.checkElements(p.lim.MaxElements+1, "sent_earlier")
	}
	return nil
}

// reference reads the current node row as a reference of type typ, if it
// is one: "id (sent earlier)". A row whose id is followed by " (" and
// anything else is an error, as is a reference in a text whose header has
// no sent_earlier: (which only DecodeReferenced accepts).
func (p *parser) reference(typ string) (wire.Node, bool, error) {
	line := p.cur
	sp := strings.IndexByte(line, ' ')
	if sp < 0 || !strings.HasPrefix(line[sp:], " (") {
		return wire.Node{}, false, nil
	}
	id, ok := parseInt(line[:sp])
	if !ok {
		return wire.Node{}, false, p.errf("bad id " + textwire.Excerpt(line[:sp]) + ", expected a decimal int64")
	}
	if line[sp:] != refMarker {
		return wire.Node{}, false, p.errf("expected \"" + refMarker[1:] + "\" after the id of a reference, found " + textwire.Excerpt(line[sp+1:]))
	}
	if !p.header[fSentEarlier].set {
		return wire.Node{}, false, p.errf("a reference (sent earlier) in a text whose header has no sent_earlier: field (only DecodeReferenced reads references)")
	}
	return wire.Node{Type: typ, ID: id}, true, nil
}

// checkReferences checks, once @nodes is read, that the references are
// as many as sent_earlier: says, and in an aggregation that none stands
// for a node lifted from rows (those are written whole).
func (p *parser) checkReferences() error {
	if h := p.header[fSentEarlier]; h.set && strconv.Itoa(len(p.sentRefs)) != h.value {
		return lineError(h.line, "sent_earlier:"+textwire.Clip(h.value)+" but @nodes has "+strconv.Itoa(len(p.sentRefs))+" references")
	}
	return nil
}
