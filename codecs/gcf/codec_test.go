package gcf_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestCorpusRoundTrip: every corpus case reads back under the codec's
// declared fidelity, and encoding is deterministic.
func TestCorpusRoundTrip(t *testing.T) {
	if testsupport.Race {
		t.Skip("the whole corpus on one goroutine; .ci/run runs it without -race")
	}
	c := gcf.Default()
	f := c.Info().Fidelity
	for _, cs := range corpus.Generate() {
		t.Run(cs.ID(), func(t *testing.T) {
			out, err := c.AppendEncode(nil, cs.Response)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			again, _ := c.AppendEncode(nil, cs.Response)
			if !bytes.Equal(out, again) {
				t.Fatal("encoding is not deterministic")
			}
			back, err := c.Decode(out)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if d := wiretest.Diff(cs.Response, back, f); d != "" {
				t.Fatalf("round trip under %v (-want +got):\n%s", f, d)
			}
			if s := c.Sniff(out); s < 0.9 {
				t.Fatalf("Sniff = %v", s)
			}
			var buf bytes.Buffer
			if err := c.EncodeTo(&buf, cs.Response); err != nil || !bytes.Equal(buf.Bytes(), out) {
				t.Fatalf("EncodeTo differs from AppendEncode (%v)", err)
			}
		})
	}
}

func TestInfo(t *testing.T) {
	i := gcf.Default().Info()
	if i.Name != "gcf" || i.MediaType != "application/vnd.gcf+text" || i.Fidelity != wire.NumbersByValue || i.Binary {
		t.Fatalf("Info = %+v", i)
	}
}

func TestSniff(t *testing.T) {
	c := gcf.Default()
	for in, want := range map[string]float64{
		"GCF profile=generic\nformat_version=1.2.0\n": 0.95,
		"\ufeff\nGCF profile=generic key=id\n":        0.95,
		"GCF profile=graph tool=x\n":                  0.5,
		"{\"format_version\":\"1\"}":                  0,
		"format_version: 1\n":                         0,
		"GCFX":                                        0,
	} {
		if got := c.Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestDecodeErrors: malformed text and well-formed GCF that holds no
// response are refused with a *wire.DecodeError that says where.
func TestDecodeErrors(t *testing.T) {
	c := gcf.Default()
	const head = "GCF profile=generic\nformat_version=1.2.0\nquery_type=traversal\n"
	cases := map[string]string{
		"GCF profile=generic\nformat_version=1.2.0\n":                                              "missing field query_type",
		head + "## nodes [1]{type,id}\nUser|x\n## edges [0]\n":                                     "nodes[0].id: expected an integer",
		head + "## nodes [1]{type,id,p}\n@0 User|1|^\n.p {}\n    a=1\n## edges [0]\n":              "nodes[0].p",
		head + "## nodes [0]\n## edges [0]\nextra=1\n":                                             "unexpected field \"extra\"",
		head + "## nodes [2]{type,id}\nUser|1\n":                                                   "line 4, column 10",
		"GCF profile=generic\nformat_version=1.2.0\nquery_type=nope\n## nodes [0]\n## edges [0]\n": "unknown query type",
		head + "## nodes [0]\n## edges [0]\n## pagination\n  total_rows=1\n":                       "pagination",
	}
	for in, want := range cases {
		_, err := c.Decode([]byte(in))
		var de *wire.DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%q) = %v, want a *wire.DecodeError saying %q", in, err, want)
		}
	}
}

// TestEncodeRefusals: what the layout cannot carry is an *EncodeError and
// no output.
func TestEncodeRefusals(t *testing.T) {
	c := gcf.Default()
	for name, r := range map[string]*wire.GraphResponse{
		"query type": {QueryType: "nope"},
		"NaN":        {QueryType: wire.Search, Nodes: []wire.Node{{Type: "U", ID: 1, Properties: []wire.Property{wire.Prop("x", wire.Float(nan()))}}}},
		"id prop":    {QueryType: wire.Search, Nodes: []wire.Node{{Type: "U", ID: 1, Properties: []wire.Property{wire.Prop("id", wire.Int(1))}}}},
	} {
		out, err := c.AppendEncode([]byte("keep"), r)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || string(out) != "keep" {
			t.Errorf("%s: AppendEncode = %q, %v", name, out, err)
		}
	}
}

func nan() float64 {
	z := 0.0
	return z / z
}

// TestDecodeMemory holds Decode to 16 times its input plus 16 MiB of peak
// heap on the largest corpus case and on a traversal of about 16 MB.
func TestDecodeMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector changes allocation")
	}
	var big []byte
	for _, cs := range corpus.Generate() {
		out, err := gcf.Default().AppendEncode(nil, cs.Response)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) > len(big) {
			big = out
		}
	}
	decodeWithin(t, big)
	// The reader builds the whole response, then gives up at the last
	// line, and the generic path reads the text again: both within the
	// bound together.
	broken := append(append([]byte(nil), big...), "zz\n"...)
	f := wiretest.Measure(func() { _, err := gcf.Default().Decode(broken); _ = err })
	if bound := wiretest.DecodeMemoryBound(len(broken)); f.PeakHeap > bound {
		t.Fatalf("%d bytes, a bad last line: %v, more than %d KiB", len(broken), f, bound>>10)
	}
	t.Logf("%d bytes, a bad last line: %v", len(broken), f)
	if testing.Short() {
		return
	}
	huge, err := gcf.Default().AppendEncode(nil, testsupport.Traversal(20_000, 40_000))
	if err != nil {
		t.Fatal(err)
	}
	decodeWithin(t, huge)
}

func decodeWithin(t *testing.T, big []byte) {
	t.Helper()
	var err error
	f := wiretest.Measure(func() { _, err = gcf.Default().Decode(big) })
	if err != nil {
		t.Fatal(err)
	}
	if bound := wiretest.DecodeMemoryBound(len(big)); f.PeakHeap > bound {
		t.Fatalf("%d bytes: %v, more than %d KiB", len(big), f, bound>>10)
	}
	t.Logf("%d bytes: %v", len(big), f)
}

// TestLimits: under the same Limits, what Decode refuses AppendEncode
// refuses too, both as limit errors.
func TestLimits(t *testing.T) {
	long := strings.Repeat("x", 200)
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("bio", wire.String(long))}}}}
	text, err := gcf.Default().AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	c, err := gcf.New(gcf.Options{Limits: wire.Limits{MaxStringBytes: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AppendEncode(nil, r); !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("AppendEncode under MaxStringBytes 100: %v", err)
	}
	_, err = c.Decode(text)
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Limit != "MaxStringBytes" || de.Line == 0 {
		t.Fatalf("Decode under MaxStringBytes 100: %v", err)
	}
	small, _ := gcf.New(gcf.Options{Limits: wire.Limits{MaxInputBytes: 50}})
	if _, err := small.Decode(text); !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("Decode under MaxInputBytes 50: %v", err)
	}
	if _, err := small.AppendEncode(nil, r); !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("AppendEncode under MaxInputBytes 50: %v", err)
	}
}
