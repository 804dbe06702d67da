package fit

import (
	"encoding/base64"
	"encoding/binary"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// A cursor is the base64url text (no padding) of 16 bytes: a version byte
// (2), three reserved zero bytes, the index of the next unit as a
// big-endian uint32, and the first 8 bytes of the response's fingerprint,
// delta.Fingerprint. It is opaque to readers, stateless (the response and
// the cursor are all Page needs) and free of characters that GOON or TOON
// would quote. Version 1 carried a fingerprint of fit's own, which this
// version no longer computes: such a cursor is refused as outdated.
const (
	cursorVersion = 2
	cursorBytes   = 16
	fingerprintN  = 8
	maxCursorLen  = 64 // longer text is refused before it is decoded
)

// fingerprint is the part of a response's delta.Fingerprint a cursor
// carries: enough to tell a cursor of another response from one of this
// response, short enough to keep the cursor short.
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

// outdated is the message for a cursor of an earlier version's form.
const outdated = "an earlier version of fit's cursor, no longer read: page the response again from its start"

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
	if err != nil || n != cursorBytes || b[1]|b[2]|b[3] != 0 || b[0] == 0 || b[0] > cursorVersion {
		return cursorText{}, &CursorError{Cursor: s, Msg: notFits}
	}
	if b[0] < cursorVersion {
		return cursorText{}, &CursorError{Cursor: s, Outdated: true, Msg: outdated}
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
	if r != nil && r.Pagination != nil && r.Pagination.NextCursor.Valid && r.Pagination.NextCursor.V == s {
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

// fingerprintOf returns the fingerprint a cursor of r carries. Reading
// all of r, it is taken only when a cursor is read or written (see
// fitter.fingerprint).
func fingerprintOf(r *wire.GraphResponse) fingerprint {
	h := delta.Fingerprint(r)
	return fingerprint(h[:fingerprintN])
}
