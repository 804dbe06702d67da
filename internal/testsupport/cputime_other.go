//go:build !unix

package testsupport

import "time"

var epoch = time.Now()

// cpuTime falls back to wall time where the process's processor time is
// not at hand.
func cpuTime() time.Duration { return time.Since(epoch) }
