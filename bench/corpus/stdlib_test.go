package corpus

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

var (
	stdlibOnce    sync.Once
	stdlibCorpus  *StdlibCorpus
	stdlibErr     error
	stdlibElapsed time.Duration
)

// testStdlib generates the Stdlib profile once for the package's tests.
func testStdlib(t *testing.T) *StdlibCorpus {
	t.Helper()
	stdlibOnce.Do(func() {
		root, err := GOROOT()
		if err != nil {
			stdlibErr = err
			return
		}
		start := time.Now()
		stdlibCorpus, stdlibErr = GenerateStdlib(root)
		stdlibElapsed = time.Since(start)
	})
	if stdlibErr != nil {
		t.Fatal(stdlibErr)
	}
	return stdlibCorpus
}

// TestStdlibIsDeterministic: generating the profile twice from the same
// toolchain gives the same files, byte for byte (the generator parses the
// sets concurrently and walks maps: neither may show).
func TestStdlibIsDeterministic(t *testing.T) {
	first := testStdlib(t)
	t.Logf("generated from %s in %v", first.GoVersion, stdlibElapsed)
	root, err := GOROOT()
	if err != nil {
		t.Fatal(err)
	}
	again, err := GenerateStdlib(root)
	if err != nil {
		t.Fatal(err)
	}
	if again.GoVersion != first.GoVersion {
		t.Errorf("Go version %s, then %s", first.GoVersion, again.GoVersion)
	}
	for i, set := range append([][]Case{first.Cases}, first.Spread...) {
		other := append([][]Case{again.Cases}, again.Spread...)[i]
		a, err := Files(set)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Files(other)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(stdlibSpecs) {
			t.Errorf("set %d: %d files, want %d", i, len(a), len(stdlibSpecs))
		}
		for name, data := range a {
			if string(b[name]) != string(data) {
				t.Errorf("set %d: %s differs between two generations", i, name)
			}
		}
	}
}

// TestStdlibVersion: the profile names the version of the toolchain it
// was read from, as the go command reports it.
func TestStdlibVersion(t *testing.T) {
	c := testStdlib(t)
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Skipf("go env GOVERSION: %v", err)
	}
	if want := strings.TrimSpace(string(out)); c.GoVersion != want {
		t.Errorf("GoVersion %q, go env GOVERSION %q", c.GoVersion, want)
	}
}

// TestStdlibCases: every set gives every case, each of its query type,
// graph-whole, sizes growing from S to L, and the first set's cases hold
// the standard library's own text: doc comments, signatures, positions.
func TestStdlibCases(t *testing.T) {
	c := testStdlib(t)
	if len(c.Spread) != len(StdlibSets)-1 {
		t.Fatalf("%d spread sets, want %d", len(c.Spread), len(StdlibSets)-1)
	}
	for i, set := range append([][]Case{c.Cases}, c.Spread...) {
		var names []string
		size := map[string]int{}
		for _, cs := range set {
			names = append(names, cs.Name)
			if cs.Profile != Stdlib {
				t.Errorf("set %d: %s has profile %q", i, cs.Name, cs.Profile)
			}
			r := cs.Response
			if want := wire.QueryType(cs.Name[:strings.LastIndex(cs.Name, "_")]); r.QueryType != want {
				t.Errorf("set %d: %s is a %s", i, cs.Name, r.QueryType)
			}
			if err := wirecodec.Validate(wire.DefaultRegistry(), r); err != nil {
				t.Errorf("set %d: %s: %v", i, cs.Name, err)
			}
			size[cs.Name] = len(r.Nodes) + len(r.Rows)
		}
		if diff := cmp.Diff(StdlibCaseNames(), names); diff != "" {
			t.Errorf("set %d: cases (-want +got):\n%s", i, diff)
		}
		for _, q := range []string{"traversal", "path_finding", "aggregation"} {
			if !(size[q+"_s"] < size[q+"_m"] && size[q+"_m"] < size[q+"_l"]) {
				t.Errorf("set %d: %s sizes S %d, M %d, L %d do not grow", i, q, size[q+"_s"], size[q+"_m"], size[q+"_l"])
			}
		}
		checkEdgesReferenceNodes(t, set)
	}
	byName := map[string]*wire.GraphResponse{}
	for _, cs := range c.Cases {
		byName[cs.Name] = cs.Response
	}
	if n := len(byName["traversal_l"].Nodes); n != 1_000 {
		t.Errorf("traversal_l has %d nodes, want 1,000", n)
	}
	found := map[string]bool{}
	for _, n := range byName["traversal_l"].Nodes {
		for _, p := range n.Properties {
			v := p.Value.Text()
			switch {
			case p.Key == "signature" && strings.HasPrefix(v, "func (c *Client) Do(req *Request) (*Response, error)"):
				found["a method's signature"] = true
			case p.Key == "doc" && strings.Contains(v, "\n") && len(v) > 500:
				found["a long doc comment"] = true
			case p.Key == "position" && strings.HasPrefix(v, "net/http/"):
				found["a position under GOROOT/src"] = true
			case p.Key == "deprecated" && p.Value.Kind() == wire.KindBool && p.Value.Bool():
				found["a deprecated declaration"] = true
			}
		}
	}
	for _, want := range []string{"a method's signature", "a long doc comment", "a position under GOROOT/src", "a deprecated declaration"} {
		if !found[want] {
			t.Errorf("traversal_l lacks %s", want)
		}
	}
}

// TestStdlibSetsAreSmall: the profile is generated at scorecard time, so it
// must stay cheap; its cost is counted in files parsed, not seconds.
func TestStdlibSetsAreSmall(t *testing.T) {
	total := 0
	for _, set := range StdlibSets {
		total += len(set)
	}
	if total > 60 {
		t.Errorf("%d packages parsed whole, want at most 60: the profile is generated at every scorecard run", total)
	}
}
