//go:build !race

package codecs_test

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
