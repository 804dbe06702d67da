package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/internal/toongen"
)

// The npm packages "wirebench toon" is compared with: the reference TOON
// library (byte for byte) and the reference CLI (speed).
const (
	toonLibrary = "@toon-format/toon@4.4.0"
	toonCLI     = "@toon-format/cli@4.1.1"
)

// generatedDocuments is how many generated documents TestToonReference
// converts, each in all three delimiters.
const generatedDocuments = 1000

// toonReference is the reference library answering encode and decode
// requests (codecs/toon/toonvalue/testdata/reference.mjs).
type toonReference struct{ node *testsupport.Node }

func startToonReference(t *testing.T) *toonReference {
	t.Helper()
	return &toonReference{testsupport.StartNode(t, filepath.Join("..", "..", "codecs", "toon", "toonvalue", "testdata", "reference.mjs"), toonLibrary)}
}

func (r *toonReference) encode(jsonText []byte, delimiter string, indent int) (string, error) {
	options := map[string]any{"delimiter": delimiter, "indentSize": indent}
	return r.node.Ask(map[string]any{"op": "encode", "json": string(jsonText), "options": options}, "toon")
}

// decode returns JSON.stringify(decode(toonText), null, indent), as the
// reference CLI writes it.
func (r *toonReference) decode(toonText string, indent int) (string, error) {
	options := map[string]any{"indentSize": indent}
	return r.node.Ask(map[string]any{"op": "decode", "toon": toonText, "options": options, "space": indent}, "json")
}

var delimiters = []struct{ flag, char string }{{"comma", ","}, {"tab", "\t"}, {"|", "|"}}

// compareToon runs "wirebench toon" on a JSON document and compares its
// output with the reference's encode(JSON.parse(document)) and a newline.
// Where JavaScript's view of the document differs from the text (integers
// beyond 2^53, keys that are array indices), wirebench keeps the text's
// numbers and key order; there the reference's output must equal
// wirebench's output for the document as JavaScript sees it.
func compareToon(ref *toonReference, doc []byte, delimiter, char string, indent int) error {
	v, err := jsonvalue.Parse(doc)
	if err != nil {
		return fmt.Errorf("ParseJSON: %v\ndocument: %s", err, doc)
	}
	input := doc
	ours, err := jsonvalue.Append(nil, v)
	if err != nil {
		return err
	}
	theirs, err := jsonvalue.Append(nil, testsupport.JSView(v))
	if err != nil {
		return err
	}
	if !bytes.Equal(ours, theirs) {
		input = theirs
	}
	want, err := ref.encode(doc, char, indent)
	if err != nil {
		return fmt.Errorf("%v\ndocument: %s", err, doc)
	}
	res := run(string(input), "toon", "--delimiter", delimiter, "--indent", strconv.Itoa(indent))
	if res.code != cli.ExitOK || res.stderr != "" {
		return fmt.Errorf("wirebench toon: exit %d, stderr %q\ndocument: %s", res.code, res.stderr, doc)
	}
	if res.stdout != want+"\n" {
		return fmt.Errorf("wirebench toon --delimiter %q --indent %d differs from the reference\ndocument:  %s\nwirebench: %q\nreference: %q", delimiter, indent, doc, res.stdout, want+"\n")
	}
	return nil
}

// referenceAndCorpus starts the reference library and returns it with the
// generated corpus's files; under the race detector it skips the test,
// which compares every file whole on one goroutine (.ci/run runs it without
// -race).
func referenceAndCorpus(t *testing.T) (*toonReference, map[string][]byte) {
	t.Helper()
	if testsupport.Race {
		t.Skip("every corpus file, whole, against the reference library on one goroutine; .ci/run runs it without -race")
	}
	ref := startToonReference(t)
	files, err := corpus.Files(corpus.Generate())
	if err != nil {
		t.Fatal(err)
	}
	return ref, files
}

