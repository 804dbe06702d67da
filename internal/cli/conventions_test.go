package cli_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// runEnv runs wirebench with stdout (and stderr) taken for a terminal.
func runEnv(terminal bool, stdin string, args ...string) result {
	var out, errOut bytes.Buffer
	code := cli.Run(&cli.Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		StdoutIsTerminal: terminal, StderrIsTerminal: terminal})
	return result{code, out.String(), errOut.String()}
}

// oneErrorLine requires exit code, no output, and one stderr line that
// starts with "wirebench CMD: ", names the command once, and holds substr.
func oneErrorLine(t *testing.T, res result, code int, cmd, substr string) {
	t.Helper()
	if res.code != code || res.stdout != "" {
		t.Errorf("exit %d, stdout %q; want exit %d and no output", res.code, res.stdout, code)
	}
	if strings.Count(res.stderr, "\n") != 1 || !strings.HasPrefix(res.stderr, "wirebench "+cmd+": ") {
		t.Errorf("stderr %q: want one line starting %q", res.stderr, "wirebench "+cmd+": ")
	}
	if strings.Count(res.stderr, cmd+": ") != 1 {
		t.Errorf("stderr %q says %q more than once", res.stderr, cmd+": ")
	}
	if !strings.Contains(res.stderr, substr) {
		t.Errorf("stderr %q, want it to hold %q", res.stderr, substr)
	}
}

// TestDecodeAutoNamesEveryCodec: "decode -f auto" detects the codec of
// every codec's encoding of every corpus case, and prints what "decode -f
// NAME" would. Under the race detector it takes the small and medium
// cases (testsupport.CorpusUnderRace); .ci/run runs it without, on all.
func TestDecodeAutoNamesEveryCodec(t *testing.T) {
	n := everyEncoding(t, func(c corpus.Case, info wire.Info, data []byte) {
		want := run(string(data), "decode", "-f", info.Name)
		res := run(string(data), "decode", "-f", "auto", "-v")
		if res.code != cli.ExitOK || res.stderr != "wirebench decode: detected "+info.Name+"\n" {
			t.Errorf("%s as %s: exit %d, stderr %q", c.Name, info.Name, res.code, res.stderr)
		} else if res.stdout != want.stdout {
			t.Errorf("%s as %s: decode -f auto prints other JSON than decode -f %s", c.Name, info.Name, info.Name)
		}
	})
	t.Logf("decode -f auto named the codec of %d encodings", n)
}

// everyEncoding calls check with every registered codec's encoding of
// every corpus case (under the race detector, of
// testsupport.CorpusUnderRace's cases) and returns how many there were.
func everyEncoding(t *testing.T, check func(c corpus.Case, info wire.Info, data []byte)) int {
	t.Helper()
	n := 0
	for _, c := range testsupport.CorpusUnderRace(testsupport.Generated()) {
		for _, info := range wire.List() {
			data, err := wire.EncodeWith(info.Name, c.Response)
			if err != nil {
				t.Errorf("%s as %s: %v", c.Name, info.Name, err)
				continue
			}
			check(c, info, data)
			n++
		}
	}
	return n
}

// TestDecodeAutoRefusesRandomBytes: bytes that look like no codec are
// refused with a message that says so and shows how they start.
func TestDecodeAutoRefusesRandomBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		b := make([]byte, 1+rng.IntN(400))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		res := run(string(b), "decode", "-f", "auto")
		oneErrorLine(t, res, cli.ExitError, "decode", "cannot tell the input's format: it looks like none of cbor, gcf, goon (llm), json (raw), msgpack, toon (it starts with bytes ")
		if t.Failed() {
			return
		}
	}
	oneErrorLine(t, run("", "decode", "-f", "auto"), cli.ExitError, "decode", "cannot tell the format of empty input; name its codec with -f NAME")
	res := run("hello, world", "convert", "-from", "auto", "-to", "goon")
	oneErrorLine(t, res, cli.ExitError, "convert", `(it starts "hello, world"); name its codec with -f NAME`)
}

