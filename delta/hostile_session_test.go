package delta_test

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sessionCodecs are the built-in codecs with a session syntax.
var sessionCodecs = []string{"json", "goon", "toon", "gcf", "msgpack", "cbor"}

// bigNode is a node of about size bytes of canonical JSON, in properties
// of 64 bytes each, which every codec carries as they are (GOON would cut
// one long string to 1,000 code points, and its reader would remember a
// node of a few kilobytes).
func bigNode(size int) wire.Node {
	props := make([]wire.Property, size/64)
	for i := range props {
		props[i] = wire.Prop(fmt.Sprintf("p%05d", i), wire.String(strings.Repeat("x", 52)))
	}
	return wire.Node{Type: "File", ID: 7, Properties: props}
}

// listing is a response listing n times the node, all of its listings
// sharing n's properties.
func listing(n wire.Node, times int) *wire.GraphResponse {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: make([]wire.Node, times)}
	for i := range r.Nodes {
		r.Nodes[i] = n
	}
	return r
}

// rememberingReader is a reader's session that remembers n, delivered
// earlier in full.
func rememberingReader(t testing.TB, n wire.Node) *delta.Session {
	t.Helper()
	s, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resolve(listing(n, 1), nil, delta.Hash{}); err != nil {
		t.Fatal(err)
	}
	if nodes, _ := s.Len(); nodes != 1 {
		t.Fatalf("the reader remembers %d nodes, want 1", nodes)
	}
	return s
}

// referencingText is the codec's text of a response listing n times
// times, every listing a reference (deltatest.RepeatedReferences).
func referencingText(t testing.TB, codec string, n wire.Node, times int) []byte {
	t.Helper()
	c, err := wire.DefaultRegistry().Lookup(codec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := deltatest.RepeatedReferences(c.(delta.DocumentCodec), n, times)
	if err != nil {
		t.Fatalf("%s: writing %d references: %v", codec, times, err)
	}
	return b
}

// refusedAsLimit fails unless err is a *wire.DecodeError of the codec
// matching wire.ErrLimit that names a reference.
func refusedAsLimit(t testing.TB, codec string, err error) {
	t.Helper()
	var de *wire.DecodeError
	if !errors.As(err, &de) || !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("error %T %v, want a *wire.DecodeError matching wire.ErrLimit", err, err)
	}
	if de.Codec != codec || !strings.Contains(de.Msg, "reference to node \"File\" 7") {
		t.Fatalf("error %q: want the codec %s and the reference named", err, codec)
	}
	if len(err.Error()) > 1000 || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error is not one short line: %q", err)
	}
}

// TestSessionReferencesHostile: a text that lists one remembered node of
// 1 MiB many times as sent earlier is refused as a limit, in every codec,
// with the memory of a decode (peak at most 16 times the text plus 16
// MiB) and in time that scales with the text (4 times the references:
// at most 5 times the time), and leaves the reader's session unchanged.
func TestSessionReferencesHostile(t *testing.T) {
	if testsupport.Race {
		t.Skip("heap and time figures mean nothing under the race detector; .ci/run runs it without")
	}
	const size = 1 << 20
	node := bigNode(size)
	for _, codec := range sessionCodecs {
		t.Run(codec, func(t *testing.T) {
			reader := rememberingReader(t, node)
			_, before := reader.Len()
			// Forty uses of the node resolve to 40 MiB: past what a text
			// of a few hundred bytes and the 1 MiB node may expand to.
			_, err := reader.Decode(nil, codec, referencingText(t, codec, node, 40))
			refusedAsLimit(t, codec, err)
			if nodes, bytes := reader.Len(); nodes != 1 || bytes != before {
				t.Fatalf("after a refusal the reader remembers %d nodes, %d bytes; want 1, %d", nodes, bytes, before)
			}

			texts := map[int][]byte{}
			for _, n := range []int{10_000, 40_000} {
				texts[n] = referencingText(t, codec, node, n)
				var err error
				f := wiretest.Measure(func() { _, err = reader.Decode(nil, codec, texts[n]) })
				refusedAsLimit(t, codec, err)
				t.Logf("%d references, %d bytes of text: %s", n, len(texts[n]), f)
				if bound := uint64(16*len(texts[n]) + 16<<20); f.PeakHeap > bound {
					t.Errorf("%d references (%d bytes): peak heap %d, bound %d", n, len(texts[n]), f.PeakHeap, bound)
				}
			}
			decode := func(n int) func() { return func() { reader.Decode(nil, codec, texts[n]) } }
			var ratio float64
			var t1, t4 time.Duration
			for round := 0; round < 3 && (round == 0 || ratio > 5); round++ {
				t1, t4 = perCall(decode(10_000)), perCall(decode(40_000))
				ratio = float64(t4) / float64(max(t1, time.Nanosecond))
			}
			t.Logf("%v at 10,000 references, %v at 40,000: ratio %.1f", t1, t4, ratio)
			if ratio > 5 {
				t.Errorf("4 times the references took %.1f times as long (%v, then %v)", ratio, t1, t4)
			}
		})
	}
}

// perCall is the best time of one call of f, over five attempts each
// repeating f for at least 20 ms, with the garbage collector off while
// an attempt runs (a small input's garbage may never start a cycle): on
// a busy machine the best attempt is the one least disturbed.
func perCall(f func()) time.Duration {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := time.Duration(1<<63 - 1)
	for range 5 {
		runtime.GC()
		start, n := time.Now(), 0
		for n == 0 || time.Since(start) < 20*time.Millisecond {
			f()
			n++
		}
		best = min(best, time.Since(start)/time.Duration(n))
	}
	return best
}

