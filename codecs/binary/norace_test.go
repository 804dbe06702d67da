//go:build !race

package binary

// raceSlowdown widens time bounds under the race detector.
const raceSlowdown = 1
