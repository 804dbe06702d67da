package scorecard

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

// refRegistry holds refjson, a codec with a session syntax and the json
// codec's delta syntax.
func refRegistry(t *testing.T) *wire.Registry {
	t.Helper()
	reg, _ := testsupport.RefRegistry(t)
	return reg
}

// testSessions are a few sessions of each profile.
func testSessions() []corpus.Session {
	var out []corpus.Session
	for i, s := range sessions() {
		if i%corpus.SessionCount < 3 {
			out = append(out, s)
		}
	}
	return out
}

// TestSessionPricing checks the figures of sessions against counts made
// here: the whole is the sum of every response's count; with references
// and in a session the reader can follow, a session costs less; a delta
// is sent only under 60% of the full re-query, and a re-query answered by
// deltas costs no more than whole.
func TestSessionPricing(t *testing.T) {
	reg := refRegistry(t)
	for _, s := range testSessions() {
		var texts []Text
		res, err := priceSession(reg, s, "refjson", func(label, format string, text []byte) {
			texts = append(texts, Text{Case: label, Format: format, Data: text})
		})
		if err != nil {
			t.Fatal(err)
		}
		whole := 0
		ws, rs := newWriter(), newWriter()
		for _, q := range s.Queries {
			b, n := refjson(t, reg, q.Response)
			whole += n
			// The reader resolves every response exactly.
			rb, _, err := ws.Encode(reg, "refjson", q.Response)
			if err != nil {
				t.Fatal(err)
			}
			back, err := rs.Decode(reg, "refjson", rb)
			if err != nil {
				t.Fatalf("%s: %s: %v", s.ID(), q.Label, err)
			}
			if !wire.Equal(back, q.Response, wire.Exact) {
				t.Fatalf("%s: %s: the reader's session does not give the response back", s.ID(), q.Label)
			}
			if !slices.ContainsFunc(texts, func(x Text) bool { return string(x.Data) == string(b) }) {
				t.Fatalf("%s: %s: the whole response is not among the recorded texts", s.ID(), q.Label)
			}
		}
		if res.Whole != whole {
			t.Errorf("%s: whole %d, counted %d", s.ID(), res.Whole, whole)
		}
		if res.Referenced == Unavailable || res.Referenced >= res.Whole {
			t.Errorf("%s: with references %d, whole %d: no saving from entities the session shares", s.ID(), res.Referenced, res.Whole)
		}
		for ri, q := range res.Requeries {
			if q.Delta == Unavailable || q.Delta > q.Whole {
				t.Errorf("%s at %d%%: re-queries with deltas %d, whole %d", s.ID(), corpus.RequeryRates[ri], q.Delta, q.Whole)
			}
			if q.Referenced == Unavailable || q.Referenced >= q.Whole {
				t.Errorf("%s at %d%%: re-queries with references %d, whole %d", s.ID(), corpus.RequeryRates[ri], q.Referenced, q.Whole)
			}
		}
	}
}

