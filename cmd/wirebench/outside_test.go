package main_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/scorecard"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// TestFromAnEmptyDirectory runs the built binary as someone who installed
// it would: from an empty directory, far from any checkout. Every command
// works there, on the corpus it generates from its seed (scorecard on a
// corpus of its own: the generated corpus's scorecard is checked once, by
// TestCommittedScorecardIsCurrent), and agrees with the repository's
// files.
func TestFromAnEmptyDirectory(t *testing.T) {
	bin := testsupport.Wirebench(t)
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := corpus.ModuleRoot(dir); err == nil {
		t.Fatalf("%s is inside the module", dir)
	}
	exe := func(stdin []byte, args ...string) testsupport.Run {
		t.Helper()
		return testsupport.RunIn(t, dir, stdin, bin, args...)
	}
	ok := func(res testsupport.Run, what string) bool {
		t.Helper()
		if res.Code != 0 {
			t.Errorf("%s: exit %d, stderr %q", what, res.Code, res.Stderr)
			return false
		}
		return true
	}

	if res := exe(nil, "list"); ok(res, "list") {
		for _, info := range wire.List() {
			if !strings.Contains(res.Stdout, "\n"+info.Name+" ") {
				t.Errorf("list lacks %s:\n%s", info.Name, res.Stdout)
			}
		}
	}

	if res := exe(nil, "bench", "-time", "10ms", "-case", "_s$"); ok(res, "bench") {
		for _, c := range corpus.Generate() {
			if strings.HasSuffix(c.Name, "_s") != strings.Contains(res.Stdout, c.Name) {
				t.Errorf("bench -case _s$: case %s present: %v\n%s", c.Name, !strings.HasSuffix(c.Name, "_s"), res.Stdout)
			}
		}
	}

	gen := filepath.Join(dir, "corpus")
	if res := exe(nil, "gen", "-o", gen); ok(res, "gen -o DIR") {
		// One directory per profile, a file per case.
		want, _ := filepath.Glob(filepath.Join(root, corpus.Dir, "*", "*.json"))
		got, _ := filepath.Glob(filepath.Join(gen, "*", "*.json"))
		if len(got) != len(want) || len(want) == 0 {
			t.Errorf("gen wrote %d files, the repository has %d", len(got), len(want))
		}
		for _, w := range want {
			rel, _ := filepath.Rel(filepath.Join(root, corpus.Dir), w)
			a, errA := os.ReadFile(w)
			b, errB := os.ReadFile(filepath.Join(gen, rel))
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Errorf("gen: %s differs from the repository's (%v, %v)", rel, errA, errB)
			}
		}
	}

	// The scorecard of the generated corpus is the repository's:
	// TestCommittedScorecardIsCurrent (bench/scorecard) checks the
	// committed scorecard against the committed corpus, which gen wrote
	// again above, byte for byte. Here, once and not again, the command
	// outside a checkout: -check has no file to default to, and a corpus
	// of one's own, two files gen wrote, gives the library's scorecard.
	if res := exe(nil, "scorecard", "-check"); res.Code != 2 || !strings.Contains(res.Stderr, "not inside the repository") {
		t.Errorf("scorecard -check outside a checkout: %+v, want exit 2 saying it is not inside the repository", res)
	}
	own := filepath.Join(dir, "own")
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"traversal_s.json", "aggregation_s.json"} {
		b, err := os.ReadFile(filepath.Join(gen, corpus.Lean, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(own, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if res := exe(nil, "scorecard", "-corpus", own, "-o", "-"); ok(res, "scorecard -corpus DIR -o -") {
		want, err := scorecard.Generate(own, scorecard.FileName)
		if err != nil {
			t.Fatal(err)
		}
		if err := scorecard.Check(want[scorecard.FileName], []byte(res.Stdout)); err != nil {
			t.Errorf("scorecard -corpus DIR -o - differs from the library's: %v", err)
		}
	}

	adr := filepath.Join(dir, corpus.ADRCase+".json")
	files, err := corpus.Files(corpus.Generate())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(adr, files[corpus.TextHeavy+"/"+corpus.ADRCase+".json"], 0o644); err != nil {
		t.Fatal(err)
	}
	o200k, err := tokens.Get(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	n, err := o200k.Count(files[corpus.TextHeavy+"/"+corpus.ADRCase+".json"])
	if err != nil {
		t.Fatal(err)
	}
	if res := exe(nil, "tokens", adr); ok(res, "tokens") && res.Stdout != fmt.Sprintf("%d\n", n) {
		t.Errorf("tokens: %q, want %d", res.Stdout, n)
	}

	resp, err := wire.DecodeWith("json", files[corpus.TextHeavy+"/"+corpus.ADRCase+".json"])
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range wire.List() {
		name := info.Name
		want, err := wire.EncodeWith(name, resp)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "adr."+name)
		if res := exe(nil, "encode", "-f", name, "-o", out, adr); !ok(res, "encode -f "+name) {
			continue
		}
		if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, want) {
			t.Errorf("encode -f %s wrote other bytes than the codec (%v)", name, err)
			continue
		}
		back, err := wire.DecodeWith(name, want)
		if err != nil {
			t.Fatal(err)
		}
		endsInNewline := !info.Binary && bytes.HasSuffix(want, []byte("\n"))
		for _, to := range wire.List() {
			wantOut, err := wire.EncodeWith(to.Name, back)
			if err != nil {
				t.Fatal(err)
			}
			if endsInNewline && !to.Binary && !bytes.HasSuffix(wantOut, []byte("\n")) {
				wantOut = append(wantOut, '\n') // text read from text that ends in a newline ends in one
			}
			res := exe(nil, "convert", "-from", "auto", "-to", to.Name, "-v", out)
			if ok(res, "convert -from auto -to "+to.Name+" adr."+name) && (res.Stdout != string(wantOut) || res.Stderr != "wirebench convert: "+out+": detected "+name+"\n") {
				t.Errorf("convert -from auto -to %s adr.%s: stderr %q, output differs from the library's", to.Name, name, res.Stderr)
			}
		}
		wantJSON, err := wire.EncodeWith("json", back)
		if err != nil {
			t.Fatal(err)
		}
		if endsInNewline { // goon and gcf end in a newline, and so does the JSON read from them
			wantJSON = append(wantJSON, '\n')
		}
		res := exe(want, "decode", "-f", "auto", "-v")
		if ok(res, "decode -f auto of "+name) && (res.Stdout != string(wantJSON) || res.Stderr != "wirebench decode: detected "+name+"\n") {
			t.Errorf("decode -f auto of %s: stderr %q, output differs from decode -f %s", name, res.Stderr, name)
		}
		if !info.Binary {
			if res := exe(want, "tokens", "-f", "auto"); !ok(res, "tokens -f auto of "+name) {
				continue
			}
		} else if res := exe(want, "tokens"); res.Code != 1 || !strings.Contains(res.Stderr, "the input is binary") {
			t.Errorf("tokens of %s: %+v, want a refusal that says it is binary", name, res)
		}
	}
	if res := exe(nil, "version"); ok(res, "version") && !strings.HasPrefix(res.Stdout, "wirebench "+corpus.ModulePath+" ") {
		t.Errorf("version: %q", res.Stdout)
	}
}
