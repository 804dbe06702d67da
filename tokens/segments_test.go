package tokens

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each segment's count, where every token lies within a segment, adds up
// to the whole text's count and equals the segment counted alone.
func TestCountSegments(t *testing.T) {
	segs := []string{"nodes:\n", "  User,1,alice\n", "  User,2,bob\x7f\n", "edges:\n", "  1,2,FOLLOWS\n"}
	text := strings.Join(segs, "")
	var ends []int
	off := 0
	for _, s := range segs {
		off += len(s)
		ends = append(ends, off)
	}
	for _, name := range []string{O200k, Cl100k} {
		c := mustGet(t, name).(SegmentCounter)
		counts, ok, err := c.CountSegments([]byte(text), ends)
		if err != nil || !ok {
			t.Fatalf("%s: CountSegments = %v, %v, %v", name, counts, ok, err)
		}
		want := make([]int, len(segs))
		for i, s := range segs {
			want[i] = count(t, name, s)
		}
		if d := cmp.Diff(want, counts); d != "" {
			t.Errorf("%s: per-segment counts differ from counting each alone (-alone +segments):\n%s", name, d)
		}
		sum := 0
		for _, n := range counts {
			sum += n
		}
		if whole := count(t, name, text); sum != whole {
			t.Errorf("%s: segments add up to %d, the whole counts %d", name, sum, whole)
		}
	}
}

// A token across a boundary, invalid UTF-8 or ends that do not close the
// text: not ok, no counts.
func TestCountSegmentsRefuses(t *testing.T) {
	c := mustGet(t, O200k).(SegmentCounter)
	for _, tc := range []struct {
		text string
		ends []int
	}{
		{"helloworld", []int{5, 10}},
		{"ab\xffcd", []int{2, 5}},
		{"abc", []int{1}},
		{"abc", nil},
	} {
		counts, ok, err := c.CountSegments([]byte(tc.text), tc.ends)
		if err != nil || ok || counts != nil {
			t.Errorf("CountSegments(%q, %v) = %v, %v, %v; want not ok", tc.text, tc.ends, counts, ok, err)
		}
	}
	for _, name := range []string{Chars, Words} {
		if _, ok := mustGet(t, name).(SegmentCounter); ok {
			t.Errorf("the estimate %s is a SegmentCounter", name)
		}
	}
}
