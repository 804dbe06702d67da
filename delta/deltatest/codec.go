package deltatest

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// CodecSuite describes a codec for RunCodec and RunSession.
type CodecSuite struct {
	// Codec is the codec under test; it implements delta.DocumentCodec.
	Codec wire.Codec

	// Options shape the generated responses.
	Options wiretest.Options
}

// RunCodec checks a codec's delta syntax: on generated pairs and on every
// corpus case with 1%, 5% and 20% of its nodes changed, the delta written
// and read back patches the base into next exactly and writes the same
// bytes again (every codec carries every delta; a lossy one may refuse a
// generated delta it would not carry exactly, and sends the whole); every
// truncation and many one-byte alterations of a delta are an error (from DecodeDelta or from Patch), never a wrong response.
func RunCodec(t *testing.T, s CodecSuite) {
	t.Run("generated", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			p := PairGenWith(s.Options).Draw(rt, "pair")
			base, next, ok := s.normalize(p[0], p[1])
			if !ok {
				rt.Skip("the codec cannot carry the response")
			}
			if s.roundTrip(rt, "generated pair", base, next) == nil {
				rt.Skip("the lossy codec does not carry this delta exactly; it sends the whole")
			}
		})
	})
	t.Run("corpus", func(t *testing.T) {
		cases := testsupport.CorpusUnderRace(corpus.Generate())
		if testing.Short() {
			cases = cases[:min(len(cases), 12)]
		}
		carried, all := 0, 0
		ratios := map[int][]float64{}
		for _, c := range cases {
			for _, pct := range []int{1, 5, 20} {
				base, next, ok := s.normalize(c.Response, ChangeRate(c.Response, pct))
				if !ok {
					t.Fatalf("%s: the codec cannot carry the corpus case", c.ID())
				}
				all++
				b := s.roundTrip(t, c.ID(), base, next)
				if b == nil {
					continue
				}
				carried++
				if full, err := s.Codec.AppendEncode(nil, next); err == nil && len(full) > 0 {
					ratios[pct] = append(ratios[pct], float64(len(b))/float64(len(full)))
				}
			}
		}
		t.Logf("%d of %d corpus re-queries (1%%, 5%%, 20%% changed) carried as deltas", carried, all)
		for _, pct := range []int{1, 5, 20} {
			if rs := ratios[pct]; len(rs) > 0 {
				slices.Sort(rs)
				t.Logf("%2d%% changed: delta / full response in bytes, median %.1f%% (min %.1f%%, max %.1f%%) over %d cases",
					pct, 100*rs[len(rs)/2], 100*rs[0], 100*rs[len(rs)-1], len(rs))
			}
		}
		if carried != all {
			t.Fatalf("%d of %d corpus re-queries carried: every delta must be", carried, all)
		}
	})
	t.Run("damaged", func(t *testing.T) {
		for i, p := range []([2]*wire.GraphResponse){PairGen().Example(3), PairGen().Example(11), PairGen().Example(17)} {
			base, next, ok := s.normalize(p[0], p[1])
			if !ok {
				continue
			}
			if b := s.roundTrip(t, "example", base, next); b != nil {
				s.damaged(t, i, base, next, b)
			}
		}
		for _, c := range corpus.Generate() {
			base, next, ok := s.normalize(c.Response, ChangeRate(c.Response, 20))
			if !ok {
				t.Fatalf("%s: the codec cannot carry the corpus case", c.ID())
			}
			if b := s.roundTrip(t, "corpus", base, next); b != nil {
				s.damaged(t, 99, base, next, b)
				return
			}
		}
		t.Fatal("no corpus re-query carried")
	})
}

// normalize gives base and next as the codec's reader holds them
// (delta.Held); false: the codec cannot carry one of them.
func (s *CodecSuite) normalize(base, next *wire.GraphResponse) (*wire.GraphResponse, *wire.GraphResponse, bool) {
	b, err := delta.Held(s.Codec, base)
	if err != nil {
		return nil, nil, false
	}
	n, err := delta.Held(s.Codec, next)
	return b, n, err == nil
}

