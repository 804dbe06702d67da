package wiremcp_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wiremcp"
)

func TestToolsListDescribesTheArguments(t *testing.T) {
	srv, svc := newService(t, &graph{}, wiremcp.Options{})
	cs := connect(t, srv)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "merge_requests" {
		t.Fatalf("tools %+v", res.Tools)
	}
	tool := res.Tools[0]
	if !strings.HasPrefix(tool.Description, "The merge requests of a range of users.\n\n") || !strings.HasSuffix(tool.Description, svc.Guide()) {
		t.Errorf("description %q", tool.Description)
	}
	props := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
	var names []string
	for k := range props {
		names = append(names, k)
	}
	want := []string{"budget", "cursor", "format", "fresh", "from", "to"}
	if diff := cmp.Diff(want, slices.Sorted(slices.Values(names))); diff != "" {
		t.Errorf("arguments (-want +got):\n%s", diff)
	}
	if d := props["format"].(map[string]any)["description"].(string); !strings.Contains(d, "goon (llm)") || !strings.Contains(d, "default goon") {
		t.Errorf("format's description %q", d)
	}
}

// The guide is paid for on every tools/list: it stays a few sentences.
func TestGuideIsFewTokens(t *testing.T) {
	_, svc := newService(t, &graph{}, wiremcp.Options{})
	n := countTokens(t, svc.Guide())
	t.Logf("guide: %d o200k tokens: %s", n, svc.Guide())
	if n > 100 {
		t.Errorf("the guide costs %d o200k tokens, want at most 100", n)
	}
	for _, field := range []string{"sent_earlier", "graphwire_delta", "nodes_changed", "next_cursor", "cursor"} {
		if !strings.Contains(svc.Guide(), field) {
			t.Errorf("the guide does not name %s", field)
		}
	}
}

// Every text format answers, and the answer is the data as the format
// carries it.
func TestEveryFormat(t *testing.T) {
	g := &graph{}
	for _, format := range append(textFormats, "LLM", "raw") {
		srv, _ := newService(t, g, wiremcp.Options{})
		cs := connect(t, srv)
		a := call(t, cs, "merge_requests", map[string]any{"from": 1, "to": 3, "format": format})
		if a.IsError || a.Kind != wiremcp.AnswerFull {
			t.Fatalf("%s: %+v", format, a)
		}
		c, err := wire.Lookup(format)
		if err != nil {
			t.Fatal(err)
		}
		name := c.Info().Name
		if a.Format != name {
			t.Errorf("%s: _meta format %q", format, a.Format)
		}
		got, err := wire.DecodeWith(name, []byte(a.Text))
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if diff := cmp.Diff(carried(t, name, g.mergeRequests(1, 3)), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", format, diff)
		}
	}
}

// A conversation of ten calls in each format: overlapping queries send
// references, a repeated call an unchanged marker or a delta, a budget
// pages; every answer, read as its documents say, is the server's data
// as the format carries it, and costs less than the answer alone.
func TestConversation(t *testing.T) {
	for _, format := range textFormats {
		t.Run(format, func(t *testing.T) {
			g := &graph{}
			srv, _ := newService(t, g, wiremcp.Options{})
			cs := connect(t, srv)
			rd := newReader(t)
			steps := []struct {
				from, to int64
				edit     bool
				want     string
			}{
				{1, 10, false, wiremcp.AnswerFull},
				{5, 15, false, wiremcp.AnswerFull}, // references to users 5..10
				{1, 10, false, wiremcp.AnswerUnchanged},
				{1, 10, true, wiremcp.AnswerDelta},
				{5, 15, false, wiremcp.AnswerDelta},
				{12, 20, false, wiremcp.AnswerFull},
				{1, 10, true, wiremcp.AnswerDelta},
				{12, 20, false, wiremcp.AnswerDelta},
				{12, 20, false, wiremcp.AnswerUnchanged},
				{1, 20, false, wiremcp.AnswerFull},
			}
			var withSession, alone int
			for i, st := range steps {
				if st.edit {
					g.edit()
				}
				key := fmt.Sprint(st.from, st.to)
				a := call(t, cs, "merge_requests", map[string]any{"from": st.from, "to": st.to, "format": format})
				if a.IsError {
					t.Fatalf("call %d: %s", i, a.Text)
				}
				if a.Kind != st.want {
					t.Errorf("call %d: %s, want %s", i, a.Kind, st.want)
				}
				want := carried(t, format, g.mergeRequests(st.from, st.to))
				got := read(t, rd, key, a)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("call %d (%s) (-want +got):\n%s", i, a.Kind, diff)
				}
				whole, err := wire.EncodeWith(format, want)
				if err != nil {
					t.Fatal(err)
				}
				n, w := countTokens(t, a.Text), countTokens(t, string(whole))
				if i > 0 && n >= w {
					t.Errorf("call %d (%s): %d tokens, the answer alone %d", i, a.Kind, n, w)
				}
				withSession += n
				alone += w
			}
			t.Logf("%s: 10 calls, %d o200k tokens in the session, %d alone (%.1f%% saved)", format, withSession, alone, 100*float64(alone-withSession)/float64(alone))
		})
	}
}

