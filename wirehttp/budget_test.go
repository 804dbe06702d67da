package wirehttp

import (
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A charge never takes more than the budget holds, is capped at the whole
// budget for one request, and comes back on release.
func TestBudgetCharges(t *testing.T) {
	b := newBudget(100, -1)
	a, c := b.newCharge(), b.newCharge()
	if !a.grow(60) || !c.grow(40) {
		t.Fatal("60 + 40 must fit in 100")
	}
	if c.grow(1) {
		t.Fatal("a byte past the budget was granted")
	}
	a.release()
	if b.used != 40 {
		t.Fatalf("used %d after releasing 60 of 100, want 40", b.used)
	}
	c.release()
	big := b.newCharge()
	if !big.grow(1_000) || big.n != 100 {
		t.Fatalf("a charge larger than the budget, alone: granted %d, want it capped at 100", big.n)
	}
	if small := b.newCharge(); small.grow(1) {
		t.Fatal("the budget is full; a byte was granted")
	}
	big.release()
	if b.used != 0 {
		t.Fatalf("used %d after every release", b.used)
	}
}

// An idle server returns memory once after a burst above the threshold,
// and not after small requests.
func TestBudgetReturnsMemoryWhenIdle(t *testing.T) {
	var frees atomic.Int32
	b := newBudget(1<<40, 20*time.Millisecond)
	b.free = func() { frees.Add(1) }
	c := b.newCharge()
	c.grow(freeThreshold)
	c.release()
	deadline := time.Now().Add(5 * time.Second)
	for frees.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if frees.Load() != 1 {
		t.Fatalf("memory returned %d times after a burst, want once", frees.Load())
	}
	c = b.newCharge()
	c.grow(1 << 20)
	c.release()
	time.Sleep(100 * time.Millisecond)
	if frees.Load() != 1 {
		t.Fatalf("memory returned again after a small request: %d times", frees.Load())
	}
}

// Accept and If-None-Match consider at most their first 64 elements,
// however long the field.
func TestHeaderWorkBounded(t *testing.T) {
	s, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("*/*;a=b,", 120_000) // 960 KB
	best := make([]rangeMatch, len(s.offers))
	_, _, considered := choose([]string{huge}, s.offers, best)
	if considered != MaxAcceptRanges {
		t.Fatalf("a 120,000-range Accept: %d ranges considered, want %d", considered, MaxAcceptRanges)
	}
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept", huge)
	if _, err = s.Negotiate(req); err == nil || !strings.Contains(err.Error(), "no format matches") {
		t.Fatalf("Negotiate: %v, want 406", err)
	}
	if len(err.Error()) > 400 {
		t.Fatalf("the 406 message quotes %d bytes of the header", len(err.Error()))
	}
	const tag = `"abc"`
	many := strings.Repeat(`"x", `, MaxETags) + tag
	if _, ok := matchIfNoneMatch([]string{many}, tag, false); ok {
		t.Fatal("a tag past the first 64 of If-None-Match matched")
	}
	if _, ok := matchIfNoneMatch([]string{strings.Repeat(`"x", `, MaxETags-1) + tag}, tag, false); !ok {
		t.Fatal("the 64th tag of If-None-Match did not match")
	}
}
