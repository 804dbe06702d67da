package cli

// The fit command: the largest next page of a response within a token
// budget. Stdout gets exactly the codec's bytes of the page, the bytes
// that were counted (no newline is added, so that what a reader receives
// is what the budget bought); stderr gets one line of statistics, JSON
// with -stats-json. The page costs what the page costs; the statistics
// of the whole (its tokens, the JSON baseline, the page count), which
// cost a count of the whole, come with -whole. With -all, every page
// from the cursor on, found in one pass: each page's bytes followed by a
// newline on stdout (page_bytes in its statistics says how many are the
// page's), one statistics line a page. A bad cursor or a budget below
// the minimum is an error (exit 1); a missing or malformed flag a usage
// error (exit 2).

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

func runFit(env *Env, fs *flag.FlagSet) error {
	codec := fs.String("f", "", "output codec `NAME` (a text codec: goon, toon, gcf, json)")
	budget := fs.String("budget", "", "the most `N` tokens the page may cost")
	counter := fs.String("t", tokens.O200k, "tokenizer: o200k or cl100k")
	cursor := fs.String("cursor", "", "resume after the page whose next_cursor is `C`")
	statsJSON := fs.Bool("stats-json", false, "write the statistics as one JSON line")
	whole := fs.Bool("whole", false, "also count the whole response: its tokens, its JSON baseline and its pages")
	all := fs.Bool("all", false, "write every page from the cursor on, each followed by a newline")
	if err := parseFlags(fs, env, oneFile); err != nil {
		return err
	}
	if *codec == "" {
		return usagef("missing -f NAME (codecs: %s)", codecNames())
	}
	if _, err := wire.Lookup(*codec); err != nil {
		return usagef("%v", err)
	}
	if c, err := tokens.Get(*counter); err != nil || c.Estimate() {
		return usagef("-t: want a real tokenizer, %s or %s; got %q", tokens.O200k, tokens.Cl100k, *counter)
	}
	n, err := strconv.Atoi(*budget)
	if err != nil || n <= 0 {
		return usagef("-budget: want a positive number of tokens, got %q", *budget)
	}
	// The cursor's text is checked before the response is read: only its
	// match with the response needs the response.
	if *cursor != "" {
		if err := fit.CheckCursor(*cursor); err != nil {
			return err
		}
	}
	name, data, err := readInput(env, fs.Args())
	if err != nil {
		return err
	}
	r, err := wire.DecodeWith("json", data)
	if err != nil {
		return fmt.Errorf("%s%w", name, err)
	}
	if *all {
		return fitAll(env, name, r, fit.PagerOptions{Codec: *codec, Counter: *counter, WholeStats: *whole, JSONBaseline: *whole}, n, *cursor, *statsJSON)
	}
	res, err := fit.Page(r, fit.Options{Codec: *codec, Counter: *counter, Budget: n, Cursor: *cursor, WholeStats: *whole, JSONBaseline: *whole})
	if errors.Is(err, fit.ErrBinaryCodec) {
		return usagef("%v", err)
	}
	if err != nil {
		return fmt.Errorf("%s%w", name, err)
	}
	line, err := statsLine(res, *statsJSON, *whole)
	if err != nil {
		return err
	}
	if _, err := env.Stdout.Write(res.Encoding); err != nil {
		return err
	}
	_, err = fmt.Fprintln(env.Stderr, line)
	return err
}

// fitAll writes every page of budget from cursor on, found by one Pager:
// each page's search reads the units just past it, which the next page's
// count then finds counted.
func fitAll(env *Env, name string, r *wire.GraphResponse, opts fit.PagerOptions, budget int, cursor string, asJSON bool) error {
	ctx := context.Background()
	p, err := fit.NewPager(ctx, r, opts)
	if errors.Is(err, fit.ErrBinaryCodec) {
		return usagef("%v", err)
	}
	if err != nil {
		return fmt.Errorf("%s%w", name, err)
	}
	for {
		res, err := p.Page(ctx, budget, cursor)
		if err != nil {
			return fmt.Errorf("%s%w", name, err)
		}
		line, err := statsLine(res, asJSON, opts.WholeStats)
		if err != nil {
			return err
		}
		if _, err := env.Stdout.Write(append(res.Encoding, '\n')); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(env.Stderr, line); err != nil {
			return err
		}
		if !res.Stats.Truncated {
			return nil
		}
		cursor = res.Page.Pagination.NextCursor.V
	}
}

// fitStats is the -stats-json line.
type fitStats struct {
	Codec           string  `json:"codec"`
	Counter         string  `json:"counter"`
	Budget          int     `json:"budget"`
	PageTokens      int     `json:"page_tokens"`
	PageBytes       int     `json:"page_bytes"`
	WholeTokens     int     `json:"whole_tokens"`
	WholeJSONTokens int     `json:"whole_json_tokens"`
	Ratio           float64 `json:"ratio"`
	NodesKept       int     `json:"nodes_kept"`
	NodesTotal      int     `json:"nodes_total"`
	EdgesKept       int     `json:"edges_kept"`
	EdgesTotal      int     `json:"edges_total"`
	RowsKept        int     `json:"rows_kept"`
	RowsTotal       int     `json:"rows_total"`
	FirstUnit       int     `json:"first_unit"`
	UnitsKept       int     `json:"units_kept"`
	UnitsTotal      int     `json:"units_total"`
	Truncated       bool    `json:"truncated"`
	Pages           int     `json:"pages"`
	NextCursor      string  `json:"next_cursor,omitempty"`
}

// statsLine is the statistics of a page: with whole, those of the whole
// response too (in the JSON line they are 0 without it).
func statsLine(res *fit.Result, asJSON, whole bool) (string, error) {
	st := res.Stats
	next := ""
	if pg := res.Page.Pagination; pg != nil && st.Truncated {
		next = pg.NextCursor.V
	}
	if asJSON {
		b, err := json.Marshal(fitStats{
			Codec: st.Codec, Counter: st.Counter, Budget: st.Budget,
			PageTokens: st.PageTokens, PageBytes: len(res.Encoding), WholeTokens: st.WholeTokens, WholeJSONTokens: st.WholeJSONTokens, Ratio: st.Ratio,
			NodesKept: st.Nodes.Kept, NodesTotal: st.Nodes.Total, EdgesKept: st.Edges.Kept, EdgesTotal: st.Edges.Total,
			RowsKept: st.Rows.Kept, RowsTotal: st.Rows.Total,
			FirstUnit: st.FirstUnit, UnitsKept: st.Units.Kept, UnitsTotal: st.Units.Total,
			Truncated: st.Truncated, Pages: st.Pages, NextCursor: next,
		})
		return string(b), err
	}
	s := fmt.Sprintf("fit: %s %s: page %d of budget %d tokens; nodes %d/%d, edges %d/%d, rows %d/%d",
		st.Codec, st.Counter, st.PageTokens, st.Budget,
		st.Nodes.Kept, st.Nodes.Total, st.Edges.Kept, st.Edges.Total, st.Rows.Kept, st.Rows.Total)
	if whole {
		s += fmt.Sprintf("; whole %d tokens (json %d, %.2fx); %d pages", st.WholeTokens, st.WholeJSONTokens, st.Ratio, st.Pages)
	}
	if st.Truncated {
		s += "; truncated, next_cursor " + next
	}
	return s, nil
}
