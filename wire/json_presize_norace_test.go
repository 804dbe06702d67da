//go:build !race

package wire_test

const presizeRace = false
