package fit

import (
	"context"
	"fmt"
)

// serve returns the page of budget from unit from: its size in units and
// its encoding, counted whole. Should the count differ from the segment
// price, every page is counted whole from then on, and the page is found
// again.
func (f *fitter) serve(ctx context.Context, from, budget int) (int, probe, error) {
	for {
		k, p, err := f.size(ctx, from, budget)
		if err != nil {
			return 0, probe{}, err
		}
		if p == nil {
			if err := ctx.Err(); err != nil {
				return 0, probe{}, err
			}
			enc, err := f.encodePage(nil, from, from+k, f.pagination(from, from+k))
			if err != nil {
				return 0, probe{}, fmt.Errorf("fit: %w", err)
			}
			n, err := f.pr.price(enc)
			if err != nil {
				return 0, probe{}, err
			}
			p = &probe{enc: enc, tokens: n}
		}
		var exact int
		switch {
		case p.counted:
			exact = p.tokens
		case f.exactOnly:
			exact, err = f.pr.exact(p.enc)
		default:
			exact, err = f.pr.verify(p.enc)
		}
		if err != nil {
			return 0, probe{}, err
		}
		if exact == p.tokens {
			// Capacity clipped: a caller's append must not write into a
			// remembered page shared with other callers.
			return k, probe{enc: p.enc[:len(p.enc):len(p.enc)], tokens: p.tokens}, nil
		}
		if f.exactOnly { // cannot happen: an exact price is the count
			return 0, probe{}, fmt.Errorf("fit: %s counts the same text as %d and %d tokens", f.counter.Name(), p.tokens, exact)
		}
		f.exactOnly = true
		f.walks = nil
	}
}

// wholePage returns the page of every unit, from the start, when the
// whole fits budget and so may that page (the whole with the page's
// pagination): encoded once and counted exactly (verify tokenizes only
// what the whole did not hold: the pagination and its seams), with no
// other size probed, it is the largest page when it fits. Otherwise (or in
// a session, whose references change from page to page) nil.
func (f *fitter) wholePage(from, budget int) *probe {
	if from != 0 || f.sess != nil || f.wholeTokens > budget {
		return nil
	}
	enc, err := f.encodePage(nil, 0, f.plan.units, f.pagination(0, f.plan.units))
	if err != nil {
		return nil
	}
	n, err := f.pr.verify(enc)
	if err != nil || n > budget {
		return nil
	}
	return &probe{enc: enc, tokens: n, counted: true}
}