// roundTrip writes Diff(base, next), reads it back, patches base with it
// and returns the bytes written: nil when a lossy codec refuses a
// generated delta it would not carry exactly (it then sends the whole
// response); every other delta must be carried.
func (s *CodecSuite) roundTrip(t rapid.TB, name string, base, next *wire.GraphResponse) []byte {
	t.Helper()
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatalf("%s: Diff: %v", name, err)
	}
	b, err := delta.AppendDelta(s.Codec, nil, d)
	var ee *wire.EncodeError
	if s.Codec.Info().Fidelity == wire.Lossy && name == "generated pair" && errors.As(err, &ee) {
		// GOON numbers a path's steps by their order: an edge added to a
		// path alone reads back as its first step.
		return nil
	}
	if err != nil {
		t.Fatalf("%s: AppendDelta: %v", name, err)
	}
	d2, err := delta.DecodeDelta(s.Codec, b)
	if err != nil {
		t.Fatalf("%s: DecodeDelta: %v\n%s", name, err, wiretest.Quote(b))
	}
	got, err := delta.Patch(base, d2)
	if err != nil {
		t.Fatalf("%s: Patch with the decoded delta: %v\n%s", name, err, wiretest.Quote(b))
	}
	if !wire.Equal(next, got, wire.Exact) {
		t.Fatalf("%s: patched (-want +got):\n%s", name, wiretest.Diff(next, got, wire.Exact))
	}
	again, err := delta.AppendDelta(s.Codec, nil, d2)
	if err != nil {
		t.Fatalf("%s: AppendDelta of the decoded delta: %v", name, err)
	}
	if !bytes.Equal(b, again) {
		t.Fatalf("%s: the decoded delta writes other bytes:\n%s\nthen\n%s", name, wiretest.Quote(b), wiretest.Quote(again))
	}
	return b
}

// damaged checks that every truncation of b, and b with one byte
// altered at many places, is an error or patches base into next exactly
// (an alteration the syntax ignores), never into anything else.
func (s *CodecSuite) damaged(t *testing.T, id int, base, next *wire.GraphResponse, b []byte) {
	t.Helper()
	check := func(what string, bad []byte) {
		d, err := delta.DecodeDelta(s.Codec, bad)
		if err != nil {
			return
		}
		got, err := delta.Patch(base, d)
		if err != nil {
			return
		}
		if !wire.Equal(next, got, wire.Exact) {
			t.Fatalf("pair %d, %s: a damaged delta patched into another response (-want +got):\n%s",
				id, what, wiretest.Diff(next, got, wire.Exact))
		}
	}
	step := max(1, len(b)/400)
	for i := 0; i < len(b); i += step {
		check("truncated", b[:i])
		for _, c := range []byte{'0', '9', 'x', ' ', '\n', '"', ':', 0xff} {
			if b[i] == c {
				continue
			}
			bad := bytes.Clone(b)
			bad[i] = c
			check("altered", bad)
		}
	}
}

// Document returns Diff(base, next) and its document in c (AppendDelta),
// failing t on an error.
func Document(t testing.TB, c wire.Codec, base, next *wire.GraphResponse) (*delta.Delta, []byte) {
	t.Helper()
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	b, err := delta.AppendDelta(c, nil, d)
	if err != nil {
		t.Fatal(err)
	}
	return d, b
}

// SessionSuite is the CodecSuite of RunSession.
type SessionSuite = CodecSuite

