package deltatest

import (
	"errors"
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// The hostile deltas of the delta decoders' memory tests. Their base and
// result are two fixed, different fingerprints: a decoder does not see
// the base.
var (
	hostileBase   = delta.Hash{1}
	hostileResult = delta.Hash{2}
)

// RemovedKeys is a delta of n removed node keys, all the same (A 0): a
// decoder does not look for repeats (Patch refuses them), so each costs
// its input a few bytes.
func RemovedKeys(n int) *delta.Delta {
	d := &delta.Delta{Base: hostileBase, Result: hostileResult, QueryType: wire.Search}
	d.Nodes.Removed = make([]delta.NodeKey, n)
	for i := range d.Nodes.Removed {
		d.Nodes.Removed[i] = delta.NodeKey{Type: "A"}
	}
	return d
}

// LongType is the type name of LongKeys's keys.
const LongType = "ProjectMergeRequestApproval"

// LongKeys is a delta of n removed node keys, each with its own id and
// the type LongType: a delta a decoder reads within its bound.
func LongKeys(n int) *delta.Delta {
	d := RemovedKeys(n)
	for i := range d.Nodes.Removed {
		d.Nodes.Removed[i] = delta.NodeKey{Type: LongType, ID: int64(i)}
	}
	return d
}

// EveryList is RemovedKeys(n) with every other list of operations of n
// elements too: moved node keys, removed and moved edges, removed and
// moved rows.
func EveryList(n int) *delta.Delta {
	d := RemovedKeys(n)
	e := wire.Edge{From: "A", FromID: 1, To: "A", ToID: 2, Type: "R"}
	d.Nodes.Moved = make([]delta.Move[delta.NodeKey], n)
	d.Edges.Removed = make([]delta.EdgeKey, n)
	d.Edges.Moved = make([]delta.Move[delta.EdgeKey], n)
	d.Rows.Present = true
	d.Rows.Removed = make([]int, n)
	d.Rows.Moved = make([]delta.Move[int], n)
	for i := range n {
		d.Nodes.Moved[i] = delta.Move[delta.NodeKey]{Key: delta.NodeKey{Type: "A"}}
		d.Edges.Removed[i] = delta.EdgeKey{Edge: e}
		d.Edges.Moved[i] = delta.Move[delta.EdgeKey]{Key: delta.EdgeKey{Edge: e}}
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
