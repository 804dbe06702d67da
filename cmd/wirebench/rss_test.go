//go:build linux

package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// rssRun is one run of the built binary: its exit code, output, peak
// resident set and wall time.
type rssRun struct {
	code           int
	stdout, stderr string
	maxRSS         int64 // bytes
	elapsed        time.Duration
}

// runRSS runs bin with args on the file in, stdout to a file, and reads
// the child's peak resident set: from GNU time when /usr/bin/time is
// there, else from the child's rusage. (A child's ru_maxrss counts the
// test process's own resident set, which it shares between fork and exec;
// /usr/bin/time is a small process in between.)
func runRSS(t *testing.T, bin, in string, args ...string) rssRun {
	t.Helper()
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, append(args, in)...)
	timeFile := filepath.Join(dir, "time")
	gnuTime := false
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		gnuTime = true
		cmd = exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", timeFile, bin}, append(args, in)...)...)
	}
	cmd.Stdout, cmd.Stderr = out, &stderr
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running wirebench: %v", err)
	}
	var maxRSS int64
	if gnuTime {
		b, err := os.ReadFile(timeFile)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(string(b))
		if len(lines) == 0 {
			t.Fatalf("/usr/bin/time wrote nothing")
		}
		kb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			t.Fatalf("/usr/bin/time wrote %q", b)
		}
		maxRSS = kb << 10
	} else {
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			t.Skip("no rusage for the child")
		}
		maxRSS = ru.Maxrss << 10
	}
	st, err := out.Stat()
	if err != nil {
		t.Fatal(err)
	}
	stdout := ""
	if st.Size() > 0 && st.Size() < 1<<10 {
		b, _ := os.ReadFile(out.Name())
		stdout = string(b)
	} else if st.Size() > 0 {
		stdout = fmt.Sprintf("(%d bytes)", st.Size())
	}
	return rssRun{code: code, stdout: stdout, stderr: stderr.String(), maxRSS: maxRSS, elapsed: elapsed}
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// goonNameLenBomb is 16 nodes each with a name truncated to 200 code
// points, a name_len=16776192 breadcrumb and a name_len property of its
// own (so that the decoder restores the name to its declared length): 3.7
// KB that a decoder restoring without a bound would turn into 268 MB of
// names.
func goonNameLenBomb() []byte {
	var b strings.Builder
	b.WriteString("@header\nquery_type:search\ngoon_version:1.0.0\nnodes:16\nedges:0\n@nodes\nUser(16):\n")
	name := strings.Repeat("b", 197) + "..."
	for i := range 16 {
		fmt.Fprintf(&b, "%d name=%s name_len=16776192 name_len=1\n", i+1, name)
	}
	b.WriteString("@edges\n")
	return []byte(b.String())
}

// toonDelimiterRow is a table row of n delimiters under a 5-field header.
func toonDelimiterRow(n int) []byte {
	var b bytes.Buffer
	b.WriteString("format_version: 1.2.0\nquery_type: search\nnodes:\n  User[1]{id,name,a,b,c}:\n    ")
	b.Write(bytes.Repeat([]byte{','}, n))
	b.WriteString("\nedges: []\n")
	return b.Bytes()
}

// largeJSON is a valid search response of about 60 MB.
func largeJSON(t *testing.T) []byte {
	t.Helper()
	types := []string{"User", "Project", "Issue", "MergeRequest"}
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: make([]wire.Node, 430_000)}
	for i := range r.Nodes {
		r.Nodes[i] = wire.Node{Type: types[i%len(types)], ID: int64(i + 1), Properties: []wire.Property{
			wire.Prop("name", wire.String(fmt.Sprintf("node %d of the generated response", i))),
			wire.Prop("score", wire.Float(float64(i)/7)),
			wire.Prop("open", wire.Bool(i%3 == 0)),
			wire.Prop("labels", wire.ListOf(wire.String("backend"), wire.Int(int64(i%10)))),
		}}
	}
	b, err := wire.EncodeWith("json", r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeRSS runs "wirebench decode" on hostile and large input and
// holds the process's peak resident set to 16x the input + 16 MiB above
// the binary's own (its peak on a tiny input). Hostile input ends as every
// bad input does: exit 1, nothing on stdout, one line on stderr.
func TestDecodeRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on inputs of up to 60 MB")
	}
	if testsupport.Race {
		t.Skip("builds its inputs of up to 60 MB on one goroutine; .ci/run runs it without -race")
	}
	bin := testsupport.Wirebench(t)
	tiny := writeTemp(t, "tiny.json", []byte(`{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"1"}],"edges":[]}`))
	base := runRSS(t, bin, tiny, "decode", "-f", "json")
	if base.code != 0 {
		t.Fatalf("the tiny input: exit %d: %s", base.code, base.stderr)
	}
	t.Logf("baseline: peak RSS %d KiB on a tiny input, %v", base.maxRSS>>10, base.elapsed)
	for _, tt := range []struct {
		name, codec string
		data        []byte
		wantErr     string // "" for a valid input
	}{
		{"goon name_len bomb", "goon", goonNameLenBomb(), "goon: "},
		{"toon row of 20M delimiters", "toon", toonDelimiterRow(20_000_000), "toon: "},
		{"60 MB json", "json", largeJSON(t), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := writeTemp(t, "input."+tt.codec, tt.data)
			res := runRSS(t, bin, in, "decode", "-f", tt.codec)
			bound := 16*int64(len(tt.data)) + 16<<20 + base.maxRSS
			t.Logf("%d bytes in: exit %d, peak RSS %d KiB (bound %d KiB), %v; stderr %.200q", len(tt.data), res.code, res.maxRSS>>10, bound>>10, res.elapsed, res.stderr)
			if res.maxRSS > bound {
				t.Errorf("peak RSS %d bytes, more than 16x the %d-byte input + 16 MiB + the baseline %d (%d)", res.maxRSS, len(tt.data), base.maxRSS, bound)
			}
			if tt.wantErr == "" {
				if res.code != 0 {
					t.Errorf("exit %d, want 0: %s", res.code, res.stderr)
				}
				return
			}
			if res.code != 1 || res.stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit 1 and nothing on stdout", res.code, res.stdout)
			}
			if strings.Count(res.stderr, "\n") != 1 || !strings.HasPrefix(res.stderr, "wirebench decode: ") || !strings.Contains(res.stderr, tt.wantErr) {
				t.Errorf("stderr %q: want one line, \"wirebench decode: ...%s...\"", res.stderr, tt.wantErr)
			}
		})
	}
}
