package testsupport

import (
	"os"
	"os/exec"
	"testing"
)

// Tool returns the path of the program name that the test needs. Without
// it the test is skipped, or fails when CI is set: .ci/run installs every
// tool a test needs, install says how.
func Tool(tb testing.TB, name, install string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s is not installed (required when CI is set): %s", name, install)
		}
		tb.Skipf("%s is not installed (%s)", name, install)
	}
	return path
}
