package fit

import "github.com/graphwire/graphwire/wire"

// RaceEnabled reports, to the external tests, whether the race detector is
// on.
func RaceEnabled() bool { return raceEnabled }

// CursorAt returns the cursor fit would issue for unit next of r, for the
// external tests to forge cursors past the end.
func CursorAt(r *wire.GraphResponse, next int) string { return encodeCursor(next, fingerprintOf(r)) }

// TokenizedBytes returns how many bytes the Pager has given its tokenizer
// so far: the deterministic part of what pricing and paging cost.
func TokenizedBytes(p *Pager) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.f.pr.counted
}

// FingerprintTaken reports whether the Pager has read its response for
// the fingerprint, which only a cursor needs.
func FingerprintTaken(p *Pager) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.f.fpDone
}
