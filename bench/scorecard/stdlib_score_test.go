package scorecard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
)

// smallCards returns a few small generated cases as a corpus of one's own,
// and a stand-in for the go-stdlib profile made of others, generated
// under version.
func smallCards(t *testing.T, version string) ([]corpus.Case, *corpus.StdlibCorpus) {
	t.Helper()
	var own []corpus.Case
	std := &corpus.StdlibCorpus{GoVersion: version, Spread: [][]corpus.Case{nil}}
	for _, c := range corpus.Generate() {
		switch {
		case c.Profile == corpus.Lean && (c.Name == "traversal_s" || c.Name == "aggregation_s"):
			c.Profile = ""
			own = append(own, c)
		case c.Profile == corpus.TextHeavy && (c.Name == "search_s" || c.Name == "neighbors_s"):
			c.Profile = corpus.Stdlib
			std.Cases = append(std.Cases, c)
		case c.Profile == corpus.Dated && (c.Name == "search_s" || c.Name == "path_finding_s"):
			c.Profile = corpus.Stdlib
			std.Spread[0] = append(std.Spread[0], c)
		}
	}
	return own, std
}

func files(t *testing.T, card *Card, err error) map[string][]byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	out, err := card.Files(FileName)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStdlibPartsComeOut: the go-stdlib profile adds marked parts and two
// charts to a scorecard and changes nothing else, so that a check under
// another Go version can compare the rest byte for byte.
func TestStdlibPartsComeOut(t *testing.T) {
	own, std := smallCards(t, "go1.99.0")
	card, err := BuildWithStdlib(own, std)
	with := files(t, card, err)
	card, err = BuildCorpus(own)
	without := files(t, card, err)

	md := with[FileName]
	if got := CommittedGoVersion(md); got != "go1.99.0" {
		t.Errorf("CommittedGoVersion = %q, want go1.99.0", got)
	}
	if got := CommittedGoVersion(without[FileName]); got != "" {
		t.Errorf("CommittedGoVersion of a card without the profile = %q", got)
	}
	for _, want := range []string{"## Real data: the Go standard library (go1.99.0)", "### go-stdlib (2 cases)", "### go-stdlib/neighbors_s", corpus.StdlibLicense} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the scorecard lacks %q", want)
		}
	}
	if diff := cmp.Diff(string(without[FileName]), string(withoutStdlib(md))); diff != "" {
		t.Errorf("without its go-stdlib parts, the scorecard differs from one without the profile (-want +got):\n%s", diff)
	}
	var extra []string
	for name, b := range with {
		if name == FileName {
			continue
		}
		if stdlibChart(name) {
			extra = append(extra, name)
		} else if !cmp.Equal(b, without[name]) {
			t.Errorf("chart %s changes with the go-stdlib profile", name)
		}
	}
	if len(extra) != 2 || len(with) != len(without)+2 {
		t.Errorf("go-stdlib charts %v, want a saving and a tokens chart", extra)
	}
}

// TestCheckCommittedUnderAnotherGoVersion: under the Go version the
// committed scorecard names, everything is checked; under another, or
// without a toolchain, the go-stdlib parts are left out, the rest is
// still checked, and the report says which versions differ.
func TestCheckCommittedUnderAnotherGoVersion(t *testing.T) {
	own, std := smallCards(t, "go1.99.0")
	card, err := BuildWithStdlib(own, std)
	committed := files(t, card, err)
	_, other := smallCards(t, "go1.98.0")
	other.Cases = other.Cases[:1] // another toolchain, other figures

	write := func(edit func(string) string) string {
		t.Helper()
		dir := t.TempDir()
		for name, b := range committed {
			if name == FileName && edit != nil {
				b = []byte(edit(string(b)))
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return filepath.Join(dir, FileName)
	}
	same := func() (*corpus.StdlibCorpus, string, error) { return std, std.GoVersion, nil }
	newer := func() (*corpus.StdlibCorpus, string, error) { return other, other.GoVersion, nil }
	none := func() (*corpus.StdlibCorpus, string, error) { return nil, "", errors.New("go env GOROOT: not found") }
	// One figure of the go-stdlib summary, and one of the main summary.
	inStdlib := func(md string) string {
		i := strings.Index(md, "### go-stdlib (")
		j := i + strings.Index(md[i:], "| gcf ")
		return md[:j] + "| gcf X" + md[j+len("| gcf "):]
	}
	inMain := func(md string) string { return strings.Replace(md, "| json ", "| jsonX", 1) }

	var stale *StaleFilesError
	for _, tc := range []struct {
		name     string
		edit     func(string) string
		load     func() (*corpus.StdlibCorpus, string, error)
		mismatch bool
		stale    bool
	}{
		{"same version, current", nil, same, false, false},
		{"same version, go-stdlib figure changed", inStdlib, same, false, true},
		{"same version, main figure changed", inMain, same, false, true},
		{"other version, current", nil, newer, true, false},
		{"other version, go-stdlib figure changed", inStdlib, newer, true, false},
		{"other version, main figure changed", inMain, newer, true, true},
		{"no toolchain, current", nil, none, true, false},
		{"no toolchain, main figure changed", inMain, none, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mismatch, err := checkCommitted(write(tc.edit), own, tc.load)
			if (mismatch != nil) != tc.mismatch {
				t.Errorf("mismatch = %v, want one: %v", mismatch, tc.mismatch)
			}
			if got := errors.As(err, &stale); got != tc.stale || !tc.stale && err != nil {
				t.Errorf("err = %v, want stale: %v", err, tc.stale)
			}
			if mismatch == nil {
				return
			}
			if mismatch.Committed != "go1.99.0" {
				t.Errorf("mismatch names %q as committed", mismatch.Committed)
			}
			msg := mismatch.Error()
			for _, want := range []string{"go1.99.0", "not checked", "the other profiles were", Command} {
				if !strings.Contains(msg, want) {
					t.Errorf("%q lacks %q", msg, want)
				}
			}
			if mismatch.Running != "" && !strings.Contains(msg, mismatch.Running) || mismatch.Running == "" && !strings.Contains(msg, "not found") {
				t.Errorf("%q does not say what runs instead", msg)
			}
		})
	}
}
