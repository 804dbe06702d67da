//go:build race

package fit

func init() { raceEnabled = true }
