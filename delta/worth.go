package delta

import (
	"fmt"
	"math"

	"github.com/graphwire/graphwire/wire"
)

// DefaultThreshold is the share of the full response's cost under which a
// delta is worth sending: 0.60, GCF's recommendation (a delta must cost
// less than 60% of the full response).
const DefaultThreshold = 0.60

// Choice is what to send a client that holds base, when next is current.
type Choice uint8

// The three outcomes of Choose (GCF's three-outcome protocol).
const (
	SendFull      Choice = iota // the whole response
	SendUnchanged               // nothing: the client's response is current (HTTP 304)
	SendDelta                   // the delta (HTTP 226)
)

var choiceNames = [...]string{SendFull: "full", SendUnchanged: "unchanged", SendDelta: "delta"}

func (c Choice) String() string {
	if int(c) < len(choiceNames) {
		return choiceNames[c]
	}
	return fmt.Sprintf("Choice(%d)", uint8(c))
}

// Worth reports whether a delta costing deltaCost is worth sending instead
// of a full response costing fullCost, in one unit (tokens, bytes):
// deltaCost < threshold × fullCost. A threshold of 0 selects
// DefaultThreshold.
func Worth(deltaCost, fullCost int, threshold float64) bool {
	if threshold == 0 {
		threshold = DefaultThreshold
	}
	return float64(deltaCost) < threshold*float64(fullCost)
}

// Choose decides between unchanged, delta and full for a client holding
// base when next is current, and returns the Delta with SendDelta and
// SendUnchanged. It prices the delta and next with the caller's cost
// functions and sends the delta when Worth says so. threshold 0 selects
// DefaultThreshold; one not in (0, 1], or an error of a cost function,
// is an error.
func Choose(base, next *wire.GraphResponse, threshold float64,
	deltaCost func(*Delta) (int, error), fullCost func(*wire.GraphResponse) (int, error)) (Choice, *Delta, error) {
	if threshold == 0 {
		threshold = DefaultThreshold
	}
	if math.IsNaN(threshold) || threshold <= 0 || threshold > 1 {
		return SendFull, nil, fmt.Errorf("delta: threshold %v is not in (0, 1]", threshold)
	}
	d, err := Diff(base, next)
	if err != nil {
		return SendFull, nil, err
	}
	if d.Unchanged() {
		return SendUnchanged, d, nil
	}
	dc, err := deltaCost(d)
	if err != nil {
		return SendFull, nil, fmt.Errorf("delta: pricing the delta: %w", err)
	}
	fc, err := fullCost(next)
	if err != nil {
		return SendFull, nil, fmt.Errorf("delta: pricing the full response: %w", err)
	}
	if Worth(dc, fc, threshold) {
		return SendDelta, d, nil
	}
	return SendFull, nil, nil
}
