package wirehttp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBaseCacheLRU(t *testing.T) {
	body := func(n int) []byte { return []byte(strings.Repeat("x", n)) }
	keys := func(c *baseCache) []string {
		var out []string
		for e := c.c.head; e != nil; e = e.next {
			out = append(out, e.key)
		}
		return out
	}

	// The count bound: the least recently used goes first, and get
	// counts as a use.
	c := newBaseCache(3, 1<<20)
	for _, k := range []string{"a", "b", "c"} {
		c.put(k, 0, body(10))
	}
	if _, _, ok := c.get("a"); !ok {
		t.Fatal("a missing")
	}
	c.put("d", 1, body(10))
	if diff := cmp.Diff([]string{"d", "a", "c"}, keys(c)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if _, _, ok := c.get("b"); ok {
		t.Error("b kept past the count bound")
	}
	if got, offer, ok := c.get("d"); !ok || offer != 1 || string(got) != string(body(10)) {
		t.Errorf("d: %q offer %d ok %v", got, offer, ok)
	}
	// put of a kept tag only marks it used.
	c.put("c", 2, body(99))
	if got, offer, _ := c.get("c"); offer != 0 || len(got) != 10 {
		t.Errorf("c replaced by a second put: offer %d, %d bytes", offer, len(got))
	}

	// The byte bound, bookkeeping included.
	each := int64(100 + 1 + baseOverhead)
	c = newBaseCache(100, 3*each)
	for i := range 5 {
		c.put(fmt.Sprint(i), 0, body(100))
		if _, bytes := c.stats(); bytes > 3*each {
			t.Fatalf("after %d puts: %d bytes, bound %d", i+1, bytes, 3*each)
		}
	}
	if diff := cmp.Diff([]string{"4", "3", "2"}, keys(c)); diff != "" {
		t.Errorf("byte bound (-want +got):\n%s", diff)
	}
	// A body larger than the bound alone is not kept, and evicts nothing.
	c.put("big", 0, body(int(3*each)))
	if n, _ := c.stats(); n != 3 {
		t.Errorf("oversized body: %d bases, want 3", n)
	}
	if _, _, ok := c.get("big"); ok {
		t.Error("oversized body kept")
	}

	// The cache keeps a copy: the caller's buffer is reused.
	c = newBaseCache(10, 1<<20)
	buf := []byte("abc")
	c.put("t", 0, buf)
	buf[0] = 'z'
	if got, _, _ := c.get("t"); string(got) != "abc" {
		t.Errorf("kept %q, want a copy", got)
	}
}

func TestAcceptsDelta(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{DeltaIM}, true},
		{[]string{"GRAPHWIRE-Delta"}, true},
		{[]string{"vcdiff, graphwire-delta;q=0.5"}, true},
		{[]string{"vcdiff", " graphwire-delta "}, true},
		{[]string{"graphwire-delta;q=0"}, false},
		{[]string{"graphwire-delta; q=0.000"}, false},
		{[]string{"graphwire-deltas, feed"}, false},
		{[]string{strings.Repeat("x, ", MaxIMs) + DeltaIM}, false},
		{[]string{strings.Repeat("x, ", MaxIMs-1) + DeltaIM}, true},
	} {
		if got := acceptsDelta(tc.values); got != tc.want {
			t.Errorf("acceptsDelta(%q) = %v, want %v", tc.values, got, tc.want)
		}
	}
}
