package delta_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestPythonPatcher applies the json codec's delta documents of generated
// deltas with testdata/patch.py, an independent implementation of the
// documented document, check and fingerprint in Python's standard
// library: every result must be next exactly, and every delta applied to
// a wrong base or with an altered check or content must be refused. It runs when
// python3 is on the PATH, and must under CI=true.
func TestPythonPatcher(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 is required under CI to run the independent patcher: %v", err)
		}
		t.Skipf("python3 not found (%v); the independent patcher does not run", err)
	}
	n := 600
	if testing.Short() || testsupport.Race {
		n = 150
	}
	type tc struct {
		name       string
		base, next *wire.GraphResponse
		wantErr    bool
	}
	var cases []tc
	var in bytes.Buffer
	add := func(c tc, base *wire.GraphResponse, deltaJSON []byte) {
		bj, err := jsoncodec.AppendEncode(nil, base)
		if err != nil {
			t.Fatal(err)
		}
		in.WriteString(`{"base":`)
		in.Write(bj)
		in.WriteString(`,"delta":`)
		in.Write(deltaJSON)
		in.WriteString("}\n")
		cases = append(cases, c)
	}
	plain, awkward := pairGen(), pairGenWith(wiretest.Options{AwkwardNames: true})
	for seed := range n {
		gen := plain
		if seed%2 == 1 {
			gen = awkward // names of any text: quotes, newlines, unicode, ""
		}
		p := gen.Example(seed)
		base, next := p[0], p[1]
		d, dj := deltatest.Document(t, jsonc, base, next)
		name := "seed " + itoa(seed)
		add(tc{name: name, base: base, next: next}, base, dj)
		if seed%3 != 0 {
			continue
		}
		other := wiretest.Response().Example(seed + 1_000_000)
		if delta.Fingerprint(other) != delta.Fingerprint(base) {
			add(tc{name: name + ", wrong base", wantErr: true}, other, dj)
		}
		bad := *d
		bad.Check[0] ^= 1
		bj, err := delta.AppendDelta(jsonc, nil, &bad)
		if err != nil {
			t.Fatal(err)
		}
		add(tc{name: name + ", altered check", wantErr: true}, base, bj)
		if len(d.Nodes.Added) > 0 {
			bad := *d
			c := *d.Content
			c.Nodes = append([]wire.Node(nil), d.Content.Nodes...)
			c.Nodes[len(d.Changed)].Type += "x"
			bad.Content = &c
			bj, err := delta.AppendDelta(jsonc, nil, &bad)
			if err != nil {
				t.Fatal(err)
			}
			add(tc{name: name + ", altered added node", wantErr: true}, base, bj)
		}
	}
	lines := runPatchPy(t, python, &in)
	if len(lines) != len(cases) {
		t.Fatalf("patch.py answered %d of %d cases", len(lines), len(cases))
	}
	applied, refused := 0, 0
	for i, line := range lines {
		c := cases[i]
		if c.wantErr {
			if line.Error == "" {
				t.Errorf("%s: patch.py applied a delta it must refuse", c.name)
			}
			refused++
			continue
		}
		if line.Error != "" {
			t.Errorf("%s: patch.py refused: %s", c.name, line.Error)
			continue
		}
		got, err := jsoncodec.DecodeWithin(line.Result, wire.Limits{})
		if err != nil {
			t.Errorf("%s: patch.py's result does not decode: %v", c.name, err)
			continue
		}
		if diff := wiretest.Diff(c.next, got, wire.Exact); diff != "" {
			t.Errorf("%s: patch.py's result differs from next (-want +got):\n%s", c.name, diff)
		}
		applied++
	}
	t.Logf("patch.py applied %d deltas exactly and refused %d bad ones", applied, refused)
}

func itoa(i int) string { return strconv.Itoa(i) }

// patchLine is one answer of testdata/patch.py: the result, or why it
// refused the delta.
type patchLine struct {
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
}

// runPatchPy runs testdata/patch.py on in, one {"base", "delta"} object a
// line, and returns its answers, one a line.
func runPatchPy(t *testing.T, python string, in *bytes.Buffer) []patchLine {
	t.Helper()
	cmd := exec.Command(python, "testdata/patch.py")
	cmd.Stdin = in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("patch.py: %v\n%s", err, stderr.String())
	}
	var lines []patchLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 256<<20)
	for sc.Scan() {
		var l patchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("patch.py wrote %q: %v\n%s", sc.Text(), err, strings.TrimSpace(stderr.String()))
		}
		lines = append(lines, l)
	}
	return lines
}

// jsonc is the json codec, whose documents patch.py reads.
var jsonc = jsoncodec.Default()
