package corpus

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Stdlib is the profile of the real-data cases: a code graph of the Go
// standard library of the toolchain at hand (see GenerateStdlib).
const Stdlib = "go-stdlib"

// StdlibLicense is the licence of the text the Stdlib profile quotes: the
// Go project's declarations and doc comments.
const StdlibLicense = "BSD-3-Clause (the Go project's LICENSE, in GOROOT)"

// Entity and relationship types of the Stdlib profile's code graph.
const (
	GoPackage  = "Package"
	GoFunction = "Function"
	GoMethod   = "Method"
	GoType     = "Type"
	GoValue    = "Value"

	Imports    = "IMPORTS"
	Declares   = "DECLARES"
	HasMethod  = "HAS_METHOD"
	Calls      = "CALLS"
	References = "REFERENCES"
)

// StdlibSets are the package sets the Stdlib profile is drawn from, each
// the import paths of GOROOT/src it parses. The first is the profile's
// own: the network, encoding and Go-syntax packages a service is built
// from. The others are measured as the profile's spread, as other seeds
// are for the generated profiles: cryptography, databases and templates,
// images and archives, reflection and numbers. Every set's packages are
// each parsed whole (its non-test files for linux/amd64, without cgo).
var StdlibSets = [][]string{
	{"bufio", "bytes", "context", "encoding/json", "errors", "fmt", "go/ast", "go/parser", "go/token", "io", "net/http", "net/url", "os", "strings", "sync", "time"},
	{"crypto", "crypto/ecdsa", "crypto/rsa", "crypto/sha256", "crypto/tls", "crypto/x509", "encoding/asn1", "encoding/pem", "hash", "math/rand/v2"},
	{"database/sql", "database/sql/driver", "html/template", "log/slog", "text/tabwriter", "text/template", "text/template/parse"},
	{"archive/tar", "archive/zip", "compress/flate", "compress/gzip", "image", "image/color", "image/draw", "image/gif", "image/jpeg", "image/png"},
	{"math", "math/big", "math/bits", "reflect", "regexp", "regexp/syntax", "slices", "sort", "strconv", "unicode", "unicode/utf8"},
}

// StdlibCorpus is the Stdlib profile generated from one toolchain.
type StdlibCorpus struct {
	// GoVersion is the toolchain's version, as GOROOT/VERSION names it
	// ("go1.26.8"): the profile is a pure function of it.
	GoVersion string
	// Cases are the profile's cases, drawn from StdlibSets[0].
	Cases []Case
	// Spread holds, for each other set of StdlibSets, the same cases drawn
	// from that set (each with profile Stdlib).
	Spread [][]Case
}

// GOROOT returns the Go toolchain's root, as `go env GOROOT` gives it (the
// GOROOT environment variable when set).
func GOROOT() (string, error) {
	if r := os.Getenv("GOROOT"); r != "" {
		return r, nil
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("corpus: go env GOROOT: %w (the %s profile needs a Go toolchain)", err, Stdlib)
	}
	return strings.TrimSpace(string(out)), nil
}

// GoVersion returns the version of the toolchain at goroot: the first
// line of GOROOT/VERSION.
func GoVersion(goroot string) (string, error) {
	b, err := os.ReadFile(filepath.Join(goroot, "VERSION"))
	if err != nil {
		return "", fmt.Errorf("corpus: the Go version at %s: %w", goroot, err)
	}
	v, _, _ := strings.Cut(string(b), "\n")
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "go") {
		return "", fmt.Errorf("corpus: %s/VERSION does not start with a Go version: %q", goroot, v)
	}
	return v, nil
}

// GenerateStdlib derives the Stdlib profile from the standard library's
// sources under goroot/src: offline, with go/parser, go/ast and go/doc (no
// type checking), and deterministically: the same toolchain gives the same
// cases, byte for byte, on any machine. The text stays where it is; the
// repository holds this generator and the figures measured on it.
func GenerateStdlib(goroot string) (*StdlibCorpus, error) {
	version, err := GoVersion(goroot)
	if err != nil {
		return nil, err
	}
	out := &StdlibCorpus{GoVersion: version}
	graphs := make([]*codeGraph, len(StdlibSets))
	errs := make([]error, len(StdlibSets))
	var wg sync.WaitGroup
	for i, set := range StdlibSets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			graphs[i], errs[i] = loadCodeGraph(goroot, set)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i, g := range graphs {
		cases, err := g.cases()
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out.Cases = cases
		} else {
			out.Spread = append(out.Spread, cases)
		}
	}
	return out, nil
}

var stdlibCache struct {
	sync.Mutex
	version string
	corpus  *StdlibCorpus
}

// LoadStdlib generates the Stdlib profile from the toolchain at GOROOT(),
// once per process and Go version, and returns it with that version. When
// the version is known but the profile cannot be made, it returns the
// version with the error.
func LoadStdlib() (std *StdlibCorpus, goVersion string, err error) {
	root, err := GOROOT()
	if err != nil {
		return nil, "", err
	}
	v, err := GoVersion(root)
	if err != nil {
		return nil, "", err
	}
	stdlibCache.Lock()
	defer stdlibCache.Unlock()
	if stdlibCache.corpus != nil && stdlibCache.version == v {
		return stdlibCache.corpus, v, nil
	}
	std, err = GenerateStdlib(root)
	if err != nil {
		return nil, v, err
	}
	stdlibCache.version, stdlibCache.corpus = v, std
	return std, v, nil
}
