package fit

// RaceEnabled reports, to the external tests, whether the race detector is
// on.
func RaceEnabled() bool { return raceEnabled }
