package main_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func TestMain(m *testing.M) {
	os.Exit(testsupport.RemoveWirebench(m.Run()))
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
	bin := testsupport.Wirebench(t)
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
				res := testsupport.RunIn(t, "", in.Data, bin, "decode", "-f", name)
				code := res.Code
				what := in.Class + " input " + in.Name
				if decErr != nil {
					failures++
					if code != 1 {
						t.Errorf("%s: exit code %d, want 1 (stderr %q)", what, code, res.Stderr)
					}
					if len(res.Stdout) != 0 {
						t.Errorf("%s: %d bytes on stdout, want none: %s", what, len(res.Stdout), wiretest.Quote([]byte(res.Stdout)))
					}
					msg := res.Stderr
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
					t.Errorf("%s: decodes in the library, but wirebench exits %d: %s", what, code, res.Stderr)
					continue
				}
				if got := []byte(strings.TrimSuffix(res.Stdout, "\n")); !bytes.Equal(got, want) {
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
