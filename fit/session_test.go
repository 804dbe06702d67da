package fit_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// refRegistry holds refjson and plainjson, a codec without a session
// syntax.
func refRegistry(t testing.TB) *wire.Registry {
	t.Helper()
	reg, rc := testsupport.RefRegistry(t)
	reg.Register(plainCodec{rc.Codec})
	return reg
}

// plainCodec is canonical JSON without a session syntax: only wire.Codec.
type plainCodec struct{ wire.Codec }

func (plainCodec) Info() wire.Info {
	return wire.Info{Name: "plainjson", MediaType: "application/json", Fidelity: wire.Exact}
}

func newSession(t testing.TB) *delta.Session {
	t.Helper()
	s, err := delta.NewSession(delta.SessionLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// conversation is a writer's session with a twin fed the same responses
// (to encode a page in the session as it stood, without the writer) and
// a reader's session.
type conversation struct {
	t                    testing.TB
	reg                  *wire.Registry
	name                 string // the codec
	writer, twin, reader *delta.Session
}

func newConversation(t testing.TB, reg *wire.Registry) *conversation {
	return &conversation{t: t, reg: reg, name: "refjson", writer: newSession(t), twin: newSession(t), reader: newSession(t)}
}

// send delivers r whole in the conversation, as a response before the
// pages.
func (c *conversation) send(r *wire.GraphResponse) {
	c.t.Helper()
	b, _, err := c.writer.Encode(c.reg, c.name, r)
	if err != nil {
		c.t.Fatal(err)
	}
	c.receive(r, b)
}

// receive checks a page delivered by the writer: the twin (the writer as
// it stood before) encodes page into the same bytes, whose count is at
// most budget (when positive), and the reader resolves them into page
// exactly.
func (c *conversation) receive(page *wire.GraphResponse, enc []byte, budget ...int) (refs int) {
	c.t.Helper()
	twin, _, err := c.twin.Encode(c.reg, c.name, page)
	if err != nil {
		c.t.Fatal(err)
	}
	if string(twin) != string(enc) {
		c.t.Fatalf("the page's encoding is not the page encoded in the session:\n%.300s\n%.300s", enc, twin)
	}
	if len(budget) > 0 {
		o200k, err := tokens.Get(tokens.O200k)
		if err != nil {
			c.t.Fatal(err)
		}
		n, err := o200k.Count(twin)
		if err != nil {
			c.t.Fatal(err)
		}
		if n > budget[0] {
			c.t.Fatalf("the page encoded in the session costs %d tokens, over the budget of %d", n, budget[0])
		}
	}
	back, err := c.reader.Decode(c.reg, c.name, enc)
	if err != nil {
		c.t.Fatal(err)
	}
	codec, err := c.reg.Lookup(c.name)
	if err != nil {
		c.t.Fatal(err)
	}
	_, rs, err := delta.DecodeReferenced(codec.(delta.DocumentCodec), enc)
	if err != nil {
		c.t.Fatal(err)
	}
	// What the codec carries of the page, read without a session.
	plain, err := codec.AppendEncode(nil, page)
	if err != nil {
		c.t.Fatal(err)
	}
	want, err := codec.Decode(plain)
	if err != nil {
		c.t.Fatal(err)
	}
	if !wire.Equal(want, back, wire.Exact) {
		c.t.Fatalf("the reader resolves another page than the codec carries (-carried +resolved):\n%s", cmp.Diff(want, back))
	}
	return len(rs)
}

func nodesOf(res *fit.Result) int { return res.Stats.Nodes.Kept }

// TestPageInSession: a page within a session whose earlier responses
// delivered some of its nodes holds more nodes than without the session,
// stays within the budget encoded in the session, and resolves exactly.
func TestPageInSession(t *testing.T) {
	reg := refRegistry(t)
	for _, name := range []string{"traversal_m", "neighbors_m", "search_m", "path_finding_m", "aggregation_m"} {
		t.Run(name, func(t *testing.T) {
			r := testsupport.LoadResponse(t, filepath.Join(corpusDir, name+".json"))
			// The first half of the nodes was delivered earlier, in a
			// response of its own.
			earlier := &wire.GraphResponse{FormatVersion: r.FormatVersion, QueryType: wire.Search, Nodes: r.Nodes[:len(r.Nodes)/2]}
			whole, err := reg.EncodeWith("refjson", r)
			if err != nil {
				t.Fatal(err)
			}
			o200k, _ := tokens.Get(tokens.O200k)
			n, err := o200k.Count(whole)
			if err != nil {
				t.Fatal(err)
			}
			budget := n / 3
			plain, err := fit.Page(r, fit.Options{Codec: "refjson", Registry: reg, Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			c := newConversation(t, reg)
			c.send(earlier)
			before, _ := c.writer.Len()
			in, err := fit.Page(r, fit.Options{Codec: "refjson", Registry: reg, Budget: budget, Session: c.writer})
			if err != nil {
				t.Fatal(err)
			}
			c.receive(in.Page, in.Encoding, budget)
			if len(r.Nodes) > 1 && nodesOf(in) <= nodesOf(plain) {
				t.Errorf("%d nodes in the session's page, %d without: the references were not counted", nodesOf(in), nodesOf(plain))
			}
			if after, _ := c.writer.Len(); after <= before && nodesOf(in) > len(earlier.Nodes) {
				t.Errorf("the session remembers %d nodes after the page, %d before: the page was not remembered", after, before)
			}
			if in.Stats.PageTokens > budget {
				t.Errorf("page of %d tokens over the budget of %d", in.Stats.PageTokens, budget)
			}
			t.Logf("%s at %d tokens: %d nodes without the session, %d within it", name, budget, nodesOf(plain), nodesOf(in))
		})
	}
}

// TestPagerInSession walks every page of responses in a session that
// delivered part of them (and, for generated responses, nodes listed
// twice, which become references once their first listing's page is
// delivered): every page within the budget encoded in the session,
// resolved exactly, the pages together the whole response, and no more
// pages than without the session.
func TestPagerInSession(t *testing.T) {
	reg := refRegistry(t)
	ctx := context.Background()
	var rs []*wire.GraphResponse
	for _, name := range []string{"traversal_m", "neighbors_m"} {
		rs = append(rs, testsupport.LoadResponse(t, sized(name)))
	}
	gen := wiretest.ResponseWith(wiretest.Options{MaxNodes: 30})
	for seed := range 30 {
		r := gen.Example(seed)
		if _, err := reg.EncodeWith("refjson", r); err == nil && len(r.Nodes) > 2 {
			// A node listed twice: its second listing is a reference once
			// the first is delivered.
			r.Nodes = append(r.Nodes, r.Nodes[0])
			rs = append(rs, r)
		}
	}
	walked := 0
	for i, r := range rs {
		whole, err := reg.EncodeWith("refjson", r)
		if err != nil {
			t.Fatal(err)
		}
		o200k, _ := tokens.Get(tokens.O200k)
		n, _ := o200k.Count(whole)
		budget := max(n/4, 1500)
		c := newConversation(t, reg)
		c.send(&wire.GraphResponse{FormatVersion: r.FormatVersion, QueryType: wire.Search, Nodes: r.Nodes[len(r.Nodes)/3 : len(r.Nodes)/2]})
		p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: "refjson", Registry: reg, Session: c.writer})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: "refjson", Registry: reg, WholeStats: true})
		if err != nil {
			t.Fatal(err)
		}
		var nodes []wire.Node
		cursor, pages, refs := "", 0, 0
		for {
			res, err := p.Page(ctx, budget, cursor)
			var be *fit.BudgetError
			if errors.As(err, &be) {
				t.Logf("response %d: a unit alone exceeds %d tokens", i, budget)
				break
			}
			if err != nil {
				t.Fatalf("response %d, page %d: %v", i, pages, err)
			}
			pages++
			refs += c.receive(res.Page, res.Encoding, budget)
			nodes = append(nodes, res.Page.Nodes...)
			if !res.Stats.Truncated {
				if len(nodes) != len(r.Nodes) {
					t.Errorf("response %d: the pages hold %d nodes, the response %d", i, len(nodes), len(r.Nodes))
				}
				if refs == 0 {
					t.Errorf("response %d: no reference in %d pages", i, pages)
				}
				walked++
				first, err := plain.Page(ctx, budget, "")
				if err != nil {
					t.Fatal(err)
				}
				// Corpus nodes cost more than their references (a
				// generated node of few short properties may not).
				if i < 2 && first.Stats.Pages > 0 && pages > first.Stats.Pages {
					t.Errorf("response %d: %d pages within the session, %d without", i, pages, first.Stats.Pages)
				}
				break
			}
			cursor = res.Page.Pagination.NextCursor.V
		}
	}
	if walked < len(rs)/2 {
		t.Errorf("%d of %d responses paged whole", walked, len(rs))
	}
}

