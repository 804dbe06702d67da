package delta_test

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestPatchDiff is the property: Patch(base, Diff(base, next)) is next,
// exactly, for generated pairs; neither base nor next is modified; the
// delta applied to another response is ErrWrongBase. Responses are drawn
// with identifier names, with awkward names (any text), and with NaN and
// ±Inf floats, which the fingerprint tells apart bit for bit.
func TestPatchDiff(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 5000
	}
	if testsupport.Race {
		n = 2000 // .ci/run runs the 10,000 without the race detector
	}
	per := wiretest.PerCase(n)
	var pairs, unchanged, withOps int
	rapid.Check(t, func(rt *rapid.T) {
		for range per {
			o := rapid.SampledFrom([]wiretest.Options{{}, {AwkwardNames: true}, {NonFinite: true}}).Draw(rt, "options")
			p := pairGenWith(o).Draw(rt, "pair")
			base, next := p[0], p[1]
			baseCopy, nextCopy := wiretest.Clone(base), wiretest.Clone(next)
			d, err := delta.Diff(base, next)
			if err != nil {
				rt.Fatalf("Diff: %v", err)
			}
			got, err := delta.Patch(base, d)
			if err != nil {
				rt.Fatalf("Patch: %v\nbase:\n%s\nnext:\n%s", err, wiretest.Describe(base), wiretest.Describe(next))
			}
			if diff := wiretest.Diff(next, got, wire.Exact); diff != "" {
				rt.Fatalf("Patch(base, Diff(base, next)) differs from next (-want +got):\n%s", diff)
			}
			if diff := wiretest.Diff(baseCopy, base, wire.Exact); diff != "" {
				rt.Fatalf("base modified (-before +after):\n%s", diff)
			}
			if diff := wiretest.Diff(nextCopy, next, wire.Exact); diff != "" {
				rt.Fatalf("next modified (-before +after):\n%s", diff)
			}
			if d.Unchanged() != wire.Equal(base, next, wire.Exact) {
				rt.Fatalf("Unchanged() = %v for responses whose equality is %v", d.Unchanged(), !d.Unchanged())
			}
			if d.Check != delta.MakeCheck(delta.Fingerprint(base), delta.Fingerprint(next)) {
				rt.Fatalf("Check is not the check of base and next")
			}
			other := wiretest.ResponseWith(o).Draw(rt, "other")
			if delta.Fingerprint(other) != delta.Fingerprint(base) {
				_, err := delta.Patch(other, d)
				var pe *delta.PatchError
				if !errors.Is(err, delta.ErrWrongBase) || !errors.As(err, &pe) {
					rt.Fatalf("Patch on another response: got %v, want a *PatchError matching ErrWrongBase", err)
				}
			}
			pairs++
			if d.Unchanged() {
				unchanged++
			} else {
				withOps++
			}
		}
	})
	t.Logf("%d pairs: %d unchanged, %d with operations", pairs, unchanged, withOps)
	if pairs < n && !testing.Short() && !testsupport.Race {
		t.Errorf("only %d pairs checked, want %d", pairs, n)
	}
}
