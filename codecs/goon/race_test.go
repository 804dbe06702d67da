//go:build race

package goon_test

const raceEnabled = true