// TestPageSessionRefusals: a codec without a session syntax is refused
// with delta.ErrNoSyntax, and a page that cannot be cut leaves the
// session as it was.
func TestPageSessionRefusals(t *testing.T) {
	reg := refRegistry(t)
	r := testsupport.LoadResponse(t, filepath.Join(corpusDir, "traversal_m.json"))
	s := newSession(t)
	if _, err := fit.Page(r, fit.Options{Codec: "plainjson", Registry: reg, Budget: 1000, Session: s}); !errors.Is(err, delta.ErrNoSyntax) {
		t.Errorf("plainjson within a session: %v, want delta.ErrNoSyntax", err)
	}
	if _, err := fit.NewPager(context.Background(), r, fit.PagerOptions{Codec: "plainjson", Registry: reg, Session: s}); !errors.Is(err, delta.ErrNoSyntax) {
		t.Errorf("a Pager of plainjson within a session: %v, want delta.ErrNoSyntax", err)
	}
	if n, _ := s.Len(); n != 0 {
		t.Errorf("the session remembers %d nodes after refused pages", n)
	}
	if _, _, err := s.Encode(reg, "refjson", &wire.GraphResponse{QueryType: wire.Search, Nodes: r.Nodes[:5]}); err != nil {
		t.Fatal(err)
	}
	n, b := s.Len()
	var be *fit.BudgetError
	if _, err := fit.Page(r, fit.Options{Codec: "refjson", Registry: reg, Budget: 5, Session: s}); !errors.As(err, &be) {
		t.Fatalf("a budget of 5 tokens: %v, want a *fit.BudgetError", err)
	}
	if n2, b2 := s.Len(); n2 != n || b2 != b {
		t.Errorf("the session holds %d nodes (%d bytes) after a refused page, %d (%d) before", n2, b2, n, b)
	}
}

