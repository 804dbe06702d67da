//go:build !race

package json_test

const presizeRace = false
