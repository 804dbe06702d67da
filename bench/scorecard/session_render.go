package scorecard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/delta"
)

// The claims the session section stands beside.
const (
	// knowing's benchmark: 81.2% fewer tokens at 96.6% overlap.
	knowingSaving  = 81.2
	knowingOverlap = 96.6
)

// adrSessionTokens is ADR 012's estimate of one session's tokens.
var adrSessionTokens = [2]int{50_000, 80_000}

const (
	noSessionSyntax = "no session syntax"
	noDeltaSyntax   = "no delta syntax"
)

// sessionMedian is the median over the sessions of profile p of f(result
// of codec fi), skipping nothing; ok is false when a result is
// Unavailable.
func (c *Card) sessionMedian(p string, fi int, f func(SessionResult) (float64, bool)) (float64, bool) {
	var xs []float64
	for _, s := range c.Sessions {
		if s.Profile != p {
			continue
		}
		x, ok := f(s.Results[fi])
		if !ok {
			return 0, false
		}
		xs = append(xs, x)
	}
	return median(xs), len(xs) > 0
}

// cell formats a median: the text of x, or the reason when unavailable.
func cell(x float64, ok bool, format func(float64) string, why string) string {
	if !ok {
		return why
	}
	return format(x)
}

func tokensCell(x float64) string { return num(int(x + 0.5)) }

// savedCell is "n (s%)": a count and its saving against whole.
func savedCell(whole, n int, why string) string {
	if n == Unavailable {
		return why
	}
	return num(n) + " (" + pct(saving(whole, n)) + ")"
}

func (c *Card) sessionSection(w *writer, _ []Chart) {
	if len(c.Sessions) == 0 && len(c.ADRSessions) == 0 {
		return
	}
	var rates []string
	for _, r := range corpus.RequeryRates {
		rates = append(rates, strconv.Itoa(r)+"%")
	}
	w.p("\n## Sessions: what an agent pays for a conversation\n\n")
	w.p("ADR 012 puts an agent's session at 5–10 graph queries and %s–%s tokens, most of it structure and entities the agent has already read. knowing answers that with session references and deltas: %.1f%% fewer tokens at %.1f%% overlap in its benchmark. Measured here on %d simulated sessions per profile (`corpus.Sessions`: 5–10 queries of mixed types — traversals, searches, neighbours, paths, aggregations — over one universe of entities per session, from the corpus's seed), priced in o200k tokens in each text codec:\n\n",
		num(adrSessionTokens[0]), num(adrSessionTokens[1]), knowingSaving, knowingOverlap, corpus.SessionCount)
	w.p("- **whole**: every response encoded alone, as each query costs without a session;\n")
	w.p("- **references**: the session's responses encoded in one `delta.Session` (`Session.Encode`, a document of the codec): a node delivered earlier in the session and unchanged since is left out of the content and named in the header's `sent_earlier` by its type and id;\n")
	w.p("- **deltas**: every query of the session asked again after %s of its nodes changed (%s overlap), answered with `delta.Diff` as a document of the codec (`delta.EncodeWith`) when `delta.Worth` says it costs under %.0f%% of the full response, and in full otherwise; beside it, the same re-queries encoded in the session that delivered the first answers (references).\n\n",
		strings.Join(rates, ", "), overlaps(), 100*0.60)
	w.p("Medians over each profile's sessions of each session's totals; a saving is against the same responses whole. A codec that writes no documents (`delta.DocumentCodec`) says so instead of a number. Every text counted here is counted against gpt-tokenizer by the test suite.\n")
	c.sessionTable(w)
	c.requeryTable(w, rates)
	c.adrSessionTable(w)
}

