//go:build unix

package testsupport

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time the process has used, user and
// system, all threads: what a measurement on a busy machine should count,
// since waiting for a processor is not work.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
