package testsupport

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the wirebench binary of this module, compiled once per test
// process by Wirebench and removed by RemoveWirebench.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// Wirebench returns the path of the wirebench command built from this
// module (without the race detector), compiled once for every test of the
// process that asks. A package that calls it removes the binary at the end
// of its TestMain with RemoveWirebench. Without a go command it skips the
// test.
func Wirebench(t testing.TB) string {
	t.Helper()
	// The go command of the toolchain running the tests, when go test says
	// which (it sets GOROOT), else the one on PATH.
	goTool, err := exec.LookPath(filepath.Join(os.Getenv("GOROOT"), "bin", "go"))
	if os.Getenv("GOROOT") == "" || err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			t.Skipf("no go command to build wirebench: %v", err)
		}
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "wirebench-test-"); built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "wirebench")
		cmd := exec.Command(goTool, "build", "-o", bin, "github.com/graphwire/graphwire/cmd/wirebench")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// RemoveWirebench removes the binary Wirebench built, if it did, and
// returns code: a package's TestMain is os.Exit(RemoveWirebench(m.Run())).
func RemoveWirebench(code int) int {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	return code
}

// Run is what one run of a command gave: its exit code and its output.
type Run struct {
	Code           int
	Stdout, Stderr string
}

// RunIn runs bin with args in dir (the test's own directory when dir is
// ""), stdin on its standard input, and returns its exit code and output;
// it fails the test when the command cannot be started.
func RunIn(t testing.TB, dir string, stdin []byte, bin string, args ...string) Run {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", filepath.Base(bin), err)
	}
	return Run{code, out.String(), errOut.String()}
}
