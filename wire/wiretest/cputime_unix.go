//go:build unix

package wiretest

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time the process has used, user and
// system, all threads: steadier than the wall clock on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