// inStep is a writer's and a reader's session in step: the node
// delivered once, in full, in the codec.
func inStep(t *testing.T, codec string, n wire.Node) (writer, reader *delta.Session) {
	t.Helper()
	writer, _ = delta.NewSession(delta.SessionLimits{})
	reader, _ = delta.NewSession(delta.SessionLimits{})
	text, _, err := writer.Encode(nil, codec, listing(n, 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reader.Decode(nil, codec, text); err != nil {
		t.Fatal(err)
	}
	return writer, reader
}

// TestSessionEncodeRepeats: a writer never writes a text its reader
// would refuse. A response listing a remembered node of 1 MiB twenty
// times, whose references alone would resolve past MaxExpansion, is
// written with the node referenced once and its other listings in full,
// and the reader gets it exactly as the codec carries it, the two
// sessions still in step; one listing it 40,000 times, which no reader
// would accept however it is written, is refused with an
// *wire.EncodeError matching wire.ErrLimit, the session unchanged.
//
// One goroutine encodes and decodes tens of megabytes, which the race
// detector slows tenfold with nothing to watch: .ci/run runs it without.
func TestSessionEncodeRepeats(t *testing.T) {
	if testsupport.Race {
		t.Skip("single-goroutine work on 20 MiB responses; .ci/run runs it without -race")
	}
	node := bigNode(1 << 20)
	for _, codec := range sessionCodecs {
		t.Run(codec, func(t *testing.T) {
			c, err := wire.DefaultRegistry().Lookup(codec)
			if err != nil {
				t.Fatal(err)
			}
			writer, reader := inStep(t, codec, node)

			r := listing(node, 20)
			var want *wire.GraphResponse
			plain, err := c.AppendEncode(nil, r)
			if err == nil {
				want, err = c.Decode(plain)
			}
			text, _, encErr := writer.Encode(nil, codec, r)
			switch {
			case errors.Is(err, wire.ErrLimit):
				// The codec cannot carry the response within its limits
				// (GOON, whose long values are cut and restored, from a
				// short text): nor can the session.
				var ee *wire.EncodeError
				if !errors.As(encErr, &ee) || !errors.Is(encErr, wire.ErrLimit) {
					t.Fatalf("Encode of what the codec's reader refuses: error %T %v, want an *wire.EncodeError matching wire.ErrLimit", encErr, encErr)
				}
				return
			case err != nil:
				t.Fatal(err)
			case encErr != nil:
				t.Fatalf("Encode: %v", encErr)
			}
			got, err := reader.Decode(nil, codec, text)
			if err != nil {
				t.Fatalf("Decode of what Encode wrote: %v", err)
			}
			if diff := wiretest.Diff(want, got, wire.Exact); diff != "" {
				t.Fatalf("resolved response differs from the codec's plain round trip:\n%s", diff)
			}
			// The writer remembers what the reader holds (for a lossy
			// codec, the node as it reads back), and references it.
			if refs := writer.References(want); len(refs) == 0 {
				t.Fatalf("after the exchange the writer references none of %d listings", len(want.Nodes))
			}

			nodes, bytes := writer.Len()
			f := wiretest.Measure(func() { _, _, err = writer.Encode(nil, codec, listing(node, 40_000)) })
			t.Logf("Encode of 40,000 listings refused: %s", f)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || !errors.Is(err, wire.ErrLimit) {
				t.Fatalf("Encode of 40,000 listings: error %T %v, want an *wire.EncodeError matching wire.ErrLimit", err, err)
			}
			if n, b := writer.Len(); n != nodes || b != bytes {
				t.Fatalf("after a refusal the writer remembers %d nodes, %d bytes; want %d, %d", n, b, nodes, bytes)
			}

			text, _, err = writer.Encode(nil, codec, listing(node, 1))
			if err != nil {
				t.Fatal(err)
			}
			if got, err := reader.Decode(nil, codec, text); err != nil || len(got.Nodes) != 1 {
				t.Fatalf("the sessions fell out of step: %v", err)
			}
		})
	}
}

// TestResolveRepeats: Resolve, which has no text, measures the response
// as given instead. Ten references to a remembered node of 1 MiB
// resolve, exactly, without a copy of the node per use (the session
// keeps the one it has: the call allocates less than two copies); forty
// are refused as a limit of codec "delta", before the fingerprint is
// checked, and change nothing.
func TestResolveRepeats(t *testing.T) {
	if testsupport.Race {
		t.Skip("allocation figures and 40 MiB responses on one goroutine; .ci/run runs it without -race")
	}
	node := bigNode(1 << 20)
	stubs := func(n int) (*wire.GraphResponse, []int) {
		r := listing(wire.Node{Type: node.Type, ID: node.ID}, n)
		refs := make([]int, n)
		for i := range refs {
			refs[i] = i
		}
		return r, refs
	}
	reader := rememberingReader(t, node)
	r, refs := stubs(10)
	want := listing(node, 10)
	fp := delta.Fingerprint(want)
	var got *wire.GraphResponse
	var err error
	f := wiretest.Measure(func() { got, err = reader.Resolve(r, refs, fp) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(want, got, wire.Exact); diff != "" {
		t.Fatalf("resolved (-want +got):\n%s", diff)
	}
	t.Logf("10 references to a node of 1 MiB resolved: %s", f)
	if f.TotalAlloc > 2<<20 {
		t.Errorf("resolving 10 references to one node of 1 MiB allocated %d bytes: a copy per use", f.TotalAlloc)
	}

	nodes, bytes := reader.Len()
	r, refs = stubs(40)
	_, err = reader.Resolve(r, refs, delta.Fingerprint(listing(node, 40)))
	refusedAsLimit(t, "delta", err)
	if n, b := reader.Len(); n != nodes || b != bytes {
		t.Fatalf("after a refusal the reader remembers %d nodes, %d bytes; want %d, %d", n, b, nodes, bytes)
	}
}
