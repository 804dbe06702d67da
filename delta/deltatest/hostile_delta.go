package deltatest

import (
	"errors"
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// EveryList is a delta whose every list of operations holds n positions
// (most of them wrong for any base: a decoder does not check them, Patch
// does), each a few bytes of input: what a hostile writer sends to make a
// decoder build large lists from a small text.
func EveryList(n int) *delta.Delta {
	d := &delta.Delta{Check: delta.MakeCheck(delta.Hash{1}, delta.Hash{2}),
		Content: &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Rows: []wire.Row{}}}
	list := func() []int {
		v := make([]int, n)
		for i := range v {
			v[i] = i % 10
		}
		return v
	}
	moves := func() []delta.Move {
		v := make([]delta.Move, n)
		for i := range v {
			v[i] = delta.Move{From: i % 10, At: i % 10}
		}
		return v
	}
	d.Changed = list()
	for _, o := range []*delta.Ops{&d.Nodes, &d.Edges, &d.Rows} {
		o.Removed, o.Moved, o.Added = list(), moves(), list()
	}
	return d
}

// CheckDecodeMemory decodes data with decode, measuring its peak heap
// (wiretest.Measure), and fails t when the peak passes 16 times the input
// plus 16 MiB (wiretest.DecodeMemoryBound), when decode refuses data
// other than with a positioned *wire.DecodeError matching wire.ErrLimit,
// or, with mustDecode, when it refuses at all. It skips under the race
// detector, whose shadow memory makes heap figures meaningless.
func CheckDecodeMemory(t *testing.T, data []byte, mustDecode bool, decode func([]byte) (*delta.Delta, error)) {
	t.Helper()
	if testsupport.Race {
		t.Skip("the race detector's shadow memory makes heap figures meaningless")
	}
	var err error
	fp := wiretest.Measure(func() { _, err = decode(data) })
	bound := wiretest.DecodeMemoryBound(len(data))
	t.Logf("%d bytes in: %v (bound %d KiB, %.1fx the input); err %v", len(data), fp, bound>>10, float64(fp.PeakHeap)/float64(len(data)), err)
	if fp.PeakHeap > bound {
		t.Errorf("peak heap %d bytes decoding %d bytes, more than 16x the input + 16 MiB (%d)", fp.PeakHeap, len(data), bound)
	}
	var de *wire.DecodeError
	switch {
	case err == nil:
	case mustDecode:
		t.Errorf("refused: %v", err)
	case !errors.Is(err, wire.ErrLimit) || !errors.As(err, &de) || de.Line == 0 && de.Offset == 0:
		t.Errorf("refused with %v, want a positioned *wire.DecodeError that matches wire.ErrLimit", err)
	}
}
