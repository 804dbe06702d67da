//go:build race

package wiretest

// raceEnabled reports whether the race detector is on; timings mean little
// under it.
const raceEnabled = true
