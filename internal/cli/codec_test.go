package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

type result struct {
	code           int
	stdout, stderr string
}

// run runs wirebench with args and stdin, as main does.
func run(stdin string, args ...string) result {
	var out, errOut bytes.Buffer
	code := cli.Run(&cli.Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return result{code, out.String(), errOut.String()}
}

const canonical = `{"format_version":"1.2.0","query_type":"traversal",` +
	`"nodes":[{"type":"User","id":"9007199254740993","username":"ana","score":1.0,"bot":false,"email":null},` +
	`{"type":"MergeRequest","id":"42","iid":7,"title":"fix \"quotes\"\nand lines","labels":["a","b"]}],` +
	`"edges":[{"from":"User","from_id":"9007199254740993","to":"MergeRequest","to_id":"42","type":"AUTHORED"}],` +
	`"pagination":{"has_more":true,"total_rows":2}}`

// positioned matches a decode error's position: json and the binary
// codecs give a byte offset, text codecs a line.
var positioned = regexp.MustCompile(`: (offset \d+|line \d+(, column \d+)?): `)

// checkBadInput requires the failure of bad input: exit 1, nothing on
// stdout, one line on stderr naming the codec and a position.
func checkBadInput(t *testing.T, res result, codec string) {
	t.Helper()
	if res.code != cli.ExitError {
		t.Errorf("exit %d, want %d", res.code, cli.ExitError)
	}
	if res.stdout != "" {
		t.Errorf("stdout %q, want nothing", res.stdout)
	}
	if strings.Count(res.stderr, "\n") != 1 || !strings.HasSuffix(res.stderr, "\n") {
		t.Errorf("stderr %q, want one line", res.stderr)
	}
	if !strings.Contains(res.stderr, " "+codec+": ") || !positioned.MatchString(res.stderr) {
		t.Errorf("stderr %q does not name the codec %s and a position", res.stderr, codec)
	}
}

func TestDecodeEncodeConvertJSON(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.json")
	if err := os.WriteFile(file, []byte(canonical), 0o644); err != nil {
		t.Fatal(err)
	}
	indented := strings.NewReplacer(`,"`, ",\n  \"", `":`, `": `).Replace(canonical)
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"decode stdin", canonical, []string{"decode", "-f", "json"}},
		{"decode alias, other case", canonical, []string{"decode", "-f", "RAW"}},
		{"decode file", "", []string{"decode", "-f", "json", file}},
		{"flags after FILE", "", []string{"decode", file, "-f", "json"}},
		{"flags after --", canonical, []string{"decode", "-f", "json", "--", "-"}},
		{"decode dash is stdin", canonical, []string{"decode", "-f", "json", "-"}},
		{"decode indented", indented, []string{"decode", "-f", "json"}},
		{"decode trailing newline", canonical + "\n", []string{"decode", "-f", "json"}},
		{"encode stdin", canonical, []string{"encode", "-f", "json"}},
		{"encode file", "", []string{"encode", "-f=raw", file}},
		{"convert", indented, []string{"convert", "-from", "json", "-to", "raw"}},
		{"convert file", "", []string{"convert", "-to", "json", "-from", "json", file}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(tc.stdin, tc.args...)
			if res.code != cli.ExitOK || res.stderr != "" {
				t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
			}
			// The output ends with a newline when the input did.
			want := canonical
			if strings.HasSuffix(tc.stdin, "\n") {
				want += "\n"
			}
			if res.stdout != want {
				t.Errorf("stdout:\n%q\nwant\n%q", res.stdout, want)
			}
		})
	}
}

