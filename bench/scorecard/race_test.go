//go:build race

package scorecard

import "github.com/graphwire/graphwire/bench/corpus"

const raceEnabled = true

// Under the race detector, a card of the generated corpus prices the
// first session of each profile instead of every one: pricing is token
// counting on one goroutine per session, which the detector slows
// tenfold, while buildSessions' workers and caches do the same with three
// sessions as with all of them. .ci/run runs the tests that build such a
// card again without the race detector, on every session.
func init() {
	all := sessions
	sessions = func() []corpus.Session {
		var first []corpus.Session
		for i, s := range all() {
			if i%corpus.SessionCount == 0 {
				first = append(first, s)
			}
		}
		return first
	}
}