// TestToonReference: "wirebench toon" agrees byte for byte with the
// reference library on every corpus file and on generated documents, in
// each of the three delimiters.
func TestToonReference(t *testing.T) {
	ref, files := referenceAndCorpus(t)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, d := range delimiters {
			if err := compareToon(ref, files[name], d.flag, d.char, 2); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	docs := 0
	for docs < generatedDocuments && !t.Failed() {
		rapid.Check(t, func(rt *rapid.T) {
			docs++
			doc := toongen.Document(rt)
			indent := rapid.SampledFrom([]int{2, 2, 1, 4}).Draw(rt, "indent")
			for _, d := range delimiters {
				if err := compareToon(ref, doc, d.flag, d.char, indent); err != nil {
					rt.Fatal(err)
				}
			}
		})
	}
	t.Logf("%d corpus files and %d generated documents, 3 delimiters each, agree with %s", len(names), docs, toonLibrary)
}

// TestToonDecodeReference: "wirebench toon -d" writes what the reference
// writes, JSON.stringify(decode(text), null, indent) and a newline, for the
// TOON of every corpus file in each delimiter and indentation. (The
// documents are taken as JavaScript reads them: integers beyond 2^53
// rounded, which the reference could not write back otherwise.)
func TestToonDecodeReference(t *testing.T) {
	ref, files := referenceAndCorpus(t)
	for name, doc := range files {
		v, err := jsonvalue.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		if doc, err = jsonvalue.Append(nil, testsupport.JSView(v)); err != nil {
			t.Fatal(err)
		}
		for i, d := range delimiters {
			indent := strconv.Itoa(i + 1)
			enc := run(string(doc), "toon", "--delimiter", d.flag, "--indent", indent)
			if enc.code != 0 {
				t.Fatalf("%s: %+v", name, enc)
			}
			theirs, err := ref.decode(enc.stdout, i+1)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ours := run(enc.stdout, "toon", "-d", "--indent", indent)
			if ours.code != 0 || ours.stdout != theirs+"\n" {
				t.Errorf("%s, delimiter %s, indent %s: toon -d differs from the reference (exit %d, %q; %d and %d bytes)", name, d.flag, indent, ours.code, ours.stderr, len(ours.stdout), len(theirs)+1)
			}
		}
	}
}

// BenchmarkToonCLI converts a 1 MB JSON file (the corpus's search_l case)
// to TOON with the built wirebench and with the reference CLI, each run as
// a process reading the file and writing TOON to a pipe: the figure a user
// of either command sees, start-up included.
func BenchmarkToonCLI(b *testing.B) {
	files, err := corpus.Files(corpus.Generate())
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	doc := filepath.Join(dir, "search_l.json")
	if err := os.WriteFile(doc, files["search_l.json"], 0o644); err != nil {
		b.Fatal(err)
	}
	bin := testsupport.Wirebench(b)
	node, prefix := testsupport.NpmInstall(b, toonCLI)
	refBin := filepath.Join(prefix, "node_modules", "@toon-format", "cli", "bin", "toon.mjs")
	var wb, rf bytes.Buffer
	for _, c := range []struct {
		name string
		cmd  []string
		out  *bytes.Buffer
	}{
		{"wirebench", []string{bin, "toon", doc}, &wb},
		{"toon-format-cli", []string{node, refBin, doc}, &rf},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(files["search_l.json"])))
			for b.Loop() {
				c.out.Reset()
				cmd := exec.Command(c.cmd[0], c.cmd[1:]...)
				var stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = c.out, &stderr
				if err := cmd.Run(); err != nil {
					b.Fatalf("%v: %v\n%s", c.cmd, err, stderr.Bytes())
				}
			}
		})
	}
	if wb.Len() > 0 && rf.Len() > 0 && !bytes.Equal(wb.Bytes(), rf.Bytes()) {
		b.Errorf("the two commands wrote different TOON (%d and %d bytes)", wb.Len(), rf.Len())
	}
}
