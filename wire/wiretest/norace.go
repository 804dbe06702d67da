//go:build !race

package wiretest

// raceEnabled: the race detector is on.
const raceEnabled = false