// RunSession checks a codec's session syntax: with no reference it writes
// the plain response's bytes; over generated conversations and corpus
// conversations, a writer's and a reader's Session, with limits drawn
// down to a few nodes or bytes, stay in step, every response resolved
// equals what the reader would hold of it written whole, with as many
// references read as written; a reader that missed the conversation gets
// delta.ErrUnresolved; and a text repeating one reference to a large
// node past the decode limits is a *wire.DecodeError matching
// wire.ErrLimit, the reader's session unchanged.
func RunSession(t *testing.T, s SessionSuite) {
	if _, ok := s.Codec.(delta.DocumentCodec); !ok {
		t.Fatalf("codec %s does not implement delta.DocumentCodec", s.Codec.Info().Name)
	}
	t.Run("plain", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			r := wiretest.ResponseWith(s.Options).Draw(rt, "response")
			want, err := s.Codec.AppendEncode(nil, r)
			if err != nil {
				rt.Skip("the codec cannot carry the response")
			}
			got, err := delta.AppendReferenced(s.sc(), nil, r, nil)
			if err != nil {
				rt.Fatalf("AppendReferenced without references: %v", err)
			}
			if !bytes.Equal(want, got) {
				rt.Fatalf("without references the bytes differ from the plain encoding:\n%s\nthen\n%s", wiretest.Quote(want), wiretest.Quote(got))
			}
		})
	})
	t.Run("generated", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			lim := delta.SessionLimits{
				MaxNodes: rapid.SampledFrom([]int{0, 1, 3, 8}).Draw(rt, "max_nodes"),
				MaxBytes: rapid.SampledFrom([]int64{0, 400, 2000}).Draw(rt, "max_bytes"),
			}
			c := newConversation(rt, s, lim)
			var earlier []*wire.GraphResponse
			for i, n := 0, rapid.IntRange(2, 6).Draw(rt, "queries"); i < n; i++ {
				r := s.nextQuery(rt, earlier)
				earlier = append(earlier, r)
				c.send(rt, "generated query", r)
			}
		})
	})
	t.Run("corpus", func(t *testing.T) {
		cases := testsupport.CorpusUnderRace(corpus.Generate())
		byProfile := map[string][]corpus.Case{}
		for _, c := range cases {
			byProfile[c.Profile] = append(byProfile[c.Profile], c)
		}
		for _, lim := range []delta.SessionLimits{{}, {MaxNodes: 50}, {MaxBytes: 64 << 10}} {
			var full, referenced, refs int
			for _, profile := range slices.Sorted(maps.Keys(byProfile)) {
				pcs := byProfile[profile]
				if testing.Short() {
					pcs = pcs[:min(len(pcs), 6)]
				}
				c := newConversation(t, s, lim)
				for _, pc := range pcs {
					for _, r := range []*wire.GraphResponse{pc.Response, ChangeRate(pc.Response, 5), pc.Response} {
						b, n := c.send(t, pc.ID(), r)
						if b == nil {
							continue
						}
						plain, _ := s.Codec.AppendEncode(nil, r)
						full += len(plain)
						referenced += len(b)
						refs += n
					}
				}
			}
			t.Logf("limits %+v: %d references; %d bytes with references, %d written whole (%.1f%%)",
				lim, refs, referenced, full, 100*float64(referenced)/float64(max(full, 1)))
			if refs == 0 || referenced >= full {
				t.Errorf("limits %+v: corpus conversations wrote %d references, %d bytes against %d whole", lim, refs, referenced, full)
			}
		}
	})
	t.Run("repeated", func(t *testing.T) {
		// Forty references to one remembered node of 1 MiB resolve to
		// 40 MiB: past what a reader accepts from a short text and the
		// node (MaxExpansion), whatever the syntax. The node is 16,384
		// short properties, which every codec carries as they are (GOON
		// would cut one long string to 1,000 code points).
		node := wire.Node{Type: "File", ID: 7, Properties: make([]wire.Property, 1<<14)}
		for i := range node.Properties {
			node.Properties[i] = wire.Prop(fmt.Sprintf("p%05d", i), wire.String(strings.Repeat("x", 56)))
		}
		c := newConversation(t, s, delta.SessionLimits{})
		if b, _ := c.send(t, "a node of 1 MiB", &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: []wire.Node{node}}); b == nil {
			t.Skip("the codec cannot carry a node of 1 MiB")
		}
		text, err := RepeatedReferences(s.sc(), node, 40)
		if err != nil {
			t.Fatal(err)
		}
		nodes, bytes := c.rs.Len()
		_, err = c.rs.Decode(c.g, s.Codec.Info().Name, text)
		var de *wire.DecodeError
		if !errors.As(err, &de) || !errors.Is(err, wire.ErrLimit) {
			t.Fatalf("forty references to a node of 1 MiB: error %T %v, want a *wire.DecodeError matching wire.ErrLimit", err, err)
		}
		if n, b := c.rs.Len(); n != nodes || b != bytes {
			t.Fatalf("after a refusal the reader remembers %d nodes, %d bytes; want %d, %d", n, b, nodes, bytes)
		}
	})
	t.Run("unresolved", func(t *testing.T) {
		c := corpus.Generate()[0]
		for _, cc := range corpus.Generate() {
			if len(cc.Response.Nodes) > 0 {
				c = cc
				break
			}
		}
		ws, err := delta.NewSession(delta.SessionLimits{})
		if err != nil {
			t.Fatal(err)
		}
		ws.Mark(c.Response)
		refs := ws.Mark(c.Response)
		if len(refs) == 0 {
			t.Fatalf("%s: a response sent twice has no reference", c.ID())
		}
		b, err := delta.AppendReferenced(s.sc(), nil, c.Response, refs)
		if err != nil {
			t.Fatal(err)
		}
		r, got, err := delta.DecodeReferenced(s.sc(), b)
		if err != nil {
			t.Fatalf("DecodeReferenced: %v\n%s", err, wiretest.Quote(b))
		}
		rs, _ := delta.NewSession(delta.SessionLimits{})
		if _, err := rs.Resolve(r, got, delta.Hash{}); !errors.Is(err, delta.ErrUnresolved) {
			t.Fatalf("a reader that missed the conversation: %v, want ErrUnresolved", err)
		}
	})
}

