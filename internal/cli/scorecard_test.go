package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/cli"
)

type cmdResult struct {
	code           int
	stdout, stderr string
}

// runCmd runs wirebench with args, as main does, with stderr a terminal
// or not.
func runCmd(terminal bool, stdin string, args ...string) cmdResult {
	var out, errOut bytes.Buffer
	code := cli.Run(&cli.Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, StderrIsTerminal: terminal})
	return cmdResult{code, out.String(), errOut.String()}
}

// smallCorpus writes a few small committed corpus cases (of the
// text-heavy profile) into a temporary directory, as a corpus of one's own
// without profiles, and returns it.
func smallCorpus(t *testing.T, names ...string) string {
	t.Helper()
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, corpus.Dir, corpus.TextHeavy, n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestScorecardWriteAndCheck(t *testing.T) {
	dir := smallCorpus(t, "traversal_s", "aggregation_scalar_s")
	out := filepath.Join(t.TempDir(), "scorecard.md")

	res := runCmd(false, "", "scorecard", "-check", "-corpus", dir, "-o", out)
	if res.code != cli.ExitError || !strings.Contains(res.stderr, "does not exist") {
		t.Errorf("-check without a file: %+v", res)
	}
	res = runCmd(false, "", "scorecard", "-corpus", dir, "-o", out)
	if res.code != 0 || res.stdout != "" {
		t.Fatalf("scorecard: %+v", res)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(written, []byte("### traversal_s")) || !bytes.Contains(written, []byte("No Claude tokenizer")) ||
		!bytes.Contains(written, []byte("your corpus")) || !bytes.Contains(written, []byte("](scorecard-saving-corpus.svg)")) {
		t.Errorf("written scorecard lacks its content:\n%s", written)
	}
	for _, chart := range []string{"scorecard-saving-corpus.svg", "scorecard-tokens-corpus.svg"} {
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(out), chart)); err != nil || !bytes.HasPrefix(b, []byte("<?xml")) {
			t.Errorf("chart %s not written beside the scorecard: %v", chart, err)
		}
	}
	res = runCmd(false, "", "scorecard", "-check", "-corpus", dir, "-o", out)
	if res.code != 0 || res.stdout != "" || !strings.Contains(res.stderr, "is current") {
		t.Errorf("-check on a fresh file: %+v", res)
	}
	again, _ := os.ReadFile(out)
	if !bytes.Equal(again, written) {
		t.Error("-check rewrote the file")
	}

	// Change one value of the corpus: -check fails with a diff summary.
	path := filepath.Join(dir, "aggregation_scalar_s.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := bytes.Replace(data, []byte(`"avg_duration":941.131772070606`), []byte(`"avg_duration":941.5`), 1)
	if bytes.Equal(changed, data) {
		t.Fatal("the value to change is not in the file")
	}
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	res = runCmd(false, "", "scorecard", "-check", "-corpus", dir, "-o", out)
	if res.code != cli.ExitError || res.stdout != "" {
		t.Errorf("-check on a stale file: exit %d, stdout %q", res.code, res.stdout)
	}
	if !strings.Contains(res.stderr, "is stale") || !strings.Contains(res.stderr, "- line ") || !strings.Contains(res.stderr, "+ line ") ||
		!strings.Contains(res.stderr, "go run ./cmd/wirebench scorecard") {
		t.Errorf("-check stderr lacks the diff summary and the fix:\n%s", res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "wirebench scorecard: ") {
		t.Errorf("the last stderr line should be the one-line error, got %q", last)
	}
}

func TestScorecardUsage(t *testing.T) {
	if res := runCmd(false, "", "scorecard", "extra"); res.code != cli.ExitUsage {
		t.Errorf("extra argument: %+v", res)
	}
	if res := runCmd(false, "", "scorecard", "-nope"); res.code != cli.ExitUsage {
		t.Errorf("unknown flag: %+v", res)
	}
	res := runCmd(false, "", "scorecard", "-corpus", t.TempDir(), "-o", filepath.Join(t.TempDir(), "x.md"))
	if res.code != cli.ExitError || !strings.Contains(res.stderr, "no *.json files") {
		t.Errorf("empty corpus: %+v", res)
	}
}
