package scorecard

import (
	"math"
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/bench/internal/mdtable"
)

func saving(base, x int) float64 {
	if base == 0 {
		return math.NaN()
	}
	return 100 * float64(base-x) / float64(base)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// pct formats a percentage with one decimal ("-0.0" is "0.0").
func pct(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	s := strconv.FormatFloat(x, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	return s + "%"
}

// num formats n with thousands separators: 12,345.
func num(n int) string { return mdtable.Group(int64(n)) }

// renderTable renders a markdown table; the first leftCols columns are
// aligned left, the rest (numbers) right.
