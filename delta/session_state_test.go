package delta_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestSessionStateRestored is the property: over a conversation of 5 to
// 12 responses that share nodes, with limits tight enough to evict, a
// writer's Session and one saved and restored after every step (never
// holding a node's content for longer than one step) give the same
// references from Mark, the same bytes from Encode in every text codec,
// lossy GOON included, remember the same (Len), and save the same state.
func TestSessionStateRestored(t *testing.T) {
	g := newRegistry(t)
	names := []string{"", "json", "goon", "toon", "gcf"} // "": Mark
	var steps, refs, evicting int
	rapid.Check(t, func(rt *rapid.T) {
		lim := delta.SessionLimits{
			MaxNodes: rapid.SampledFrom([]int{1, 3, 8, 30, 1000}).Draw(rt, "max_nodes"),
			MaxBytes: int64(rapid.SampledFrom([]int{300, 1000, 4000, 1 << 20}).Draw(rt, "max_bytes")),
		}
		orig, err := delta.NewSession(lim)
		if err != nil {
			rt.Fatal(err)
		}
		restored, _ := delta.NewSession(lim)
		r := wiretest.Response().Draw(rt, "first")
		for step := range rapid.IntRange(5, 12).Draw(rt, "steps") {
			name := rapid.SampledFrom(names).Draw(rt, "codec")
			if name == "" {
				if diff := cmp.Diff(orig.References(r), restored.References(r)); diff != "" {
					rt.Fatalf("step %d: References differ (-original +restored):\n%s", step, diff)
				}
				want := orig.Mark(r)
				if diff := cmp.Diff(want, restored.Mark(r)); diff != "" {
					rt.Fatalf("step %d: Mark differs (-original +restored):\n%s", step, diff)
				}
				refs += len(want)
			} else {
				want, _, werr := orig.Encode(g, name, r)
				got, _, gerr := restored.Encode(g, name, r)
				if (werr == nil) != (gerr == nil) {
					rt.Fatalf("step %d: Encode %s: original's error %v, restored's %v", step, name, werr, gerr)
				}
				if !bytes.Equal(want, got) {
					rt.Fatalf("step %d: Encode %s differs:\noriginal %q\nrestored %q", step, name, want, got)
				}
				refs += bytes.Count(want, []byte("sent_earlier"))
			}
			on, ob := orig.Len()
			rn, rb := restored.Len()
			if on != rn || ob != rb {
				rt.Fatalf("step %d: original remembers %d nodes (%d bytes), restored %d (%d bytes)", step, on, ob, rn, rb)
			}
			if on == lim.MaxNodes || ob > lim.MaxBytes*3/4 {
				evicting++
			}
			state := restored.AppendState(nil)
			if diff := cmp.Diff(orig.AppendState(nil), state); diff != "" {
				rt.Fatalf("step %d: states differ (-original +restored):\n%s", step, diff)
			}
			if restored, err = delta.RestoreSession(lim, state); err != nil {
				rt.Fatalf("step %d: RestoreSession of its own state: %v", step, err)
			}
			steps++
			next := wiretest.Clone(r)
			deltatest.Edit(rt, next, wiretest.Response().Draw(rt, "other"), false)
			r = next
		}
	})
	t.Logf("%d steps compared, %d with references, %d at a bound", steps, refs, evicting)
	if refs == 0 || evicting == 0 {
		t.Errorf("the property did not exercise references (%d) or eviction (%d)", refs, evicting)
	}
}

// TestSessionStateWriterOnly: a restored session refuses to resolve
// (ErrWriterOnly, ErrUnresolved) rather than put back nodes it does not
// hold; after Reset it is a session like any other.
func TestSessionStateWriterOnly(t *testing.T) {
	a, b := node("User", 1, "name", "ada"), node("User", 2, "name", "bob")
	r := &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: "search", Nodes: []wire.Node{a, b}}
	s, _ := delta.NewSession(delta.SessionLimits{})
	s.Mark(r)
	restored, err := delta.RestoreSession(delta.SessionLimits{}, s.AppendState(nil))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := restored.Len(); n != 2 {
		t.Fatalf("restored session remembers %d nodes, want 2", n)
	}
	_, err = restored.Resolve(&wire.GraphResponse{Nodes: []wire.Node{{Type: "User", ID: 1}}}, []int{0}, delta.Hash{})
	if !errors.Is(err, delta.ErrWriterOnly) || !errors.Is(err, delta.ErrUnresolved) {
		t.Fatalf("Resolve on a restored session: %v, want ErrWriterOnly and ErrUnresolved", err)
	}
	if _, err := restored.Decode(nil, "json", []byte(`{"format_version":"1.0.0","query_type":"search","nodes":[],"edges":[]}`)); !errors.Is(err, delta.ErrWriterOnly) {
		t.Fatalf("Decode on a restored session: %v, want ErrWriterOnly", err)
	}
	restored.Reset()
	got, err := restored.Resolve(r, nil, delta.Fingerprint(r))
	if err != nil {
		t.Fatalf("Resolve after Reset: %v", err)
	}
	if diff := wiretest.Diff(r, got, wire.Exact); diff != "" {
		t.Fatalf("Resolve after Reset (-want +got):\n%s", diff)
	}
}

