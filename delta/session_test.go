package delta_test

import (
	"errors"
	"fmt"
	"runtime"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// sendRefs is what a writer sends: r with the nodes at refs reduced to
// their type and id.
func sendRefs(r *wire.GraphResponse, refs []int) *wire.GraphResponse {
	sent := wiretest.Clone(r)
	for _, i := range refs {
		sent.Nodes[i] = wire.Node{Type: sent.Nodes[i].Type, ID: sent.Nodes[i].ID}
	}
	return sent
}

// TestSessionResolve is the property: over a conversation of 5 to 10
// responses that share nodes (each an edit of the one before), with
// sessions bounded tightly enough to evict, the reader resolves every
// response the writer marked back to the original exactly, and the two
// sessions remember the same.
//
// A thousand conversations on one goroutine, which the race detector
// slows severalfold with nothing to watch (TestSessionConcurrent is the
// sessions' race test): .ci/run runs it without.
func TestSessionResolve(t *testing.T) {
	if testsupport.Race {
		t.Skip("a thousand single-goroutine conversations; .ci/run runs it without -race")
	}
	var responses, refsTotal, nodesTotal, atBound int
	per := wiretest.PerCase(1000)
	rapid.Check(t, func(rt *rapid.T) {
		for range per {
			conversation(rt, &responses, &refsTotal, &nodesTotal, &atBound)
		}
	})
	t.Logf("%d responses resolved exactly; %d of %d nodes sent as references; %d responses with a session at its bound",
		responses, refsTotal, nodesTotal, atBound)
	if refsTotal == 0 || atBound == 0 {
		t.Errorf("the property did not exercise references (%d) or eviction (%d)", refsTotal, atBound)
	}
}

// conversation runs one conversation of the property.
func conversation(rt *rapid.T, responses, refsTotal, nodesTotal, atBound *int) {
	lim := delta.SessionLimits{
		MaxNodes: rapid.SampledFrom([]int{1, 2, 5, 12, 30, 1000}).Draw(rt, "max_nodes"),
		MaxBytes: int64(rapid.SampledFrom([]int{150, 400, 2000, 10_000, 1 << 20}).Draw(rt, "max_bytes")),
	}
	writer, err := delta.NewSession(lim)
	if err != nil {
		rt.Fatal(err)
	}
	reader, _ := delta.NewSession(lim)
	r := wiretest.Response().Draw(rt, "first")
	steps := rapid.IntRange(5, 10).Draw(rt, "steps")
	for range steps {
		before := wiretest.Clone(r)
		refs := writer.Mark(r)
		if diff := wiretest.Diff(before, r, wire.Exact); diff != "" {
			rt.Fatalf("Mark modified the response:\n%s", diff)
		}
		got, err := reader.Resolve(sendRefs(r, refs), refs, delta.Fingerprint(r))
		if err != nil {
			rt.Fatalf("Resolve: %v (refs %v)", err, refs)
		}
		if diff := wiretest.Diff(r, got, wire.Exact); diff != "" {
			rt.Fatalf("resolved response differs (-want +got):\n%s", diff)
		}
		wn, wb := writer.Len()
		rn, rb := reader.Len()
		if wn != rn || wb != rb {
			rt.Fatalf("writer remembers %d nodes (%d bytes), reader %d (%d bytes)", wn, wb, rn, rb)
		}
		if wn > lim.MaxNodes || wb > lim.MaxBytes {
			rt.Fatalf("session past its bound: %d nodes, %d bytes, limits %+v", wn, wb, lim)
		}
		if wn == lim.MaxNodes || wb > lim.MaxBytes*3/4 {
			*atBound++
		}
		*responses++
		*refsTotal += len(refs)
		*nodesTotal += len(r.Nodes)
		next := wiretest.Clone(r)
		edit(rt, next, wiretest.Response().Draw(rt, "other"), false)
		r = next
	}
}

func TestSessionMark(t *testing.T) {
	a, b := node("User", 1, "name", "ada"), node("User", 2, "name", "bob")
	s, _ := delta.NewSession(delta.SessionLimits{})
	if refs := s.Mark(resp(a, b)); refs != nil {
		t.Errorf("first response: refs %v, want none", refs)
	}
	if diff := cmp.Diff([]int{0, 1}, s.Mark(resp(b, a))); diff != "" {
		t.Errorf("the same nodes again (-want +got):\n%s", diff)
	}
	changed := node("User", 2, "name", "bobby")
	if diff := cmp.Diff([]int{0}, s.Mark(resp(a, changed))); diff != "" {
		t.Errorf("a changed node must be sent whole (-want +got):\n%s", diff)
	}
	c := node("User", 3)
	if diff := cmp.Diff([]int{1}, s.Mark(resp(c, a, c))); diff != "" {
		t.Errorf("a node listed twice is a reference only when delivered before (-want +got):\n%s", diff)
	}

	one, _ := delta.NewSession(delta.SessionLimits{MaxNodes: 1})
	one.Mark(resp(a, b))
	if diff := cmp.Diff([]int{1}, one.Mark(resp(a, b))); diff != "" {
		t.Errorf("at one node, only the last delivered is a reference (-want +got):\n%s", diff)
	}

	fresh, _ := delta.NewSession(delta.SessionLimits{})
	_, err := fresh.Resolve(resp(wire.Node{Type: "User", ID: 1}), []int{0}, delta.Hash{})
	if !errors.Is(err, delta.ErrUnresolved) {
		t.Errorf("resolving an unknown reference: got %v, want ErrUnresolved", err)
	}
	if n, _ := fresh.Len(); n != 0 {
		t.Errorf("a failed Resolve changed the session: %d nodes", n)
	}

	// A reader that missed a response holds a stale node: the writer's
	// fingerprint turns the stale resolution into an error.
	writer, _ := delta.NewSession(delta.SessionLimits{})
	reader, _ := delta.NewSession(delta.SessionLimits{})
	first := resp(a)
	if _, err := reader.Resolve(first, writer.Mark(first), delta.Fingerprint(first)); err != nil {
		t.Fatal(err)
	}
	writer.Mark(resp(node("User", 1, "name", "ada lovelace"))) // never delivered to reader
	third := resp(node("User", 1, "name", "ada lovelace"), b)
	refs := writer.Mark(third)
	_, err = reader.Resolve(sendRefs(third, refs), refs, delta.Fingerprint(third))
	if !errors.Is(err, delta.ErrUnresolved) {
		t.Errorf("a reader out of step: got %v, want ErrUnresolved", err)
	}
	if n, _ := reader.Len(); n != 1 {
		t.Errorf("a refused Resolve changed the session: %d nodes, want 1", n)
	}
	reader.Reset()
	if n, bytes := reader.Len(); n != 0 || bytes != 0 {
		t.Errorf("after Reset: %d nodes, %d bytes", n, bytes)
	}

	if _, err := delta.NewSession(delta.SessionLimits{MaxNodes: -1}); err == nil {
		t.Errorf("a negative bound accepted")
	}
}

// TestSessionConcurrent: a Session shared by goroutines stays within its
// bounds and consistent (run with -race).
func TestSessionConcurrent(t *testing.T) {
	lim := delta.SessionLimits{MaxNodes: 20, MaxBytes: 4000}
	s, _ := delta.NewSession(lim)
	errs := wiretest.ConcurrentRun(4, 200, func(i int) error {
		r := wiretest.Response().Example(i)
		refs := s.Mark(r)
		for _, j := range refs {
			if j < 0 || j >= len(r.Nodes) {
				return fmt.Errorf("reference %d outside the %d nodes", j, len(r.Nodes))
			}
		}
		if n, b := s.Len(); n > lim.MaxNodes || b > lim.MaxBytes {
			return fmt.Errorf("past the bound: %d nodes, %d bytes", n, b)
		}
		return nil
	})
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestSessionMemory: a Session at its MaxBytes bound holds a live heap
// within 25% of MaxBytes: the bytes it counts are the heap it holds.
func TestSessionMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("heap figures: the race detector's shadow memory distorts them; .ci/run runs it without -race")
	}
	const maxBytes = 4 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, _ := delta.NewSession(delta.SessionLimits{MaxNodes: 1 << 30, MaxBytes: maxBytes})
	for batch := range 40 {
		r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}
		for i := range 1000 {
			id := int64(batch*1000 + i)
			r.Nodes = append(r.Nodes, wire.Node{Type: "MergeRequest", ID: id, Properties: []wire.Property{
				wire.Prop("iid", wire.Int(id)),
				wire.Prop("title", wire.String(fmt.Sprintf("Merge request number %d of the project", id))),
				wire.Prop("state", wire.String("merged")),
				wire.Prop("score", wire.Float(0.5)),
				wire.Prop("labels", wire.ListOf(wire.String("bug"), wire.String("backend"))),
			}})
		}
		s.Mark(r)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n, counted := s.Len()
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d nodes remembered, %d bytes counted, %d bytes of live heap (%.2fx)", n, counted, live, float64(live)/float64(counted))
	if counted > maxBytes || live > maxBytes*5/4 {
		t.Errorf("a session bounded at %d bytes counts %d and holds %d", maxBytes, counted, live)
	}
	runtime.KeepAlive(s)
}

// TestSessionKeepsNoInput: a node remembered from a decoded response does
// not keep the decoder's input alive (its strings may point into it).
func TestSessionKeepsNoInput(t *testing.T) {
	if testsupport.Race {
		t.Skip("heap figures: the race detector's shadow memory distorts them; .ci/run runs it without -race")
	}
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}
	for i := range 20_000 {
		r.Nodes = append(r.Nodes, wire.Node{Type: "Note", ID: int64(i), Properties: []wire.Property{
			wire.Prop("body", wire.String(fmt.Sprintf("note %d: %0500d", i, i)))}})
	}
	s, _ := delta.NewSession(delta.SessionLimits{MaxNodes: 10})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 0
	func() {
		b, err := jsoncodec.AppendEncode(nil, r) // the input, garbage once decoded
		if err != nil {
			t.Fatal(err)
		}
		n = len(b)
		decoded, err := jsoncodec.DecodeWithin(b, wire.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		s.Mark(decoded)
	}()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if live := int64(after.HeapAlloc) - int64(before.HeapAlloc); live > int64(n)/4 {
		t.Errorf("a session of 10 nodes keeps %d bytes alive after decoding %d bytes", live, n)
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(r)
}
