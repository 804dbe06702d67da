// Command racesplit reads the JSON events of `go test -json` on its
// standard input, prints what plain `go test` would (build errors, each
// package's result line, and the output of every failed test), and writes
// the top-level tests that skipped to the file named by -skipped: the
// first line their names joined by "|" (a -run pattern's alternatives),
// then their packages, one a line.
//
// .ci/run runs the race step through it and then runs the skipped tests
// again without the race detector, so that a test that skips under -race
// (its work is single-goroutine, or it measures the heap or time) still
// runs in CI without a list to keep up to date.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
)

// event is the part of a test2json event racesplit reads.
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output events
	Test       string
	Output     string
}

// key names one test of one package.
type key struct{ pkg, test string }

func main() {
	skippedFile := flag.String("skipped", "", "write the skipped top-level tests to this file")
	flag.Parse()
	if *skippedFile == "" {
		fmt.Fprintln(os.Stderr, "racesplit: -skipped FILE is required")
		os.Exit(2)
	}
	skipped, err := split(os.Stdin, os.Stdout)
	if err == nil {
		err = os.WriteFile(*skippedFile, []byte(runArgs(skipped)), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "racesplit:", err)
		os.Exit(1)
	}
}

// split copies the events of in to out as plain text and returns the
// top-level tests that skipped.
func split(in io.Reader, out io.Writer) ([]key, error) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	held := map[key][]string{} // a running test's output, printed if it fails
	var skipped []key
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event (go test's own messages): as it is.
			w.Write(line)
			w.WriteByte('\n')
			w.Flush()
			continue
		}
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			w.WriteString(e.Output)
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" {
				w.WriteString(e.Output)
			}
		case e.Test == "":
		case e.Action == "output":
			held[k] = append(held[k], e.Output)
		case e.Action == "fail":
			for _, s := range held[k] {
				w.WriteString(s)
			}
			delete(held, k)
		case e.Action == "pass":
			delete(held, k)
		case e.Action == "skip":
			delete(held, k)
			if !strings.Contains(e.Test, "/") {
				skipped = append(skipped, k)
			}
		}
		w.Flush()
	}
	return skipped, sc.Err()
}

// runArgs is the -skipped file: the skipped tests' names, quoted for a
// -run pattern and joined by "|", then the packages that have one, one a
// line (nothing when no test skipped).
func runArgs(skipped []key) string {
	names, pkgs := map[string]bool{}, map[string]bool{}
	for _, k := range skipped {
		names[regexp.QuoteMeta(k.test)] = true
		pkgs[k.pkg] = true
	}
	if len(names) == 0 {
		return ""
	}
	return strings.Join(slices.Sorted(maps.Keys(names)), "|") + "\n" + strings.Join(slices.Sorted(maps.Keys(pkgs)), "\n") + "\n"
}
