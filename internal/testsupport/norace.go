//go:build !race

package testsupport

// Race reports whether the race detector is on; timing and memory
// measurements mean little under it.
const Race = false