// corpusState is the state of a session of lim that was sent every
// corpus response: many types, many nodes.
func corpusState(tb testing.TB, lim delta.SessionLimits) []byte {
	s, _ := delta.NewSession(lim)
	for _, c := range corpus.Generate() {
		s.Mark(c.Response)
	}
	if n, _ := s.Len(); n == 0 {
		tb.Fatal("the corpus left the session empty")
	}
	return s.AppendState(nil)
}

// TestSessionStateHostile: every damaged state is an error matching
// ErrSessionState, a *wire.DecodeError with its offset inside the state,
// and never a session: each prefix, each byte changed, and states built
// to claim more than they hold or more than the limits allow.
func TestSessionStateHostile(t *testing.T) {
	full := corpusState(t, delta.SessionLimits{})
	nodes, _ := mustRestore(t, delta.SessionLimits{}, full).Len()
	t.Logf("the corpus state: %d nodes in %d bytes (%.1f per node)", nodes, len(full), float64(len(full))/float64(nodes))
	if max := delta.MaxStateBytes(delta.SessionLimits{}); int64(len(full)) > max {
		t.Fatalf("state of %d bytes past MaxStateBytes %d", len(full), max)
	}
	good := corpusState(t, delta.SessionLimits{MaxNodes: 40})
	check := func(name string, lim delta.SessionLimits, state []byte, want string) {
		t.Helper()
		s, err := delta.RestoreSession(lim, state)
		var de *wire.DecodeError
		if s != nil || !errors.Is(err, delta.ErrSessionState) || !errors.As(err, &de) {
			t.Fatalf("%s: RestoreSession gave %v, %v; want an ErrSessionState *wire.DecodeError", name, s, err)
		}
		if de.Offset < 0 || de.Offset > int64(len(state)) || !strings.Contains(de.Msg, want) {
			t.Fatalf("%s: error %q at offset %d of %d, want one saying %q", name, de.Msg, de.Offset, len(state), want)
		}
	}
	for n := range len(good) {
		check("prefix", delta.SessionLimits{}, good[:n], "")
	}
	check("trailing", delta.SessionLimits{}, append(good[:len(good):len(good)], 0), "after the last node")
	check("magic", delta.SessionLimits{}, append([]byte("XWSS"), good[4:]...), "does not begin")
	check("version", delta.SessionLimits{}, append([]byte("GWSS\x02"), good[5:]...), "version is 2")
	head := func(count uint64) []byte {
		return binary.AppendUvarint([]byte("GWSS\x01"), count)
	}
	check("count past MaxNodes", delta.SessionLimits{MaxNodes: 5}, head(6), "past MaxNodes")
	check("count past the state", delta.SessionLimits{}, append(head(10_000), make([]byte, 100)...), "too short")
	check("count of 2^63", delta.SessionLimits{}, head(1<<63), "past MaxNodes")
	entry := func(b []byte, t uint64, typ string, id int64, counts ...uint64) []byte {
		b = binary.AppendUvarint(b, t)
		if typ != "" {
			b = binary.AppendUvarint(b, uint64(len(typ)))
			b = append(b, typ...)
		}
		b = binary.AppendVarint(b, id)
		b = append(b, make([]byte, 32)...)
		for _, c := range counts {
			b = binary.AppendUvarint(b, c)
		}
		return b
	}
	ok := []uint64{300, 50, 1, 0, 4}
	check("type index", delta.SessionLimits{}, entry(head(1), 3, "", 1, ok...), "type index 3")
	check("type length 2^62", delta.SessionLimits{}, append(binary.AppendUvarint(append(head(1), 0), 1<<62), make([]byte, 60)...), "ends")
	check("duplicate", delta.SessionLimits{}, entry(entry(head(2), 0, "User", 1, ok...), 0, "", 1, ok...), "remembered twice")
	check("bytes below the overhead", delta.SessionLimits{}, entry(head(1), 0, "User", 1, 100, 50, 1, 0, 4), "counts 100 bytes")
	check("bytes past MaxBytes", delta.SessionLimits{MaxBytes: 1000}, entry(head(1), 0, "User", 1, 1001, 50, 1, 0, 4), "counts 1001 bytes")
	check("sum past MaxBytes", delta.SessionLimits{MaxBytes: 1000}, entry(entry(head(2), 0, "User", 1, 600, 50, 1, 0, 4), 0, "", 2, 600, 50, 1, 0, 4), "past MaxBytes")
	check("cost past its bound", delta.SessionLimits{}, entry(head(1), 0, "User", 1, 300, 1<<62, 1, 0, 4), "is past")
	check("shape past int32", delta.SessionLimits{}, entry(head(1), 0, "User", 1, 300, 50, 1<<40, 0, 4), "is past")
	check("longest below the type", delta.SessionLimits{}, entry(head(1), 0, "User", 1, 300, 50, 1, 0, 2), "shorter than its type")
	long := append(good[:len(good):len(good)], make([]byte, delta.MaxStateBytes(delta.SessionLimits{MaxNodes: 10, MaxBytes: 4096}))...)
	check("past MaxStateBytes", delta.SessionLimits{MaxNodes: 10, MaxBytes: 4096}, long, "past the")
	if _, err := delta.RestoreSession(delta.SessionLimits{}, entry(head(1), 0, "User", 1, ok...)); err != nil {
		t.Fatalf("a well-formed one-node state: %v", err)
	}
}

