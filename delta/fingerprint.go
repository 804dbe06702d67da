package delta

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"

	"github.com/graphwire/graphwire/wire"
)

// Hash is a SHA-256 fingerprint: of a whole response (Fingerprint), or of
// one node's content (a Session's record). Its printable form is
// "sha256:" followed by 64 lowercase hex digits.
type Hash [sha256.Size]byte

// hashPrefix is the algorithm name that opens the printable form.
const hashPrefix = "sha256:"

// String returns "sha256:<64 lowercase hex digits>".
func (h Hash) String() string {
	b := make([]byte, 0, len(hashPrefix)+2*len(h))
	b = append(b, hashPrefix...)
	return string(hex.AppendEncode(b, h[:]))
}

// IsZero reports whether h is the zero Hash, which no response has.
func (h Hash) IsZero() bool { return h == Hash{} }

// fingerprintTag opens the hashed bytes of a response; nodeTag those of one
// node (a Session's content hash). They keep the two kinds of digest apart.
const (
	fingerprintTag = "graphwire-fingerprint-v1\n"
	nodeTag        = "graphwire-node-v1\n"
)

// Fingerprint returns the fingerprint of r: SHA-256 over the canonical
// bytes of the package documentation (section Fingerprint). It depends on
// the response alone, never on the codec it travelled in: two responses
// have the same fingerprint exactly when wire.Equal(a, b, wire.Exact)
// holds (up to SHA-256 collisions). A nil response has the zero Hash.
func Fingerprint(r *wire.GraphResponse) Hash {
	if r == nil {
		return Hash{}
	}
	w := newCanon(sha256.New())
	w.b = append(w.b, fingerprintTag...)
	w.response(r)
	return w.sum()
}

// nodeHash is the content hash of one node: SHA-256 over nodeTag and the
// node's canonical bytes.
func nodeHash(n *wire.Node) Hash {
	w := newCanon(sha256.New())
	w.b = append(w.b, nodeTag...)
	w.node(n)
	return w.sum()
}

// canon writes the canonical bytes of a response, buffered, to a hash (or
// only into b when h is nil, for identity keys).
type canon struct {
	h hash.Hash
	b []byte
}

// newCanon returns a canon writing to h through a buffer of 4096 bytes,
// which never grows: a hash reads a response in fixed memory, whatever
// the length of its strings and lists.
func newCanon(h hash.Hash) *canon { return &canon{h: h, b: make([]byte, 0, 4096)} }

// room writes the buffer to the hash when n more bytes would not fit.
func (w *canon) room(n int) {
	if w.h != nil && len(w.b)+n > cap(w.b) {
		w.h.Write(w.b)
		w.b = w.b[:0]
	}
}

func (w *canon) sum() Hash {
	w.h.Write(w.b)
	var h Hash
	w.h.Sum(h[:0])
	return h
}

func (w *canon) u64(n uint64) { w.room(8); w.b = binary.BigEndian.AppendUint64(w.b, n) }
func (w *canon) count(n int)  { w.u64(uint64(n)) }
func (w *canon) i64(i int64)  { w.u64(uint64(i)) }
func (w *canon) byte1(c byte) { w.room(1); w.b = append(w.b, c) }

func (w *canon) str(s string) {
	w.count(len(s))
	for w.h != nil && cap(w.b) > 0 && len(w.b)+len(s) > cap(w.b) { // in pieces
		n := copy(w.b[len(w.b):cap(w.b)], s)
		w.b, s = w.b[:len(w.b)+n], s[n:]
		w.h.Write(w.b)
		w.b = w.b[:0]
	}
	w.b = append(w.b, s...)
}
func (w *canon) present(ok bool) bool {
	if ok {
		w.byte1(1)
	} else {
		w.byte1(0)
	}
	return ok
}

func (w *canon) boolean(b bool) { w.present(b) }

// opt writes an optional field: absent, or present and written by write.
func opt[T int64 | bool | string](w *canon, o wire.Opt[T], write func(T)) {
	if w.present(o.Valid) {
		write(o.V)
	}
}

// The tags of the value kinds.
const (
	tagNull = iota
	tagBool
	tagInt
	tagFloat
	tagString
	tagList
)

func (w *canon) value(v wire.Value) {
	switch v.Kind() {
	case wire.KindBool:
		w.byte1(tagBool)
		w.boolean(v.Bool())
	case wire.KindInt:
		w.byte1(tagInt)
		w.i64(v.Int())
	case wire.KindFloat:
		w.byte1(tagFloat)
		w.u64(math.Float64bits(v.Float()))
	case wire.KindString:
		w.byte1(tagString)
		w.str(v.Text())
	case wire.KindList:
		w.byte1(tagList)
		seq(w, v.List(), func(x *wire.Value) { w.value(*x) })
	default:
		w.byte1(tagNull)
	}
}

func (w *canon) node(n *wire.Node) {
	w.str(n.Type)
	w.i64(n.ID)
	seq(w, n.Properties, func(p *wire.Property) {
		w.str(p.Key)
		w.value(p.Value)
	})
}

func (w *canon) edge(e *wire.Edge) {
	w.str(e.From)
	w.i64(e.FromID)
	w.str(e.To)
	w.i64(e.ToID)
	w.str(e.Type)
	opt(w, e.Depth, w.i64)
	opt(w, e.PathID, w.i64)
	opt(w, e.Step, w.i64)
}

func (w *canon) row(row *wire.Row) {
	seq(w, *row, func(c *wire.Cell) {
		w.str(c.Name)
		if w.present(c.Node != nil) {
			w.node(c.Node)
		} else {
			w.value(c.Value)
		}
	})
}

// seq writes xs: its length, then each element.
func seq[T any](w *canon, xs []T, elem func(*T)) {
	w.count(len(xs))
	for i := range xs {
		elem(&xs[i])
	}
}

func (w *canon) response(r *wire.GraphResponse) {
	w.str(r.FormatVersion)
	w.str(string(r.QueryType))
	seq(w, r.Nodes, w.node)
	seq(w, r.Edges, w.edge)
	if w.present(r.Columns != nil) {
		seq(w, r.Columns, func(c *wire.Column) {
			w.str(c.Name)
			w.str(c.Function)
			opt(w, c.Target, w.str)
			opt(w, c.Property, w.str)
		})
	}
	if w.present(r.GroupColumns != nil) {
		seq(w, r.GroupColumns, func(g *wire.GroupColumn) {
			w.str(g.Name)
			w.str(string(g.Kind))
			w.str(g.Node)
			opt(w, g.Property, w.str)
			opt(w, g.Entity, w.str)
		})
	}
	if w.present(r.Rows != nil) {
		seq(w, r.Rows, w.row)
	}
	if p := r.Pagination; w.present(p != nil) {
		w.boolean(p.HasMore)
		opt(w, p.TotalRows, w.i64)
		opt(w, p.Truncated, w.boolean)
		opt(w, p.NextCursor, w.str)
	}
}

// rowKey is the canonical bytes of one row, its identity within a
// response (with its occurrence).
func rowKey(row wire.Row) string {
	w := canon{}
	w.row(&row)
	return string(w.b)
}
