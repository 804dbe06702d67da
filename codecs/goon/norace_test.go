//go:build !race

package goon_test

const raceEnabled = false