// TestSessionDeltas checks the delta figures in the built-in codecs,
// which all have a delta syntax: every re-query is answered for no more
// than its whole cost, and in JSON, whose syntax carries every delta,
// most re-queries get one where at most 20% of the nodes changed (at 50%
// a delta rightly costs more than 60% of the whole as often as not).
func TestSessionDeltas(t *testing.T) {
	for _, s := range testSessions()[:2] {
		for _, f := range SessionFormats {
			res, err := priceSession(nil, s, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			for ri, q := range res.Requeries {
				if q.Delta == Unavailable || q.Delta > q.Whole || q.Deltas > q.Queries || q.Queries != len(s.Queries) {
					t.Errorf("%s in %s at %d%%: %+v", s.ID(), f, corpus.RequeryRates[ri], q)
				}
				if f == "json" && corpus.RequeryRates[ri] <= 20 && 2*q.Deltas < q.Queries {
					t.Errorf("%s in json at %d%%: %d of %d re-queries answered by a delta", s.ID(), corpus.RequeryRates[ri], q.Deltas, q.Queries)
				}
			}
			_, ok := wireCodec(t, f).(delta.DocumentCodec)
			if got := res.Referenced != Unavailable; got != ok {
				t.Errorf("%s in %s: references priced %v, codec has a session syntax %v", s.ID(), f, got, ok)
			}
		}
	}
}

func wireCodec(t *testing.T, name string) wire.Codec {
	t.Helper()
	c, err := wire.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestADRSessionPricing checks the ADR session's totals against the steps
// priced one by one.
func TestADRSessionPricing(t *testing.T) {
	reg := refRegistry(t)
	for _, c := range corpus.Generate() {
		if c.Name != corpus.ADRCase || c.Profile != corpus.Lean {
			continue
		}
		row, err := priceADRSession(reg, c, "refjson", nil)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := corpus.ADRSession(c.Response)
		if err != nil {
			t.Fatal(err)
		}
		whole := 0
		for _, st := range steps {
			_, n := refjson(t, reg, st.Response)
			whole += n
		}
		want := ADRSessionRow{Profile: c.Profile, Format: "refjson", Whole: whole, Referenced: row.Referenced, WithDeltas: row.WithDeltas}
		if diff := cmp.Diff(want, row); diff != "" {
			t.Errorf("ADR session (-want +got):\n%s", diff)
		}
		if row.WithDeltas <= 0 || row.WithDeltas >= whole {
			t.Errorf("ADR session with deltas: %d of %d whole", row.WithDeltas, whole)
		}
		if row.Referenced <= 0 || row.Referenced >= whole {
			t.Errorf("ADR session with references: %d of %d whole; its queries repeat most nodes", row.Referenced, whole)
		}
		for _, f := range ADRSessionFormats {
			r, err := priceADRSession(nil, c, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.WithDeltas == Unavailable || r.WithDeltas >= r.Whole {
				t.Errorf("ADR session in %s: with deltas %d, whole %d", f, r.WithDeltas, r.Whole)
			}
		}
	}
}

// TestSessionSectionSaysUnavailable renders the section for a card whose
// codec has neither syntax: it says so instead of a number.
func TestSessionSectionSaysUnavailable(t *testing.T) {
	card := &Card{}
	for _, s := range testSessions() {
		row := SessionRow{Profile: s.Profile, Name: s.Name, Queries: len(s.Queries)}
		for range SessionFormats {
			rq := make([]Requery, len(corpus.RequeryRates))
			for i := range rq {
				rq[i] = Requery{Whole: 1000, Delta: Unavailable, Referenced: Unavailable, Queries: len(s.Queries)}
			}
			row.Results = append(row.Results, SessionResult{Whole: 1000, Referenced: Unavailable, Requeries: rq})
		}
		card.Sessions = append(card.Sessions, row)
	}
	card.ADRSessions = []ADRSessionRow{{Profile: corpus.Lean, Format: "goon", Whole: 500, Referenced: Unavailable, WithDeltas: 200}}
	w := &writer{}
	card.sessionSection(w, nil)
	if w.err != nil {
		t.Fatal(w.err)
	}
	md := w.b.String()
	for _, want := range []string{noSessionSyntax, noDeltaSyntax, "| lean    | goon   |   500 |", "200 (60.0%)", "81.2%", "50,000–80,000"} {
		if !strings.Contains(md, want) {
			t.Errorf("the section lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "NaN") {
		t.Errorf("the section prints NaN:\n%s", md)
	}
}

// refjson returns r encoded in reg's refjson and its o200k count.
func refjson(t *testing.T, reg *wire.Registry, r *wire.GraphResponse) ([]byte, int) {
	t.Helper()
	b, err := reg.EncodeWith("refjson", r)
	if err != nil {
		t.Fatal(err)
	}
	n, err := countO200k(b)
	if err != nil {
		t.Fatal(err)
	}
	return b, n
}
