//go:build !unix

package wiretest

import "time"

var processStart = time.Now()

// cpuTime stands in for the process's processor time where it cannot be
// read: the time on the wall since the process started.
func cpuTime() time.Duration { return time.Since(processStart) }
