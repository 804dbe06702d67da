//go:build !race

package scorecard

const raceEnabled = false
