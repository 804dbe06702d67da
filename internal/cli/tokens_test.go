package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/internal/cli"
)

func TestTokens(t *testing.T) {
	const text = `42 iid=101 state=merged title="Fix auth bug"`
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"tokens"}, "13\n"},
		{[]string{"tokens", "-t", "o200k"}, "13\n"},
		{[]string{"tokens", "-t", "cl100k", "-"}, "13\n"},
		{[]string{"tokens", "-t", "chars"}, "12\n"},
		{[]string{"tokens", "-t", "words"}, "14\n"},
	} {
		res := runCmd(false, text, tt.args...)
		if res.code != 0 || res.stdout != tt.want || res.stderr != "" {
			t.Errorf("%v: %+v, want stdout %q", tt.args, res, tt.want)
		}
	}
	file := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runCmd(false, "", "tokens", "-t", "all", file)
	want := "o200k              13\ncl100k             13\nchars (estimate)   12\nwords (estimate)   14\n"
	if res.code != 0 || res.stdout != want {
		t.Errorf("-t all: %+v\nwant %q", res, want)
	}
}

func TestTokensErrors(t *testing.T) {
	res := runCmd(false, "x", "tokens", "-t", "claude")
	if res.code != cli.ExitUsage || res.stdout != "" || !strings.Contains(res.stderr, "o200k, cl100k, chars, words") {
		t.Errorf("unknown counter: %+v", res)
	}
	res = runCmd(false, "", "tokens", filepath.Join(t.TempDir(), "missing"))
	if res.code != cli.ExitError || res.stdout != "" || strings.Count(res.stderr, "\n") != 1 {
		t.Errorf("missing file: %+v", res)
	}
	if res := runCmd(false, "", "tokens", "a", "b"); res.code != cli.ExitUsage {
		t.Errorf("two files: %+v", res)
	}
}