// TestWrongFormatSaysWhatItLooksLike: a codec named with -f that cannot
// read the input says what the input looks like.
func TestWrongFormatSaysWhatItLooksLike(t *testing.T) {
	r, err := wire.DecodeWith("json", []byte(canonical))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ is, readAs string }{{"msgpack", "goon"}, {"goon", "cbor"}, {"cbor", "json"}, {"toon", "msgpack"}, {"json", "toon"}, {"gcf", "toon"}, {"toon", "gcf"}, {"gcf", "json"}} {
		data, err := wire.EncodeWith(tc.is, r)
		if err != nil {
			t.Fatal(err)
		}
		res := run(string(data), "decode", "-f", tc.readAs)
		oneErrorLine(t, res, cli.ExitError, "decode", " (input looks like "+tc.is+")")
		if !strings.Contains(res.stderr, "decode: "+tc.readAs+": ") {
			t.Errorf("%s read as %s: stderr %q does not name the codec tried", tc.is, tc.readAs, res.stderr)
		}
	}
}

// TestBinaryOutputToATerminal: binary output is refused on a terminal
// unless -o names where it goes; text gets a final newline there.
func TestBinaryOutputToATerminal(t *testing.T) {
	for _, args := range [][]string{{"encode", "-f", "cbor"}, {"convert", "-from", "json", "-to", "msgpack"}} {
		res := runEnv(true, canonical, args...)
		oneErrorLine(t, res, cli.ExitUsage, args[0], "binary) to a terminal; redirect the output or give -o FILE (-o - writes it anyway)")
	}
	want, err := wire.EncodeWith("cbor", mustDecode(t, canonical))
	if err != nil {
		t.Fatal(err)
	}
	if res := runEnv(true, canonical, "encode", "-f", "cbor", "-o", "-"); res.code != 0 || res.stdout != string(want) {
		t.Errorf("-o -: exit %d, stderr %q", res.code, res.stderr)
	}
	file := filepath.Join(t.TempDir(), "out.cbor")
	if res := runEnv(true, canonical, "encode", "-o", file, "-f", "cbor"); res.code != 0 || res.stdout != "" {
		t.Errorf("-o FILE: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
	if got, err := os.ReadFile(file); err != nil || !bytes.Equal(got, want) {
		t.Errorf("-o FILE wrote %d bytes (%v), want the %d of the encoding", len(got), err, len(want))
	}
	// Into a pipe, the bytes are the codec's; on a terminal, text ends
	// with a newline.
	if res := runEnv(false, canonical, "encode", "-f", "toon"); strings.HasSuffix(res.stdout, "\n") {
		t.Errorf("toon into a pipe: %q ends with a newline the codec did not write", res.stdout)
	}
	if res := runEnv(true, canonical, "encode", "-f", "toon"); res.code != 0 || !strings.HasSuffix(res.stdout, "\n") {
		t.Errorf("toon on a terminal: exit %d, stdout %q lacks a final newline", res.code, res.stdout)
	}
}

func mustDecode(t *testing.T, text string) *wire.GraphResponse {
	t.Helper()
	r, err := wire.DecodeWith("json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTokensRefusesBinary: tokens counts text, and says when its input is
// binary.
func TestTokensRefusesBinary(t *testing.T) {
	r := mustDecode(t, canonical)
	for _, name := range []string{"msgpack", "cbor"} {
		data, err := wire.EncodeWith(name, r)
		if err != nil {
			t.Fatal(err)
		}
		oneErrorLine(t, run(string(data), "tokens"), cli.ExitError, "tokens", "the input is binary (it looks like "+name+"); tokens counts text")
	}
	oneErrorLine(t, run("abc\xff\xfe", "tokens"), cli.ExitError, "tokens", `the input is binary (not UTF-8 text; it starts with bytes 61 62 63 ff fe)`)
	oneErrorLine(t, run(canonical, "tokens", "-f", "cbor"), cli.ExitUsage, "tokens", "cbor is binary; tokens counts text")
	goon, err := wire.EncodeWith("goon", r)
	if err != nil {
		t.Fatal(err)
	}
	plain := run(string(goon), "tokens")
	if res := run(string(goon), "tokens", "-f", "auto"); res.code != 0 || res.stdout != plain.stdout || plain.code != 0 {
		t.Errorf("tokens -f auto of GOON: %+v, want %+v", res, plain)
	}
	oneErrorLine(t, run(string(goon), "tokens", "-f", "json"), cli.ExitError, "tokens", "json: offset 0: ")
}

// TestHelp: help goes to stdout and exits 0; a command's help shows its
// synopsis and flags.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}} {
		res := run("", args...)
		if res.code != 0 || res.stderr != "" || !strings.HasPrefix(res.stdout, "usage: wirebench COMMAND") {
			t.Errorf("%v: %+v", args, res)
		}
		for _, cmd := range []string{"list", "encode", "decode", "convert", "tokens", "scorecard", "bench", "gen", "toon", "version"} {
			if !regexp.MustCompile(`\n  ` + cmd + ` +\S`).MatchString(res.stdout) {
				t.Errorf("%v: no line for %s in\n%s", args, cmd, res.stdout)
			}
		}
	}
	res := run("", "help", "decode")
	if res.code != 0 || res.stderr != "" || !strings.Contains(res.stdout, "-f NAME|auto") || !strings.Contains(res.stdout, "\n  -v\t") {
		t.Errorf("help decode: %+v", res)
	}
	if res := run("", "decode", "--help"); res.stdout != run("", "help", "decode").stdout {
		t.Errorf("decode --help and help decode differ")
	}
	if res := run(""); res.code != cli.ExitUsage || res.stdout != "" || !strings.HasPrefix(res.stderr, "usage: wirebench") {
		t.Errorf("no arguments: %+v; want the usage on stderr, exit 2", res)
	}
	res = run("", "help", "nope")
	if res.code != cli.ExitUsage || !strings.HasPrefix(res.stderr, `wirebench help: unknown command "nope"`) {
		t.Errorf("help nope: %+v", res)
	}
	res = run("", "nope")
	oneErrorLine(t, result{res.code, res.stdout, strings.Replace(res.stderr, "wirebench:", "wirebench nope:", 1)}, cli.ExitUsage, "nope", "(commands: bench, ")
}

// TestVersion: the module path and version and the Go version, from the
// build information.
func TestVersion(t *testing.T) {
	res := run("", "version")
	if res.code != 0 || res.stderr != "" || !regexp.MustCompile(`^wirebench github\.com/graphwire/graphwire \S+ \(go1\.\d+[^)]*\)( revision [0-9a-f]+(, modified)?)?\n$`).MatchString(res.stdout) {
		t.Errorf("version: %+v", res)
	}
	oneErrorLine(t, run("", "version", "x"), cli.ExitUsage, "version", `want no arguments, got 1: ["x"]`)
}

// TestErrorsSayTheCommandOnce: package errors that start with the
// command's name are not prefixed with it twice.
func TestErrorsSayTheCommandOnce(t *testing.T) {
	oneErrorLine(t, run("", "tokens", "-t", "claude"), cli.ExitUsage, "tokens", `-t "claude": unknown counter (have: o200k, cl100k, chars, words, all)`)
	oneErrorLine(t, run("", "decode", "-x"), cli.ExitUsage, "decode", "flag provided but not defined: -x (see: wirebench help decode)")
	dir := t.TempDir()
	oneErrorLine(t, run("", "scorecard", "-corpus", dir, "-o", "-"), cli.ExitError, "scorecard", "no *.json files")
	oneErrorLine(t, run("", "bench", "-corpus", dir), cli.ExitError, "bench", "no *.json files")
}

// TestOutsideTheRepository: the commands that default to the repository's
// files say what to do instead when run elsewhere, and "-" never becomes a
// file name.
func TestOutsideTheRepository(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	oneErrorLine(t, run("", "gen"), cli.ExitUsage, "gen", "give the output directory with -o DIR")
	oneErrorLine(t, run("", "gen", "-o", "-"), cli.ExitUsage, "gen", "-o needs a directory")
	oneErrorLine(t, run("", "scorecard", "-check"), cli.ExitUsage, "scorecard", "name the scorecard to check with -o FILE")
	oneErrorLine(t, run("", "scorecard", "-check", "-o", "-"), cli.ExitUsage, "scorecard", "-o - is standard output")

	small := t.TempDir()
	data, err := wire.EncodeWith("json", mustDecode(t, canonical))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(small, "one.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"scorecard", "-corpus", small, "-o", "-"}, {"scorecard", "-corpus", small}} {
		res := run("", args...)
		if res.code != 0 || !strings.HasPrefix(res.stdout, "# graphwire scorecard\n") {
			t.Errorf("%v: exit %d, stderr %q, stdout %.40q", args, res.code, res.stderr, res.stdout)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		t.Errorf("the working directory holds %v (%v); want nothing written", entries, err)
	}
}

// TestDecodeJSONPrintsCorpusFilesBack pins README's claim: "wirebench
// decode -f json" of a canonical file prints it back byte for byte. Under
// the race detector, the smallest case of each shape (.ci/run runs it
// whole without it).
func TestDecodeJSONPrintsCorpusFilesBack(t *testing.T) {
	root, err := corpus.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := corpus.LoadCommitted()
	if err != nil || len(cases) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	for _, c := range testsupport.CorpusUnderRace(cases) {
		f := filepath.Join(root, corpus.Dir, c.Profile, c.Name+".json")
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range []result{run("", "decode", "-f", "json", f), run(string(want), "decode", "-f", "json"), run(string(want), "decode", "-f", "auto")} {
			if res.code != 0 || res.stdout != string(want) {
				t.Errorf("%s: exit %d, stderr %q, output of %d bytes differs from the file's %d", filepath.Base(f), res.code, res.stderr, len(res.stdout), len(want))
			}
		}
	}
}

// TestToonCommand pins the toon command's flags and its departures from
// the reference (exact integers, key order kept).
func TestToonCommand(t *testing.T) {
	doc := `{"n":9007199254740993,"1":"b","0":"a","rows":[{"id":1,"tag":"x"},{"id":2,"tag":"y|z"}]}`
	want := "n: 9007199254740993\n\"1\": b\n\"0\": a\nrows[2]{id,tag}:\n  1,x\n  2,y|z\n"
	if res := run(doc, "toon"); res.code != 0 || res.stdout != want {
		t.Errorf("toon: %+v\nwant %q", res, want)
	}
	wantPipe := "n: 9007199254740993\n\"1\": b\n\"0\": a\nrows[2|]{id|tag}:\n    1|x\n    2|\"y|z\"\n"
	for _, d := range []string{"|", "pipe"} {
		if res := run(doc, "toon", "--indent", "4", "--delimiter", d, "-e"); res.code != 0 || res.stdout != wantPipe {
			t.Errorf("--delimiter %s --indent 4: %+v\nwant %q", d, res, wantPipe)
		}
	}
	back := run(want, "toon", "-d")
	wantJSON := "{\n  \"n\": 9007199254740993,\n  \"1\": \"b\",\n  \"0\": \"a\",\n  \"rows\": [\n    {\n      \"id\": 1,\n      \"tag\": \"x\"\n    },\n    {\n      \"id\": 2,\n      \"tag\": \"y|z\"\n    }\n  ]\n}\n"
	if back.code != 0 || back.stdout != wantJSON {
		t.Errorf("toon -d: %+v\nwant %q", back, wantJSON)
	}
	file := filepath.Join(t.TempDir(), "doc.toon")
	if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := run("", "toon", file); res.stdout != wantJSON {
		t.Errorf("a .toon FILE is decoded: %+v", res)
	}
	stats := run(doc, "toon", "--stats")
	if stats.code != 0 || stats.stdout != want || !regexp.MustCompile(`^wirebench toon: o200k  JSON \d+ tokens, TOON \d+ tokens, saving -?\d+ \(-?\d+\.\d%\)\nwirebench toon: cl100k JSON \d+ tokens, TOON \d+ tokens, saving -?\d+ \(-?\d+\.\d%\)\n$`).MatchString(stats.stderr) {
		t.Errorf("--stats: %+v", stats)
	}
	short := "rows[3]: 1,2\n"
	oneErrorLine(t, run(short, "toon", "-d"), cli.ExitError, "toon", "toon: line 1")
	if res := run(short, "toon", "-d", "--no-strict"); res.code != 0 || res.stdout != "{\n  \"rows\": [\n    1,\n    2\n  ]\n}\n" {
		t.Errorf("--no-strict: %+v", res)
	}
	oneErrorLine(t, run(doc, "toon", "--delimiter", ";"), cli.ExitUsage, "toon", `--delimiter ";": want , (comma), tab or | (pipe)`)
	oneErrorLine(t, run(doc, "toon", "--indent", "0"), cli.ExitUsage, "toon", "--indent 0: want 1 to 64")
	oneErrorLine(t, run(doc, "toon", "-e", "-d"), cli.ExitUsage, "toon", "-e and -d exclude each other")
	oneErrorLine(t, run(`{"a":`, "toon"), cli.ExitError, "toon", "toon: offset 5: JSON input: ")
}
