package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// built is the wirebench binary the tests run, compiled once per test
// process by build and removed by TestMain.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// build compiles wirebench into a temporary directory, once for all the
// tests that run it, and returns its path.
func build(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		// The go command of the toolchain running the tests, when go test
		// says which (it sets GOROOT), else the one on PATH.
		goTool := "go"
		if root := os.Getenv("GOROOT"); root != "" {
			if p, err := exec.LookPath(filepath.Join(root, "bin", "go")); err == nil {
				goTool = p
			}
		}
		if built.dir, built.err = os.MkdirTemp("", "wirebench-test-"); built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "wirebench")
		if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
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

// sample picks from each class of hostile inputs the first four and every
// 97th after them, at most twelve, and one big input.
func sample(valid [][]byte) []wiretest.Input {
	var out []wiretest.Input
	seen := map[string]int{}
	for in := range wiretest.Hostile(valid, 64<<20) {
		i := seen[in.Class]
		seen[in.Class]++
		limit := 12
		if in.Class == wiretest.ClassBig {
			limit = 1
		}
		if (i < 4 || i%97 == 0) && countClass(out, in.Class) < limit {
			out = append(out, in)
		}
	}
	return out
}

func countClass(ins []wiretest.Input, class string) int {
	n := 0
	for _, in := range ins {
		if in.Class == class {
			n++
		}
	}
	return n
}

// TestDecodeHostile drives the built binary: for a sample of each class of
// hostile input of each registered codec, "wirebench decode -f NAME" with
// the input on stdin does what the library does. When Decode fails, it exits
// 1 with nothing on stdout and one line on stderr holding the decode error
// (codec and position); when Decode succeeds (some hostile inputs are
// valid), it exits 0 and writes the canonical JSON.
func TestDecodeHostile(t *testing.T) {
	if testsupport.Race {
		t.Skip("decodes each codec's hostile inputs, 64 MiB ones among them, on one goroutine beside the binary; .ci/run runs it without -race")
	}
	bin := build(t)
	js, err := wire.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range wire.List() {
		name := info.Name
		codec, _ := wire.Lookup(name)
		t.Run(name, func(t *testing.T) {
			var valid [][]byte
			for _, r := range wiretest.FixedResponses() {
				if b, err := codec.AppendEncode(nil, r); err == nil {
					valid = append(valid, b)
				}
			}
			if len(valid) == 0 {
				t.Fatalf("%s encodes none of the fixed responses", name)
			}
			var failures, successes int
			for _, in := range sample(valid) {
				resp, decErr := codec.Decode(in.Data)
				cmd := exec.Command(bin, "decode", "-f", name)
				cmd.Stdin = bytes.NewReader(in.Data)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				runErr := cmd.Run()
				code := 0
				var ee *exec.ExitError
				if errors.As(runErr, &ee) {
					code = ee.ExitCode()
				} else if runErr != nil {
					t.Fatalf("running wirebench: %v", runErr)
				}
				what := in.Class + " input " + in.Name
				if decErr != nil {
					failures++
					if code != 1 {
						t.Errorf("%s: exit code %d, want 1 (stderr %q)", what, code, stderr.String())
					}
					if stdout.Len() != 0 {
						t.Errorf("%s: %d bytes on stdout, want none: %s", what, stdout.Len(), wiretest.Quote(stdout.Bytes()))
					}
					msg := stderr.String()
					if !strings.HasSuffix(msg, "\n") || strings.Count(msg, "\n") != 1 {
						t.Errorf("%s: stderr is not one line: %q", what, msg)
					}
					if !strings.Contains(msg, decErr.Error()) {
						t.Errorf("%s: stderr %q does not hold the decode error %q", what, msg, decErr.Error())
					}
					continue
				}
				successes++
				want, err := js.AppendEncode(nil, resp)
				if err != nil {
					t.Errorf("%s: decodes, but its JSON encoding fails: %v", what, err)
					continue
				}
				if code != 0 {
					t.Errorf("%s: decodes in the library, but wirebench exits %d: %s", what, code, stderr.String())
					continue
				}
				if got := bytes.TrimSuffix(stdout.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
					t.Errorf("%s: stdout is not the canonical JSON %s", what, wiretest.ByteDiff(want, got))
				}
			}
			t.Logf("%d hostile inputs rejected with exit 1, %d valid ones decoded", failures, successes)
			if failures == 0 {
				t.Errorf("no hostile input failed to decode")
			}
		})
	}
}