// RepeatedReferences is c's text of a response listing n the given
// number of times, every listing a reference: the text a hostile writer
// sends to make a reader that remembers n build it that many times. A
// writer that refuses the response (it measures the nodes it will not
// write) is given the listings without their properties, which writes the
// same references.
func RepeatedReferences(c delta.DocumentCodec, n wire.Node, times int) ([]byte, error) {
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Traversal, Nodes: make([]wire.Node, times)}
	refs := make([]int, times)
	for i := range refs {
		r.Nodes[i], refs[i] = n, i
	}
	b, err := delta.AppendReferenced(c, nil, r, refs)
	if err != nil {
		for i := range r.Nodes {
			r.Nodes[i].Properties = nil
		}
		b, err = delta.AppendReferenced(c, nil, r, refs)
	}
	return b, err
}

func (s *CodecSuite) sc() delta.DocumentCodec { return s.Codec.(delta.DocumentCodec) }

// conversation is a writer's and a reader's Session with the same limits,
// and a registry holding only the codec, for Session.Encode.
type conversation struct {
	s      *SessionSuite
	ws, rs *delta.Session
	g      *wire.Registry
}

func newConversation(t rapid.TB, s SessionSuite, lim delta.SessionLimits) *conversation {
	ws, err := delta.NewSession(lim)
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := delta.NewSession(lim)
	g := &wire.Registry{}
	g.Register(s.Codec)
	return &conversation{s: &s, ws: ws, rs: rs, g: g}
}

// send writes r in the writer's session and reads it in the reader's,
// checking the result; it returns the bytes and the number of references
// (nil when the codec cannot carry r).
func (c *conversation) send(t rapid.TB, name string, r *wire.GraphResponse) ([]byte, int) {
	t.Helper()
	want, err := delta.Held(c.s.Codec, r) // what Session.Encode writes and marks
	if err != nil {
		return nil, 0
	}
	refs := c.ws.References(want)
	b, held, err := c.ws.Encode(c.g, c.s.Codec.Info().Name, r)
	if err != nil {
		t.Fatalf("%s: Session.Encode: %v", name, err)
	}
	if !wire.Equal(want, held, wire.Exact) {
		t.Fatalf("%s: Session.Encode's held response is not what the reader holds (-want +got):\n%s", name, wiretest.Diff(want, held, wire.Exact))
	}
	got, grefs, err := delta.DecodeReferenced(c.s.sc(), b)
	if err != nil {
		t.Fatalf("%s: DecodeReferenced: %v\n%s", name, err, wiretest.Quote(b))
	}
	if len(grefs) != len(refs) {
		t.Fatalf("%s: %d references written, %d read:\n%s", name, len(refs), len(grefs), wiretest.Quote(b))
	}
	for _, i := range grefs {
		if got.Nodes[i].Properties != nil {
			t.Fatalf("%s: the reference at nodes[%d] was read with properties", name, i)
		}
	}
	out, err := c.rs.Resolve(got, grefs, delta.Hash{})
	if err != nil {
		t.Fatalf("%s: Resolve: %v\n%s", name, err, wiretest.Quote(b))
	}
	if !wire.Equal(want, out, wire.Exact) {
		t.Fatalf("%s: resolved (-want +got):\n%s", name, wiretest.Diff(want, out, wire.Exact))
	}
	return b, len(refs)
}

// nextQuery draws the next response of a conversation: an earlier one
// again, an earlier one edited, or a fresh one holding some earlier nodes.
func (s *CodecSuite) nextQuery(t *rapid.T, earlier []*wire.GraphResponse) *wire.GraphResponse {
	fresh := wiretest.ResponseWith(s.Options).Draw(t, "fresh")
	if len(earlier) == 0 {
		return fresh
	}
	prev := earlier[rapid.IntRange(0, len(earlier)-1).Draw(t, "earlier")]
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 0:
		return wiretest.Clone(prev)
	case 1:
		next := wiretest.Clone(prev)
		Edit(t, next, fresh, s.Options.NonFinite)
		return next
	default:
		for _, n := range prev.Nodes {
			if rapid.Bool().Draw(t, "keep") {
				at := rapid.IntRange(0, len(fresh.Nodes)).Draw(t, "at")
				fresh.Nodes = slices.Insert(fresh.Nodes, at, wiretest.Clone(&wire.GraphResponse{Nodes: []wire.Node{n}}).Nodes[0])
			}
		}
		return fresh
	}
}