// TestSessionStateAllocs: a state that names the most nodes its limits
// allow but holds none allocates no more than an empty one: no allocation
// is sized by a number read from the state.
func TestSessionStateAllocs(t *testing.T) {
	lim := delta.SessionLimits{MaxNodes: 1 << 20, MaxBytes: 1 << 30}
	empty := binary.AppendUvarint([]byte("GWSS\x01"), 0)
	claims := binary.AppendUvarint([]byte("GWSS\x01"), 1<<20)
	base := testing.AllocsPerRun(20, func() { _, _ = delta.RestoreSession(lim, empty) })
	got := testing.AllocsPerRun(20, func() { _, _ = delta.RestoreSession(lim, claims) })
	if got > base+4 {
		t.Fatalf("a state claiming 2^20 nodes allocates %.0f times, an empty one %.0f", got, base)
	}
}

func mustRestore(tb testing.TB, lim delta.SessionLimits, state []byte) *delta.Session {
	tb.Helper()
	s, err := delta.RestoreSession(lim, state)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// FuzzRestoreSession: any bytes restore to a session or to an error
// matching ErrSessionState, never a panic; a restored session is within
// its limits, and its own state restores to the same state.
func FuzzRestoreSession(f *testing.F) {
	seed, _ := delta.NewSession(delta.SessionLimits{})
	seed.Mark(&wire.GraphResponse{Nodes: []wire.Node{node("User", 1, "name", "ada"), node("User", -7), node("Project", 1<<40, "tags", []any{"a", "b"})}})
	f.Add(seed.AppendState(nil))
	f.Add([]byte("GWSS\x01\x00"))
	lim := delta.SessionLimits{MaxNodes: 200, MaxBytes: 64 << 10}
	f.Fuzz(func(t *testing.T, state []byte) {
		s, err := delta.RestoreSession(lim, state)
		if err != nil {
			if !errors.Is(err, delta.ErrSessionState) {
				t.Fatalf("error %v does not match ErrSessionState", err)
			}
			return
		}
		if n, b := s.Len(); n > lim.MaxNodes || b > lim.MaxBytes {
			t.Fatalf("restored %d nodes, %d bytes, past %+v", n, b, lim)
		}
		again := s.AppendState(nil)
		if diff := cmp.Diff(again, mustRestore(t, lim, again).AppendState(nil)); diff != "" {
			t.Fatalf("state not stable through a restore:\n%s", diff)
		}
	})
}

// BenchmarkSessionState is one request of a stored conversation on the
// largest corpus case of at most 2,000 nodes, sent before: the session
// restored from its state, the response encoded (all references), the
// state saved.
func BenchmarkSessionState(b *testing.B) {
	c := largestCase(2000)
	for _, codec := range []string{"json", "goon"} {
		b.Run(codec, func(b *testing.B) {
			w, _ := delta.NewSession(delta.SessionLimits{})
			if _, _, err := w.Encode(nil, codec, c.Response); err != nil {
				b.Fatal(err)
			}
			state := w.AppendState(nil)
			b.ReportMetric(float64(len(state)), "state-bytes")
			b.ReportAllocs()
			for b.Loop() {
				s, err := delta.RestoreSession(delta.SessionLimits{}, state)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := s.Encode(nil, codec, c.Response); err != nil {
					b.Fatal(err)
				}
				state = s.AppendState(state[:0])
			}
		})
	}
}