// TestPagerReferencesItsOwnPages: a node listed twice, first on the first
// page, is a reference on the last once the first page is delivered.
func TestPagerReferencesItsOwnPages(t *testing.T) {
	reg := refRegistry(t)
	ctx := context.Background()
	r := testsupport.LoadResponse(t, filepath.Join(corpusDir, "traversal_m.json"))
	r.Nodes = append(slices.Clone(r.Nodes), r.Nodes[0])
	c := newConversation(t, reg)
	p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: "refjson", Registry: reg, Session: c.writer})
	if err != nil {
		t.Fatal(err)
	}
	cursor, last := "", 0
	for pages := 0; ; pages++ {
		res, err := p.Page(ctx, 6000, cursor)
		if err != nil {
			t.Fatal(err)
		}
		last = c.receive(res.Page, res.Encoding, 6000)
		if pages == 0 && last != 0 {
			t.Errorf("%d references on the first page of a new conversation", last)
		}
		if !res.Stats.Truncated {
			if pages == 0 {
				t.Fatal("one page: the budget is too large for the test")
			}
			break
		}
		cursor = res.Page.Pagination.NextCursor.V
	}
	if last != 1 {
		t.Errorf("%d references on the last page, want the node listed again", last)
	}
}

// TestPageInSessionBuiltins runs TestPageInSession's checks in every
// built-in text codec that has a session syntax.
func TestPageInSessionBuiltins(t *testing.T) {
	reg := wire.DefaultRegistry()
	ran := 0
	for _, info := range reg.List() {
		codec, _ := reg.Lookup(info.Name)
		if _, ok := codec.(delta.DocumentCodec); !ok || info.Binary {
			continue
		}
		ran++
		t.Run(info.Name, func(t *testing.T) {
			for _, name := range []string{"traversal_m", "neighbors_m", "search_m"} {
				r := testsupport.LoadResponse(t, filepath.Join(corpusDir, name+".json"))
				earlier := &wire.GraphResponse{FormatVersion: r.FormatVersion, QueryType: wire.Search, Nodes: r.Nodes[:len(r.Nodes)/2]}
				whole, err := codec.AppendEncode(nil, r)
				if err != nil {
					t.Fatal(err)
				}
				o200k, _ := tokens.Get(tokens.O200k)
				n, _ := o200k.Count(whole)
				budget := n / 3
				plain, err := fit.Page(r, fit.Options{Codec: info.Name, Budget: budget})
				if err != nil {
					t.Fatal(err)
				}
				c := &conversation{t: t, reg: reg, name: info.Name, writer: newSession(t), twin: newSession(t), reader: newSession(t)}
				c.send(earlier)
				in, err := fit.Page(r, fit.Options{Codec: info.Name, Budget: budget, Session: c.writer})
				if err != nil {
					t.Fatal(err)
				}
				refs := c.receive(in.Page, in.Encoding, budget)
				if refs == 0 || nodesOf(in) <= nodesOf(plain) {
					t.Errorf("%s at %d tokens: %d nodes (%d references) within the session, %d without", name, budget, nodesOf(in), refs, nodesOf(plain))
				}
				t.Logf("%s at %d tokens: %d nodes without the session, %d within it (%d references)", name, budget, nodesOf(plain), nodesOf(in), refs)
			}
		})
	}
	if ran == 0 {
		t.Skip("no built-in codec has a session syntax yet")
	}
}