// overlaps names the overlap of each re-query rate: "99%, 95% and 80%".
func overlaps() string {
	var out []string
	for _, r := range corpus.RequeryRates {
		out = append(out, strconv.Itoa(100-r)+"%")
	}
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

func (c *Card) sessionTable(w *writer) {
	if len(c.Sessions) == 0 {
		return
	}
	w.p("\n### Sessions: whole and with references\n\n")
	var rows [][]string
	for _, p := range c.sessionProfiles() {
		for fi, f := range SessionFormats {
			whole, _ := c.sessionMedian(p, fi, func(r SessionResult) (float64, bool) { return float64(r.Whole), true })
			ref, refOK := c.sessionMedian(p, fi, func(r SessionResult) (float64, bool) {
				return float64(r.Referenced), r.Referenced != Unavailable
			})
			saved, _ := c.sessionMedian(p, fi, func(r SessionResult) (float64, bool) {
				return saving(r.Whole, r.Referenced), r.Referenced != Unavailable
			})
			lo, hi, in := c.sessionRange(p, fi)
			rows = append(rows, []string{
				profileLabel(p), f, tokensCell(whole), num(lo) + "–" + num(hi), in,
				cell(ref, refOK, tokensCell, noSessionSyntax), cell(saved, refOK, pct, noSessionSyntax),
			})
		}
	}
	w.table([]string{"profile", "format", "whole (median)", "whole (min–max)", "within ADR 012's 50–80K", "with references (median)", "saved by references"}, rows, 2)
}

// sessionRange returns the least and greatest whole tokens of profile p's
// sessions in codec fi, and how many fall within ADR 012's range.
func (c *Card) sessionRange(p string, fi int) (lo, hi int, within string) {
	n, in := 0, 0
	for _, s := range c.Sessions {
		if s.Profile != p {
			continue
		}
		x := s.Results[fi].Whole
		if n == 0 || x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
		n++
		if x >= adrSessionTokens[0] && x <= adrSessionTokens[1] {
			in++
		}
	}
	return lo, hi, fmt.Sprintf("%d of %d", in, n)
}

func (c *Card) sessionProfiles() []string {
	var out []string
	for _, s := range c.Sessions {
		if len(out) == 0 || out[len(out)-1] != s.Profile {
			out = append(out, s.Profile)
		}
	}
	return out
}

func (c *Card) requeryTable(w *writer, rates []string) {
	if len(c.Sessions) == 0 {
		return
	}
	w.p("\n### Re-queries: deltas and references\n\n")
	w.p("Every query is asked again after %s of its nodes (of its rows, for an aggregation) were picked and churned: of the picks, one in four removed with its edges, one in four edited and joined by a new node of its type with copies of its edges, the rest edited (a state moved on, a text edited, timestamps bumped; `corpus.Sessions`). Tokens saved against the re-queries' responses whole, median over the sessions. The figures assume what a delta needs: the earlier response is still in the agent's context (a delta is read against it) and the client holds it as the codec carried it; a reference, that the node's earlier delivery is in context. knowing's %.1f%% at %.1f%% overlap lies between the 1%% and 5%% columns (99%% and 95%% overlap). A session remembers one content per node identity, the last delivered: a traversal (the few properties it selects) and a search or neighbours query (every property) returning one entity replace each other in it, so a re-query finds as references only the nodes whose last delivery had its property set, and references save far less on re-queries than deltas do.\n\n",
		strings.Join(rates, ", "), knowingSaving, knowingOverlap)
	head := []string{"profile", "format"}
	for _, r := range rates {
		head = append(head, "deltas, "+r+" changed")
	}
	for _, r := range rates {
		head = append(head, "references, "+r+" changed")
	}
	var rows [][]string
	for _, p := range c.sessionProfiles() {
		for fi, f := range SessionFormats {
			row := []string{profileLabel(p), f}
			for ri := range rates {
				x, ok := c.sessionMedian(p, fi, func(r SessionResult) (float64, bool) {
					q := r.Requeries[ri]
					return saving(q.Whole, q.Delta), q.Delta != Unavailable
				})
				row = append(row, cell(x, ok, pct, noDeltaSyntax))
			}
			for ri := range rates {
				x, ok := c.sessionMedian(p, fi, func(r SessionResult) (float64, bool) {
					q := r.Requeries[ri]
					return saving(q.Whole, q.Referenced), q.Referenced != Unavailable
				})
				row = append(row, cell(x, ok, pct, noSessionSyntax))
			}
			rows = append(rows, row)
		}
	}
	w.table(head, rows, 2)
	c.answerTable(w, rates)
	c.sizeTable(w, rates)
}

// answerTable gives, per profile, codec and rate, the share of re-queries
// sent as a delta, and of those sent whole the share whose delta the
// codec's syntax refused.
func (c *Card) answerTable(w *writer, rates []string) {
	w.p("\n### Re-queries: sent as a delta or whole\n\n")
	w.p("Of all re-queries of a profile, the share the %.0f%% rule answered with a delta; the rest went whole, either because the delta cost more than %.0f%% of the full response or because the codec's delta syntax refused to write it (*refused*, also sent whole).\n\n", 100*delta.DefaultThreshold, 100*delta.DefaultThreshold)
	head := []string{"profile", "format"}
	for _, r := range rates {
		head = append(head, "as delta, "+r, "refused, "+r)
	}
	var rows [][]string
	for _, p := range c.sessionProfiles() {
		for fi, f := range SessionFormats {
			row := []string{profileLabel(p), f}
			for ri := range rates {
				sent, refused, all, ok := 0, 0, 0, true
				for _, s := range c.Sessions {
					if s.Profile == p {
						q := s.Results[fi].Requeries[ri]
						sent += q.Deltas
						refused += q.Refused
						all += q.Queries
						ok = ok && q.Delta != Unavailable
					}
				}
				row = append(row, cell(share(sent, all), ok, pct, noDeltaSyntax), cell(share(refused, all), ok, pct, noDeltaSyntax))
			}
			rows = append(rows, row)
		}
	}
	w.table(head, rows, 2)
}

// sizeTable splits the re-queries by the size of the response asked
// again: over all sessions of a profile, the tokens saved by deltas
// against the responses whole, and the share sent as a delta.
func (c *Card) sizeTable(w *writer, rates []string) {
	w.p("\n### Re-queries by response size\n\n")
	w.p("The same re-queries split by the size of the response asked again; each cell is the tokens saved by deltas against those responses whole, summed over the profile's sessions, and in brackets the share of them sent as a delta. A small response's delta carries a header and the changed entities whole, so it saves least where a response is small.\n\n")
	head := []string{"profile", "format", "response size"}
	for _, r := range rates {
		head = append(head, r+" changed")
	}
	var rows [][]string
	for _, p := range c.sessionProfiles() {
		for fi, f := range SessionFormats {
			for si, sc := range SizeClasses {
				row := []string{profileLabel(p), f, sc.Name}
				for ri := range rates {
					var sum SizeFigures
					ok := true
					for _, s := range c.Sessions {
						if s.Profile == p {
							q := s.Results[fi].Requeries[ri]
							ok = ok && q.Delta != Unavailable
							x := q.BySize[si]
							sum.Whole += x.Whole
							sum.Sent += x.Sent
							sum.Deltas += x.Deltas
							sum.Queries += x.Queries
						}
					}
					switch {
					case !ok:
						row = append(row, noDeltaSyntax)
					case sum.Queries == 0:
						row = append(row, "none")
					default:
						row = append(row, pct(saving(sum.Whole, sum.Sent))+" ("+pct(share(sum.Deltas, sum.Queries))+")")
					}
				}
				rows = append(rows, row)
			}
		}
	}
	w.table(head, rows, 3)
}

func (c *Card) adrSessionTable(w *writer) {
	if len(c.ADRSessions) == 0 {
		return
	}
	w.p("\n### ADR 012's example as a 10-query session\n\n")
	w.p("`corpus.ADRSession` turns `%s` into a session of 10 queries over its 50 users and 200 merge requests: the traversal itself; the merge requests of 5 users, of 10 users and of one user (as neighbours); the opened and the merged merge requests (as searches); and 4 re-queries of earlier answers after 1%%, 5%%, 5%% and 20%% of their nodes changed. Totals in o200k tokens: **whole**, every answer encoded alone; **with references**, the 10 encoded in one session; **with deltas**, the re-queries answered by a delta where the 60%% rule sends one (the new queries whole).\n\n", corpus.ADRCase)
	var rows [][]string
	for _, a := range c.ADRSessions {
		rows = append(rows, []string{
			profileLabel(a.Profile), a.Format, num(a.Whole),
			savedCell(a.Whole, a.Referenced, noSessionSyntax),
			savedCell(a.Whole, a.WithDeltas, noDeltaSyntax),
		})
	}
	w.table([]string{"profile", "format", "whole", "with references (saved)", "with deltas (saved)"}, rows, 2)
}
