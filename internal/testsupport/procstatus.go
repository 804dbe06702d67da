package testsupport

import (
	"os"
	"strconv"
	"strings"
)

// ProcStatus reads a "kB" field of /proc/PID/status (such as VmRSS or
// VmHWM) of the process pid, this one when pid is 0, in bytes; ok is false
// where there is no /proc or no such field.
func ProcStatus(pid int, field string) (bytes int64, ok bool) {
	p := "self"
	if pid != 0 {
		p = strconv.Itoa(pid)
	}
	b, err := os.ReadFile("/proc/" + p + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
