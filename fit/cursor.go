package fit

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"hash"
	"math"

	"github.com/graphwire/graphwire/wire"
)

// A cursor is the base64url text (no padding) of 16 bytes: a version byte
// (1), three reserved zero bytes, the index of the next unit as a
// big-endian uint32, and the first 8 bytes of the response's fingerprint,
// a SHA-256 over every field of the response. It is opaque to readers,
// stateless (the response and the cursor are all Page needs) and free of
// characters that GOON or TOON would quote.
const (
	cursorVersion = 1
	cursorBytes   = 16
	fingerprintN  = 8
	maxCursorLen  = 64 // longer text is refused before it is decoded
)

type fingerprint [fingerprintN]byte

func encodeCursor(next int, fp fingerprint) string {
	var b [cursorBytes]byte
	b[0] = cursorVersion
	binary.BigEndian.PutUint32(b[4:8], uint32(next))
	copy(b[8:], fp[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// notFits is the message for text that is not a cursor of fit's form.
// The next_cursor of a last page is the upstream server's (see the
// package doc), and is the likeliest such text.
const notFits = "not a cursor issued by fit (a last page's next_cursor is the upstream server's)"

// cursorText is a cursor whose text has been parsed but not yet checked
// against a response.
type cursorText struct {
	text string
	next uint32
	fp   fingerprint
}

// parseCursor checks what can be checked of a cursor without its
// response: its length, its base64url text, its size, version and
// reserved bytes, and an index that no response could hold (0, where no
// page ever resumes). It allocates nothing beyond the error.
func parseCursor(s string) (cursorText, error) {
	if len(s) > maxCursorLen {
		return cursorText{}, &CursorError{Cursor: s, Msg: "too long to be a cursor"}
	}
	var b [cursorBytes]byte
	if base64.RawURLEncoding.DecodedLen(len(s)) != cursorBytes {
		return cursorText{}, &CursorError{Cursor: s, Msg: notFits}
	}
	n, err := base64.RawURLEncoding.Decode(b[:], []byte(s))
	if err != nil || n != cursorBytes || b[0] != cursorVersion || b[1]|b[2]|b[3] != 0 {
		return cursorText{}, &CursorError{Cursor: s, Msg: notFits}
	}
	c := cursorText{text: s, next: binary.BigEndian.Uint32(b[4:8]), fp: fingerprint(b[8:])}
	if c.next == 0 {
		return cursorText{}, &CursorError{Cursor: s, Msg: "the cursor points outside the response"}
	}
	return c, nil
}

// parseCursorFor parses a cursor given with the response r, which tells
// one more thing than the text alone: whether the text is r's own
// next_cursor, the upstream server's cursor. That is refused with
// Upstream set, whatever the text looks like; the comparison costs no more
// than reading the cursor.
func parseCursorFor(r *wire.GraphResponse, s string) (cursorText, error) {
	if r != nil && r.Pagination != nil && r.Pagination.NextCursor.Valid && r.Pagination.NextCursor.String == s {
		return cursorText{}, &CursorError{Cursor: s, Upstream: true,
			Msg: "the upstream server's cursor (the response's own next_cursor), not fit's: fit has paged all of this response; fetch the server's next page with it"}
	}
	return parseCursor(s)
}

// CheckCursor reports whether s can be a cursor fit issued, checking
// everything that can be checked without the response (length, encoding,
// version). A nil error does not mean that s belongs to a given response:
// Page checks that. It costs nothing proportional to any response, so a
// caller can refuse a bad cursor before reading or decoding one; the
// error is a *CursorError.
func CheckCursor(s string) error {
	_, err := parseCursor(s)
	return err
}

// matchFingerprint refuses a cursor issued for another response.
func (c cursorText) matchFingerprint(fp fingerprint) error {
	if c.fp != fp {
		return &CursorError{Cursor: c.text, Msg: "the cursor belongs to a different response", Mismatch: true}
	}
	return nil
}

// index returns the unit the cursor resumes at, refusing one outside
// [1, units).
func (c cursorText) index(units int) (int, error) {
	if uint64(c.next) >= uint64(units) {
		return 0, &CursorError{Cursor: c.text, Msg: "the cursor points outside the response"}
	}
	return int(c.next), nil
}

// decodeCursor returns the unit index a cursor resumes at. It refuses
// text that is not a cursor, a cursor of another response, and an index
// outside [1, units).
func decodeCursor(s string, fp fingerprint, units int) (int, error) {
	c, err := parseCursor(s)
	if err != nil {
		return 0, err
	}
	if err := c.matchFingerprint(fp); err != nil {
		return 0, err
	}
	return c.index(units)
}

// fingerprintOf hashes every field of r, each length-prefixed, so that two
// responses share a fingerprint only when they are equal field for field
// (kinds and float bits included).
func fingerprintOf(r *wire.GraphResponse) fingerprint {
	h := &hasher{h: sha256.New()}
	h.str(r.FormatVersion)
	h.str(string(r.QueryType))
	h.int(int64(len(r.Nodes)))
	for i := range r.Nodes {
		h.node(&r.Nodes[i])
	}
	h.int(int64(len(r.Edges)))
	for _, e := range r.Edges {
		h.str(e.From)
		h.int(e.FromID)
		h.str(e.To)
		h.int(e.ToID)
		h.str(e.Type)
		h.optInt(e.Depth)
		h.optInt(e.PathID)
		h.optInt(e.Step)
	}
	h.present(r.Columns != nil)
	h.int(int64(len(r.Columns)))
	for _, c := range r.Columns {
		h.str(c.Name)
		h.str(c.Function)
		h.optStr(c.Target)
		h.optStr(c.Property)
	}
	h.present(r.GroupColumns != nil)
	h.int(int64(len(r.GroupColumns)))
	for _, g := range r.GroupColumns {
		h.str(g.Name)
		h.str(string(g.Kind))
		h.str(g.Node)
		h.optStr(g.Property)
		h.optStr(g.Entity)
	}
	h.present(r.Rows != nil)
	h.int(int64(len(r.Rows)))
	for _, row := range r.Rows {
		h.int(int64(len(row)))
		for _, c := range row {
			h.str(c.Name)
			h.present(c.Node != nil)
			if c.Node != nil {
				h.node(c.Node)
			} else {
				h.value(c.Value)
			}
		}
	}
	h.present(r.Pagination != nil)
	if pg := r.Pagination; pg != nil {
		h.present(pg.HasMore)
		h.optInt(pg.TotalRows)
		h.present(pg.Truncated.Valid)
		h.present(pg.Truncated.Bool)
		h.optStr(pg.NextCursor)
	}
	h.flush()
	var fp fingerprint
	copy(fp[:], h.h.Sum(nil))
	return fp
}

// hasher feeds a hash through a buffer of hashBuf bytes, so that the
// many small fields of a response cost the hash one call per block
// rather than one per field.
type hasher struct {
	h   hash.Hash
	n   int // bytes of buf in use
	buf [hashBuf]byte
}

const hashBuf = 8 << 10

func (h *hasher) flush() {
	h.h.Write(h.buf[:h.n])
	h.n = 0
}

func (h *hasher) int(i int64) {
	if h.n > hashBuf-8 {
		h.flush()
	}
	binary.BigEndian.PutUint64(h.buf[h.n:], uint64(i))
	h.n += 8
}

func (h *hasher) str(s string) {
	h.int(int64(len(s)))
	for len(s) > 0 { // through the buffer: no copy of the string is allocated
		if h.n == hashBuf {
			h.flush()
		}
		n := copy(h.buf[h.n:], s)
		h.n += n
		s = s[n:]
	}
}

func (h *hasher) present(b bool) {
	if b {
		h.int(1)
	} else {
		h.int(0)
	}
}

func (h *hasher) optInt(o wire.OptInt) {
	h.present(o.Valid)
	h.int(o.Int)
}

func (h *hasher) optStr(o wire.OptString) {
	h.present(o.Valid)
	h.str(o.String)
}

func (h *hasher) node(n *wire.Node) {
	h.str(n.Type)
	h.int(n.ID)
	h.int(int64(len(n.Properties)))
	for _, p := range n.Properties {
		h.str(p.Key)
		h.value(p.Value)
	}
}

func (h *hasher) value(v wire.Value) {
	h.int(int64(v.Kind()))
	switch v.Kind() {
	case wire.KindBool:
		h.present(v.Bool())
	case wire.KindInt:
		h.int(v.Int())
	case wire.KindFloat:
		h.int(int64(math.Float64bits(v.Float())))
	case wire.KindString:
		h.str(v.Text())
	case wire.KindList:
		h.int(int64(len(v.List())))
		for _, x := range v.List() {
			h.value(x)
		}
	}
}
