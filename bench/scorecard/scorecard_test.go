package scorecard

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// skipUnderRace skips a test that builds or counts the whole corpus's
// scorecard under the race detector, which makes it take minutes: those
// tests compute, they share nothing between goroutines that
// TestMarkdownIsDeterministic does not cover under -race. .ci/run runs them
// again without the race detector (see README, Tests).
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("whole-corpus test: .ci/run runs it without -race")
	}
}

func root(t *testing.T) string {
	t.Helper()
	r, err := corpus.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCommittedScorecardIsCurrent is `wirebench scorecard -check` run by the
// test suite: the committed scorecard.md and every chart beside it are what
// the committed corpus and the registered codecs give today.
func TestCommittedScorecardIsCurrent(t *testing.T) {
	skipUnderRace(t)
	r := root(t)
	cases, err := corpus.Load(filepath.Join(r, corpus.Dir))
	if err != nil {
		t.Fatal(err)
	}
	mismatch, err := CheckCommitted(filepath.Join(r, FileName), cases)
	if mismatch != nil {
		// Another Go version: everything but the go-stdlib profile checked.
		t.Log(mismatch)
	}
	if err != nil {
		var stale *StaleError
		if errors.As(err, &stale) {
			t.Fatalf("%v\n%s", err, stale.Details())
		}
		t.Fatal(err)
	}
}

// copyCorpus copies the committed corpus files (every profile) into a
// temporary directory.
func copyCorpus(t *testing.T) string {
	t.Helper()
	src := filepath.Join(root(t), corpus.Dir)
	dst := t.TempDir()
	paths, err := filepath.Glob(filepath.Join(src, "*", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files in %s: %v", src, err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(src, p)
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestCheckFailsWhenOneCorpusValueChanges: the committed scorecard checked
// against a copy of the corpus with one property value changed is stale,
// and the summary points at the changed case.
func TestCheckFailsWhenOneCorpusValueChanges(t *testing.T) {
	skipUnderRace(t)
	r := root(t)
	dir := copyCorpus(t)
	path := filepath.Join(dir, corpus.Lean, "traversal_s.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := cjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	n := &resp.Nodes[0]
	for i, p := range n.Properties {
		if p.Key == "name" {
			n.Properties[i].Value = wire.String(p.Value.Text() + " Jr.")
		}
	}
	changed, err := cjson.Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(changed, data) {
		t.Fatal("the edit changed nothing")
	}
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, err := Generate(dir, FileName)
	if err != nil {
		t.Fatal(err)
	}
	// The corpus directory holds no go-stdlib profile: compared with the
	// committed files without theirs.
	err = checkFiles(r, fresh, withoutStdlib)
	var stale *StaleError
	if !errors.As(err, &stale) {
		t.Fatalf("Check after changing one corpus value = %v, want a *StaleError", err)
	}
	if stale.File != FileName {
		t.Errorf("stale file %s, want %s first", stale.File, FileName)
	}
	if stale.Removed == 0 || stale.Added == 0 || len(stale.Sample) == 0 {
		t.Errorf("stale summary %+v should show removed and added lines", stale)
	}
	if !strings.Contains(err.Error(), Command) {
		t.Errorf("error %q should name the command that regenerates the file", err)
	}
	if strings.Contains(stale.Error(), "\n") {
		t.Errorf("Error() must be one line: %q", stale)
	}
	// The changed lines are the json row (and the rows derived from it) of
	// traversal_s's table: the summary shows a table row.
	if !strings.Contains(stale.Details(), "| json") {
		t.Errorf("details do not show a changed json row:\n%s", stale.Details())
	}
}

func TestCheck(t *testing.T) {
	fresh := []byte("# t\n\na\nb\nc\n")
	if err := Check(fresh, fresh); err != nil {
		t.Errorf("identical: %v", err)
	}
	if err := Check([]byte("# t\r\n\r\na\r\nb\r\nc\r\n"), fresh); err != nil {
		t.Errorf("CRLF checkout: %v", err)
	}
	err := Check([]byte("# t\n\na\nB\nc\n"), fresh)
	var stale *StaleError
	if !errors.As(err, &stale) {
		t.Fatalf("changed line: %v", err)
	}
	want := []string{"- line 4: B", "+ line 4: b"}
	if diff := cmp.Diff(want, stale.Sample); diff != "" {
		t.Errorf("sample (-want +got):\n%s", diff)
	}
	if stale.Removed != 1 || stale.Added != 1 {
		t.Errorf("removed %d added %d, want 1 and 1", stale.Removed, stale.Added)
	}
	err = Check([]byte("# t\n\na\nc\n"), fresh)
	if !errors.As(err, &stale) || stale.Added != 1 || stale.Removed != 0 {
		t.Errorf("missing line: %v %+v", err, stale)
	}
	err = Check([]byte("# t\n\na\nb\nc"), fresh)
	if !errors.As(err, &stale) {
		t.Errorf("missing final newline: %v", err)
	}
	var long []string
	for i := 0; i < 100; i++ {
		long = append(long, "x")
	}
	err = Check([]byte(strings.Join(long, "\n")), fresh)
	if !errors.As(err, &stale) || len(stale.Sample) > maxSample {
		t.Errorf("sample not bounded: %+v", stale)
	}
}

// smallCorpus is a few small generated cases, cheap to measure.
func smallCorpus(t *testing.T) []corpus.Case {
	t.Helper()
	var out []corpus.Case
	for _, c := range corpus.Generate() {
		if strings.HasSuffix(c.Name, "_s") {
			out = append(out, c)
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d small cases", len(out))
	}
	return out
}

func TestMarkdownIsDeterministic(t *testing.T) {
	cases := smallCorpus(t)
	var outs [][]byte
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		card, err := Build(cases)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		md, err := card.Markdown()
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, md)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Errorf("scorecard differs between runs:\n%s", cmp.Diff(string(outs[0]), string(outs[1])))
	}
}

func TestMarkdownContent(t *testing.T) {
	cases := smallCorpus(t)
	for _, c := range corpus.Generate() {
		if c.Name == corpus.ADRCase {
			cases = append(cases, c)
		}
	}
	card, err := Build(cases)
	if err != nil {
		t.Fatal(err)
	}
	b, err := card.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, want := range []string{
		"No Claude tokenizer is published for current Claude models",
		tokens.TokenizerModule,
		"gpt-tokenizer " + GPTTokenizerVersion,
		"seed 20260510",
		Command,
		"## What each format loses",
		"## ADR 012's example",
		"12,000–15,000",
		"### lean/" + corpus.ADRCase,
		"## Token anatomy",
		"## Token budgets: what the first page delivers",
		"2K first page | 2K pages |",
		"Token budgets (o200k): items of the first page",
		"Against the claim (o200k)",
		"| ADR 012    |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("scorecard lacks %q", want)
		}
	}
	// Estimates are labelled wherever they appear.
	for _, line := range strings.Split(md, "\n") {
		for _, est := range []string{"chars", "words"} {
			if strings.HasPrefix(line, "| format") && strings.Contains(line, est) && !strings.Contains(line, est+"/3.5 (est.)") && !strings.Contains(line, est+" (est.)") {
				t.Errorf("table header names %s without marking it an estimate: %s", est, line)
			}
		}
	}
	for _, f := range card.Formats {
		if !strings.Contains(md, "| "+f.Name+" ") {
			t.Errorf("no row for format %s", f.Name)
		}
	}
}

func TestFormats(t *testing.T) {
	fs := Formats()
	if fs[0].Name != Baseline {
		t.Fatalf("first format %s, want the baseline %s", fs[0].Name, Baseline)
	}
	have := map[string]Format{}
	for _, f := range fs {
		if _, dup := have[f.Name]; dup {
			t.Errorf("format %s twice", f.Name)
		}
		have[f.Name] = f
		if f.Loses == "" {
			t.Errorf("%s: no loss note", f.Name)
		}
	}
	for _, info := range wire.List() {
		f, ok := have[info.Name]
		if !ok {
			t.Errorf("registered codec %s is not in the scorecard", info.Name)
			continue
		}
		if f.Peer {
			t.Errorf("%s is marked a peer", info.Name)
		}
		if _, described := losses[info.Name]; !described {
			t.Errorf("built-in codec %s has no loss note in losses", info.Name)
		}
	}
	for _, peer := range []string{"json-pretty", "toon-plain"} {
		if f, ok := have[peer]; !ok || !f.Peer || !f.Text {
			t.Errorf("peer row %s missing or not a text peer: %+v", peer, f)
		}
	}
	for name, text := range map[string]bool{"msgpack": false, "cbor": false, "json": true, "goon": true, "toon": true, "gcf": true} {
		if f, ok := have[name]; ok && f.Text != text {
			t.Errorf("%s: Text = %v, want %v", name, f.Text, text)
		}
	}
}

func TestIsText(t *testing.T) {
	for mt, want := range map[string]bool{
		"application/json":           true,
		"text/x-goon; version=1.0.0": true,
		"text/toon":                  true,
		"application/problem+json":   true,
		"application/vnd.gcf+text":   true,
		"application/msgpack":        false,
		"application/cbor":           false,
		"Application/JSON":           true,
	} {
		if got := isText(mt); got != want {
			t.Errorf("isText(%q) = %v, want %v", mt, got, want)
		}
	}
}

func TestPrettyJSON(t *testing.T) {
	got, err := prettyJSON([]byte(`{"a":[1,2.0,"x\u0001"],"b":{},"c":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": [\n    1,\n    2.0,\n    \"x\\u0001\"\n  ],\n  \"b\": {},\n  \"c\": []\n}"
	if string(got) != want {
		t.Errorf("prettyJSON =\n%s\nwant\n%s", got, want)
	}
}

func TestFormatting(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1234567: "1,234,567", -12345: "-12,345"} {
		if got := num(n); got != want {
			t.Errorf("num(%d) = %q, want %q", n, got, want)
		}
	}
	for x, want := range map[float64]string{0: "0.0%", -0.01: "0.0%", 12.345: "12.3%", -40.96: "-41.0%", math.NaN(): "n/a"} {
		if got := pct(x); got != want {
			t.Errorf("pct(%v) = %q, want %q", x, got, want)
		}
	}
	if got := median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("median odd = %v", got)
	}
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median even = %v", got)
	}
	if got := saving(200, 50); got != 75 {
		t.Errorf("saving = %v", got)
	}
}

func TestFidelity(t *testing.T) {
	base := func() *wire.GraphResponse {
		return &wire.GraphResponse{
			FormatVersion: "1.2.0", QueryType: wire.Traversal,
			Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{
				wire.Prop("score", wire.Float(7)), wire.Prop("name", wire.String("a")),
			}}},
			Columns: []wire.Column{},
		}
	}
	orig := base()
	canonical, err := cjson.Encode(orig)
	if err != nil {
		t.Fatal(err)
	}
	same := base()
	same.Nodes[0].Properties = append([]wire.Property(nil), same.Nodes[0].Properties...)
	intKind := base()
	intKind.Nodes[0].Properties[0].Value = wire.Int(7)
	otherValue := base()
	otherValue.Nodes[0].Properties[1].Value = wire.String("b")
	noColumns := base()
	noColumns.Columns = nil
	negZero := base()
	negZero.Nodes[0].Properties[0].Value = wire.Float(7)
	badUTF8 := base()
	badUTF8.Nodes[0].Properties[1].Value = wire.String("\xff")
	for _, tt := range []struct {
		name string
		back *wire.GraphResponse
		want Fidelity
	}{
		{"same", same, Exact},
		{"int for float", intKind, ByValue},
		{"other string", otherValue, Lossy},
		{"absent columns", noColumns, Lossy},
		{"same float", negZero, Exact},
		{"invalid UTF-8", badUTF8, Lossy},
	} {
		if got := fidelity(orig, canonical, tt.back); got != tt.want {
			t.Errorf("%s: fidelity = %v, want %v", tt.name, got, tt.want)
		}
		// The same verdict as wire's own equality.
		want := Lossy
		if wire.Equal(orig, tt.back, wire.Exact) {
			want = Exact
		} else if wire.Equal(orig, tt.back, wire.NumbersByValue) {
			want = ByValue
		}
		if want != tt.want {
			t.Errorf("%s: wire.Equal says %v, the test expects %v", tt.name, want, tt.want)
		}
	}
}

// TestFidelityAgreesWithWireEqual: on random responses read back through
// every registered codec, the fast classification gives wire.Equal's
// verdict.
func TestFidelityAgreesWithWireEqual(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{MaxNodes: 6})
	rapid.Check(t, func(rt *rapid.T) {
		r := gen.Draw(rt, "response")
		canonical, err := cjson.Encode(r)
		if err != nil {
			rt.Skip("not representable in canonical JSON")
		}
		for _, info := range wire.List() {
			c, _ := wire.Lookup(info.Name)
			data, err := c.AppendEncode(nil, r)
			if err != nil {
				continue
			}
			back, err := c.Decode(data)
			if err != nil {
				continue
			}
			want := Lossy
			if wire.Equal(r, back, wire.Exact) {
				want = Exact
			} else if wire.Equal(r, back, wire.NumbersByValue) {
				want = ByValue
			}
			if got := fidelity(r, canonical, back); got != want {
				rt.Fatalf("%s: fidelity = %v, wire.Equal says %v", info.Name, got, want)
			}
		}
	})
}
