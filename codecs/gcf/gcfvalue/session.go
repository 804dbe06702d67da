package gcfvalue

import (
	"errors"
	"slices"
)

// Policy is when a Session re-anchors: sends the full set although it
// could send a delta (spec §10a.8).
type Policy struct {
	// N, when positive, re-anchors every N turns: the N-th update after
	// a full payload is sent full (the spec's fixed-N policy; it suggests
	// N = 15).
	N int
	// SizeGuard re-anchors when the bytes of the deltas sent since the
	// last full payload, this turn's included, reach the bytes of this
	// turn's full payload (the spec's adaptive policy).
	SizeGuard bool
}

// Session is a producer's side of generic delta (spec §10a): it sends a
// keyed set in full once, then, for each update, a delta, an unchanged
// header, or the full set again when the schema changed (§10a.7) or the
// Policy says to re-anchor. It holds the last set it sent. A Session is
// not safe for concurrent use.
type Session struct {
	tool   string
	policy Policy
	opts   Options
	held   *KeyedSet
	turns  int // updates since the last full payload
	sent   int // delta bytes since the last full payload
}

// NewSession returns a session whose full payloads carry tool= (when not
// empty).
func NewSession(tool string, p Policy, opts Options) *Session {
	return &Session{tool: tool, policy: p, opts: opts}
}

// Start returns the full payload of the first set.
func (s *Session) Start(set *KeyedSet) ([]byte, error) {
	out, err := AppendFull(nil, set, s.tool, s.opts)
	if err != nil {
		return nil, err
	}
	s.held, s.turns, s.sent = set, 0, 0
	return out, nil
}

// Next returns the payload that brings a consumer holding the last set to
// next, and whether it is a full payload. A delta carries no tool= or
// savings=; an update that changes nothing gives the unchanged header
// (AppendUnchanged).
func (s *Session) Next(next *KeyedSet) (payload []byte, full bool, err error) {
	if s.held == nil {
		return nil, false, errors.New("gcf: session: Next before Start")
	}
	s.turns++
	fullWire, err := AppendFull(nil, next, s.tool, s.opts)
	if err != nil {
		return nil, false, err
	}
	if next.Key != s.held.Key || next.Name != s.held.Name || !slices.Equal(next.Fields, s.held.Fields) ||
		(s.policy.N > 0 && s.turns >= s.policy.N) {
		s.held, s.turns, s.sent = next, 0, 0
		return fullWire, true, nil
	}
	d, err := Diff(s.held, next)
	if err != nil {
		return nil, false, err
	}
	if d.Empty() {
		s.held = next
		return AppendUnchanged(nil, d.NewRoot, len(next.Rows)), false, nil
	}
	dw, err := AppendDelta(nil, d, s.opts)
	switch {
	case err != nil:
		return nil, false, err
	case s.policy.SizeGuard && s.sent+len(dw) >= len(fullWire):
		s.held, s.turns, s.sent = next, 0, 0
		return fullWire, true, nil
	}
	s.held = next
	s.sent += len(dw)
	return dw, false, nil
}
