package wiremcp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wiremcp"
)

// A conversation idle past IdleTimeout is forgotten: its next answers are
// whole, never a reference or a delta against what it was sent before.
func TestIdleConversationIsForgotten(t *testing.T) {
	clock := testsupport.NewClock(time.Unix(1e9, 0))
	srv, svc := newService(t, &graph{}, wiremcp.Options{Now: clock.Now, Sessions: wiremcp.SessionLimits{IdleTimeout: time.Minute}})
	a, b := connect(t, srv), connect(t, srv)
	call(t, a, "merge_requests", map[string]any{"from": 1, "to": 5})
	clock.Advance(50 * time.Second)
	call(t, b, "merge_requests", map[string]any{"from": 1, "to": 5})
	if got := call(t, a, "merge_requests", map[string]any{"from": 1, "to": 5}); got.Kind != wiremcp.AnswerUnchanged {
		t.Fatalf("within the timeout: %s", got.Kind)
	}
	clock.Advance(61 * time.Second)
	got := call(t, a, "merge_requests", map[string]any{"from": 1, "to": 5})
	if got.Kind != wiremcp.AnswerFull || strings.Contains(got.Text, "sent_earlier") {
		t.Errorf("after the timeout: %s\n%.200s", got.Kind, got.Text)
	}
	// b, idle as long, was forgotten by a's call: only a's new one is left.
	if st := svc.Stats(); st.Sessions != 1 || st.Bases != 1 {
		t.Errorf("stats %+v, want one conversation", st)
	}
}

// A conversation keeps at most MaxBases earlier answers, the most
// recently used: the others' repeats are answered whole.
func TestBasesBounded(t *testing.T) {
	srv, svc := newService(t, &graph{}, wiremcp.Options{Sessions: wiremcp.SessionLimits{MaxBases: 3}})
	cs := connect(t, srv)
	for from := range 6 {
		call(t, cs, "merge_requests", map[string]any{"from": from, "to": from})
	}
	if st := svc.Stats(); st.Bases != 3 {
		t.Errorf("%d answers kept, want 3", st.Bases)
	}
	if got := call(t, cs, "merge_requests", map[string]any{"from": 5, "to": 5}); got.Kind != wiremcp.AnswerUnchanged {
		t.Errorf("a kept call's repeat: %s", got.Kind)
	}
	if got := call(t, cs, "merge_requests", map[string]any{"from": 0, "to": 0}); got.Kind != wiremcp.AnswerFull {
		t.Errorf("a forgotten call's repeat: %s", got.Kind)
	}
	// A result larger than MaxBaseBytes alone is not kept.
	srv, svc = newService(t, &graph{}, wiremcp.Options{Sessions: wiremcp.SessionLimits{MaxBaseBytes: 4 << 10}})
	cs = connect(t, srv)
	call(t, cs, "merge_requests", map[string]any{"from": 1, "to": 40})
	if st := svc.Stats(); st.Bases != 0 || st.BaseBytes != 0 {
		t.Errorf("stats %+v: a result past MaxBaseBytes was kept", st)
	}
	if got := call(t, cs, "merge_requests", map[string]any{"from": 1, "to": 40}); got.Kind != wiremcp.AnswerFull {
		t.Errorf("its repeat: %s", got.Kind)
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	for _, opts := range []wiremcp.Options{
		{Format: "cbor"}, {Format: "nope"}, {Threshold: 1.5}, {Sessions: wiremcp.SessionLimits{MaxSessions: -1}},
	} {
		if _, err := newServiceOrErr(opts); err == nil {
			t.Errorf("%+v accepted", opts)
		}
	}
}
