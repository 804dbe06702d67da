package wirecodec

import (
	"math"

	"github.com/graphwire/graphwire/wire"
)

// ExpansionAllowance is the materialised size every input may reach
// whatever its length, beyond MaxExpansion times its length: 8 MiB of
// canonical JSON, so that a short document holding one long truncated
// value still decodes, while the memory a decode may spend on what its
// input does not hold stays within 16 times the input plus 16 MiB.
const ExpansionAllowance = 8 << 20

// MaterializedLimit returns the largest materialised size (see
// MaterializedSize) a decoder configured with l accepts from an input of
// n bytes: the smaller of MaxMaterializedBytes and MaxExpansion times n
// plus ExpansionAllowance. Zero fields of l select their defaults. The
// in-memory size (see InMemorySize) is held to MaxExpansion times n plus
// ExpansionAllowance alone.
func MaterializedLimit(l wire.Limits, n int64) int64 {
	lim, _ := materializedLimit(l, n)
	return lim
}

// materializedLimit is MaterializedLimit and the name of the Limits field
// that sets it ("MaxMaterializedBytes" when both give the same).
func materializedLimit(l wire.Limits, n int64) (int64, string) {
	abs := l.MaxMaterializedBytes
	if abs <= 0 {
		abs = wire.DefaultLimits().MaxMaterializedBytes
	}
	ratio := int64(l.MaxExpansion)
	if ratio <= 0 {
		ratio = int64(wire.DefaultLimits().MaxExpansion)
	}
	if rel := expansionLimit(ratio, n); rel < abs {
		return rel, "MaxExpansion"
	}
	return abs, "MaxMaterializedBytes"
}

// expansionLimit is ratio times n plus ExpansionAllowance, or MaxInt64
// when that overflows.
func expansionLimit(ratio, n int64) int64 {
	n = max(n, 0)
	if n > (math.MaxInt64-ExpansionAllowance)/ratio {
		return math.MaxInt64
	}
	return ratio*n + ExpansionAllowance
}

// HardMaxDepth is the largest MaxDepth a wire.Limits may set
// (Limits.WithDefaults refuses more): decoders recurse once per level, and
// the binary decoders' libraries bound nesting too.
const HardMaxDepth = 10_000