// TestEveryCodec runs encode, decode and convert through every registered
// codec: the command writes exactly what the codec gives (into a pipe, from
// input without a final newline), and reads back what it wrote.
func TestEveryCodec(t *testing.T) {
	r, err := wire.DecodeWith("json", []byte(canonical))
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range wire.List() {
		t.Run(info.Name, func(t *testing.T) {
			want, err := wire.EncodeWith(info.Name, r)
			if err != nil {
				t.Fatal(err)
			}
			enc := run(canonical, "encode", "-f", info.Name)
			if enc.code != cli.ExitOK || enc.stdout != string(want) {
				t.Fatalf("encode -f %s: exit %d, stderr %q\nstdout %q\nwant   %q", info.Name, enc.code, enc.stderr, enc.stdout, want)
			}

			back, err := wire.DecodeWith(info.Name, []byte(enc.stdout))
			if err != nil {
				t.Fatalf("%s does not decode what encode -f %s wrote: %v", info.Name, info.Name, err)
			}
			wantJSON, err := wire.EncodeWith("json", back)
			if err != nil {
				t.Fatal(err)
			}
			dec := run(enc.stdout, "decode", "-f", info.Name)
			if bytes.HasSuffix(want, []byte("\n")) { // GOON text ends in a newline: so does the JSON
				wantJSON = append(wantJSON, '\n')
			}
			if dec.code != cli.ExitOK || dec.stdout != string(wantJSON) {
				t.Fatalf("decode -f %s: exit %d, stderr %q\nstdout %q\nwant   %q", info.Name, dec.code, dec.stderr, dec.stdout, wantJSON)
			}
			conv := run(canonical, "convert", "-from", "json", "-to", info.Name)
			if conv.code != cli.ExitOK || conv.stdout != enc.stdout {
				t.Errorf("convert -from json -to %s: exit %d, stderr %q, stdout differs from encode's", info.Name, conv.code, conv.stderr)
			}
			conv = run(enc.stdout, "convert", "-from", info.Name, "-to", "json")
			if conv.code != cli.ExitOK || conv.stdout != dec.stdout {
				t.Errorf("convert -from %s -to json: exit %d, stderr %q, stdout differs from decode's", info.Name, conv.code, conv.stderr)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"truncated", canonical[:len(canonical)/2], []string{"decode", "-f", "json"}},
		{"empty", "", []string{"decode", "-f", "json"}},
		{"trailing data", canonical + "x", []string{"decode", "-f", "json"}},
		{"unknown field", `{"format_version":"1.2.0","extra":1}`, []string{"decode", "-f", "json"}},
		{"control characters in a key", "{\"a\nb\x1b[31m\":1}", []string{"decode", "-f", "json"}},
		{"encode reads JSON", "not json", []string{"encode", "-f", "json"}},
		{"convert", canonical[:10], []string{"convert", "-from", "raw", "-to", "json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkBadInput(t, run(tc.stdin, tc.args...), "json")
		})
	}

	// A file argument is named in the message.
	file := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(file, []byte(`{"nodes":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run("", "decode", "-f", "json", file)
	checkBadInput(t, res, "json")
	if want := "wirebench decode: " + file + ": json: offset 9: "; !strings.HasPrefix(res.stderr, want) {
		t.Errorf("stderr %q, want it to start with %q", res.stderr, want)
	}

	res = run("", "decode", "-f", "json", filepath.Join(t.TempDir(), "missing.json"))
	if res.code != cli.ExitError || res.stdout != "" || strings.Count(res.stderr, "\n") != 1 || !strings.Contains(res.stderr, "missing.json") {
		t.Errorf("missing file: %+v", res)
	}
}

// TestFlagErrorsOnce: a bad flag's message appears once on stderr, in one
// line naming the command; -h prints the usage on stdout and exits 0.
func TestFlagErrorsOnce(t *testing.T) {
	res := run("", "encode", "-f")
	if res.code != cli.ExitUsage || res.stdout != "" {
		t.Errorf("encode -f: exit %d, stdout %q; want exit %d and no output", res.code, res.stdout, cli.ExitUsage)
	}
	if n := strings.Count(res.stderr, "flag needs an argument: -f"); n != 1 {
		t.Errorf("encode -f: the error appears %d times on stderr, want once:\n%s", n, res.stderr)
	}
	if res.stderr != "wirebench encode: flag needs an argument: -f (see: wirebench help encode)\n" {
		t.Errorf("encode -f: stderr %q", res.stderr)
	}
	for _, args := range [][]string{{"encode", "-h"}, {"decode", "-help"}, {"convert", "--help"}, {"help", "toon"}, {"list", "-h", "extra"}} {
		res := run("", args...)
		name := args[0]
		if name == "help" {
			name = args[1]
		}
		if res.code != cli.ExitOK || res.stderr != "" || !regexp.MustCompile(`^usage: wirebench `+name+`[ \n]`).MatchString(res.stdout) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0 and the usage on stdout", args, res.code, res.stdout, res.stderr)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	// The codecs as wire's own lookup error lists them.
	_, err := wire.Lookup("no-such")
	_, have, _ := strings.Cut(err.Error(), `"no-such" `)
	names := strings.TrimSuffix(strings.TrimPrefix(have, "(have: "), ")")
	tests := []struct {
		name   string
		args   []string
		substr string
	}{
		{"unknown decode codec", []string{"decode", "-f", "yaml"}, `unknown codec "yaml" ` + have},
		{"unknown encode codec", []string{"encode", "-f", "xml"}, `unknown codec "xml" ` + have},
		{"unknown convert source", []string{"convert", "-from", "x", "-to", "json"}, `unknown codec "x" ` + have},
		{"unknown convert target", []string{"convert", "-from", "json", "-to", "y"}, `unknown codec "y" ` + have},
		{"decode without -f", []string{"decode"}, "missing -f NAME (codecs: " + names + ")"},
		{"encode without -f", []string{"encode"}, "missing -f NAME"},
		{"convert without -to", []string{"convert", "-from", "json"}, "missing -to NAME"},
		{"convert without -from", []string{"convert", "-to", "json"}, "missing -from NAME"},
		{"two files", []string{"decode", "-f", "json", "a", "b"}, `want at most one FILE, got 2: ["a" "b"]`},
		{"unknown flag", []string{"decode", "-x"}, "flag provided but not defined: -x"},
		{"list with an argument", []string{"list", "json"}, "wirebench list: want no arguments, got 1: [\"json\"]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(canonical, tc.args...)
			if res.code != cli.ExitUsage {
				t.Errorf("exit %d, want %d", res.code, cli.ExitUsage)
			}
			if res.stdout != "" {
				t.Errorf("stdout %q", res.stdout)
			}
			if !strings.Contains(res.stderr, tc.substr) {
				t.Errorf("stderr %q, want it to contain %q", res.stderr, tc.substr)
			}
		})
	}
}

func TestList(t *testing.T) {
	res := run("", "list")
	if res.code != cli.ExitOK || res.stderr != "" {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
	if again := run("", "list"); again.stdout != res.stdout {
		t.Errorf("list is not stable:\n%s\n%s", res.stdout, again.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(res.stdout, "\n"), "\n")
	infos := wire.List()
	if len(lines) != len(infos)+1 {
		t.Fatalf("%d lines for %d codecs:\n%s", len(lines), len(infos), res.stdout)
	}
	header := lines[0]
	cols := []int{0, strings.Index(header, "ALIASES"), strings.Index(header, "MEDIA TYPE"), strings.Index(header, "DESCRIPTION")}
	if !strings.HasPrefix(header, "NAME ") || cols[1] < 0 || cols[2] < 0 || cols[3] < 0 {
		t.Fatalf("header %q", header)
	}
	for i, info := range infos {
		line := lines[i+1]
		aliases := strings.Join(info.Aliases, ",")
		if aliases == "" {
			aliases = "-"
		}
		// Every field starts in its column: the table is aligned.
		for j, field := range []string{info.Name, aliases, info.MediaType, info.Description} {
			if !strings.HasPrefix(line[min(cols[j], len(line)):], field) {
				t.Errorf("line %q: %q does not start at column %d", line, field, cols[j])
			}
		}
	}
	// json is registered, with its alias.
	if !strings.Contains(res.stdout, "\njson ") || !regexp.MustCompile(`\njson +raw +application/json +\S`).MatchString(res.stdout) {
		t.Errorf("list has no json row:\n%s", res.stdout)
	}
}

// TestBuiltBinary builds cmd/wirebench and runs it as a user would.
func TestBuiltBinary(t *testing.T) {
	cases := testsupport.ReferenceCases(t)
	bin := testsupport.Wirebench(t)
	exe := func(stdin []byte, args ...string) result {
		t.Helper()
		res := testsupport.RunIn(t, "", stdin, bin, args...)
		return result{res.Code, res.Stdout, res.Stderr}
	}
	for _, c := range cases {
		f, want := c.Path, c.JSON
		// The reference files are canonical JSON and one newline, which is
		// what decode -f json prints.
		for _, res := range []result{exe(nil, "decode", "-f", "json", f), exe(want, "decode", "-f", "json")} {
			if res.code != 0 || res.stderr != "" || res.stdout != string(want) {
				t.Errorf("decode -f json %s: exit %d, stderr %q\nstdout %q\nwant   %q", filepath.Base(f), res.code, res.stderr, res.stdout, want)
			}
		}
		bad := want[:len(want)*2/3]
		res := exe(bad, "decode", "-f", "json")
		checkBadInput(t, res, "json")
		if !regexp.MustCompile(`^wirebench decode: json: offset \d+: .+\n$`).MatchString(res.stderr) {
			t.Errorf("stderr %q", res.stderr)
		}
	}
	res := exe(nil, "decode", "-f", "nope")
	if res.code != cli.ExitUsage || res.stdout != "" || !strings.Contains(res.stderr, `unknown codec "nope" (have: `) {
		t.Errorf("unknown codec: %+v", res)
	}
	res = exe(nil, "list")
	if res.code != 0 || !strings.Contains(res.stdout, "json") {
		t.Errorf("list: %+v", res)
	}
}
