package fit

import (
	"context"
)

// The search for a page starts at its first unit and reads no further
// than the page needs: each probe encodes a candidate page and counts it
// exactly, and the model that proposes the next candidate knows only the
// units' weights (plan.weight: lengths, no encoding) from the page's
// first unit on, and the tokens per byte of weight the probes so far
// have shown.

// initialRate is the first guess of tokens per byte of unit weight,
// before any probe: about what GOON, TOON and JSON cost in o200k.
const initialRate = 0.3

// minRate bounds the learnt rate from below, so that a probe that costs
// no more than the empty page cannot send the next one to the end of
// the response.
const minRate = 0.01

// modelSteps is how many probes the model proposes before the search
// settles the rest by halving (or doubling, while no probe has failed).
const modelSteps = 6

// search finds the largest k such that units [from, from+k) cost at most
// budget by exact counts.
type search struct {
	ctx    context.Context
	f      *fitter
	from   int
	budget int
	probes map[int]probe
	// cum[k] is the weight of units [from, from+k), extended as far as a
	// proposal reads.
	cum []float64
}

func (s *search) price(k int) (probe, error) {
	if p, ok := s.probes[k]; ok {
		return p, nil
	}
	p, err := s.f.encodeProbe(s.ctx, s.from, k)
	if err != nil {
		return probe{}, err
	}
	s.probes[k] = p
	return p, nil
}

func (s *search) fits(k int) (bool, error) {
	p, err := s.price(k)
	return err == nil && p.tokens <= s.budget, err
}

// weight returns the weight of units [from, from+k).
func (s *search) weight(k int) float64 {
	for len(s.cum) <= k {
		j := len(s.cum) - 1
		s.cum = append(s.cum, s.cum[j]+s.f.plan.weight(s.from+j))
	}
	return s.cum[k]
}

// run returns the number of units of the page from s.from. With no unit
// left (a response with none), it is 0 when the empty page fits.
//
// The model T(k) ≈ T(a) + rate × (weight of units [a, k)), anchored at
// the last probe a (at first the empty page, counted once per response,
// or the whole rest, when the model let it be probed first),
// proposes the next candidate, so that the probes close in on the answer
// from both sides in a few steps; halving between the closest probes
// that fit and do not fit ends the search, or doubling while every probe
// fits. Every probe holds at most about twice the units of the page, so
// the search costs a few encodings of the page and about one count of
// it, whatever lies beyond.
func (s *search) run() (int, error) {
	f := s.f
	n := f.plan.units - s.from
	if n == 0 {
		p0, err := s.price(0)
		if err != nil {
			return 0, err
		}
		if p0.tokens > s.budget {
			return 0, f.budgetError(s.budget, p0.tokens)
		}
		return 0, nil
	}
	lo, hi := 0, n+1 // units [0, lo) fit (lo > 0), [0, hi) do not (hi <= n)
	// A rest that the rate last seen puts within the budget, before any
	// header, is probed whole first: when it fits (the page of a response
	// that fits whole, the last page of a walk), the page costs one
	// encoding and one count, and no count of the empty page.
	if s.propose(0, 0, f.rate, n) == n {
		ok, err := s.fits(n)
		if err != nil {
			return 0, err
		}
		if ok {
			return n, nil
		}
		hi = n
	}
	empty, err := f.empty()
	if err != nil {
		return 0, err
	}
	anchor, anchorT, rate := 0, empty, f.rate
	if hi == n { // the rest, counted, anchors the model
		anchor, anchorT = n, s.probes[n].tokens
		if w := s.weight(n); w > 0 {
			rate = max(float64(anchorT-empty)/w, minRate)
		}
	}
	for step := 0; hi-lo > 1 && lo < n; step++ {
		var k int
		switch {
		case step < modelSteps:
			// The first guess is as far as the budget reaches at the
			// rate last seen; later ones at most quadruple the page.
			limit := n
			if step > 0 {
				limit = 4*lo + 64
			}
			k = s.propose(anchor, anchorT, rate, limit)
		case hi > n:
			k = 2*lo + 1
		default:
			k = lo + (hi-lo)/2
		}
		k = min(max(k, lo+1), hi-1)
		ok, err := s.fits(k)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = k
		} else {
			hi = k
		}
		t := s.probes[k].tokens
		if w := s.weight(k); w > 0 {
			rate = max(float64(t-empty)/w, minRate)
		}
		anchor, anchorT = k, t
	}
	f.rate = rate
	if lo == 0 {
		return 0, f.budgetError(s.budget, s.probes[1].tokens)
	}
	return lo, nil
}

// propose returns the largest k whose estimated cost is within the
// budget, by the model anchored at the exact count anchorT of k = anchor,
// reading the weights of at most limit units.
func (s *search) propose(anchor, anchorT int, rate float64, limit int) int {
	n := s.f.plan.units - s.from
	target := s.weight(anchor) + float64(s.budget-anchorT)/rate
	k := anchor
	for k < n && k < limit && s.weight(k+1) <= target {
		k++
	}
	for k > 0 && s.weight(k) > target {
		k--
	}
	return k
}
