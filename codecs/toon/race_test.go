//go:build race

package toon_test

// raceEnabled reports whether the race detector is on: time bounds mean
// little under it.
const raceEnabled = true