// A budget pages the result: the pages, read in turn, give every node
// and edge once; fresh sends everything again.
func TestPagesAndFresh(t *testing.T) {
	g := &graph{}
	srv, _ := newService(t, g, wiremcp.Options{})
	cs := connect(t, srv)
	rd := newReader(t)
	whole := carried(t, "toon", g.mergeRequests(1, 30))
	var nodes []wire.Node
	var edges []wire.Edge
	cursor, pages := "", 0
	for {
		args := map[string]any{"from": 1, "to": 30, "format": "toon", "budget": 600}
		if cursor != "" {
			args["cursor"] = cursor
		}
		a := call(t, cs, "merge_requests", args)
		if a.IsError || a.Kind != wiremcp.AnswerPage && a.Kind != wiremcp.AnswerFull {
			t.Fatalf("page %d: %+v", pages, a)
		}
		if n := countTokens(t, a.Text); n > 600 {
			t.Fatalf("page %d: %d tokens over the budget", pages, n)
		}
		p := read(t, rd, "pages", a)
		nodes = append(nodes, p.Nodes...)
		edges = append(edges, p.Edges...)
		pages++
		if cursor = a.NextCursor; cursor == "" {
			break
		}
	}
	if pages < 3 {
		t.Errorf("%d pages, want several", pages)
	}
	if diff := cmp.Diff(whole.Nodes, nodes); diff != "" {
		t.Errorf("nodes of the pages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(whole.Edges, edges); diff != "" {
		t.Errorf("edges of the pages (-want +got):\n%s", diff)
	}
	// Everything was sent: the whole is all references, unless fresh.
	a := call(t, cs, "merge_requests", map[string]any{"from": 1, "to": 30, "format": "toon"})
	if !strings.Contains(a.Text, "sent_earlier") {
		t.Errorf("after the pages, the whole has no references:\n%.300s", a.Text)
	}
	a = call(t, cs, "merge_requests", map[string]any{"from": 1, "to": 30, "format": "toon", "fresh": true})
	if a.Kind != wiremcp.AnswerFull || strings.Contains(a.Text, "sent_earlier") {
		t.Errorf("fresh: %s with references:\n%.300s", a.Kind, a.Text)
	}
	got, err := wire.DecodeWith("toon", []byte(a.Text))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole, got); diff != "" {
		t.Errorf("fresh (-want +got):\n%s", diff)
	}
}

// Two MCP sessions are two conversations: one's references never reach
// the other.
func TestSessionsAreSeparate(t *testing.T) {
	srv, svc := newService(t, &graph{}, wiremcp.Options{})
	a, b := connect(t, srv), connect(t, srv)
	call(t, a, "merge_requests", map[string]any{"from": 1, "to": 5})
	got := call(t, b, "merge_requests", map[string]any{"from": 1, "to": 5})
	if got.Kind != wiremcp.AnswerFull || strings.Contains(got.Text, "sent_earlier") {
		t.Errorf("the second session's first answer: %s\n%.200s", got.Kind, got.Text)
	}
	if st := svc.Stats(); st.Sessions != 2 || st.Bases != 2 {
		t.Errorf("stats %+v, want 2 sessions with a base each", st)
	}
}
