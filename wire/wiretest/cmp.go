package wiretest

import (
	"reflect"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/graphwire/graphwire/wire"
)

// CmpOptions returns the go-cmp options under which two GraphResponses are
// the same response under f: the rules of wire.Equal.
func CmpOptions(f wire.Fidelity) cmp.Options {
	opts := cmp.Options{
		cmp.FilterPath(func(p cmp.Path) bool {
			switch p.Last().Type() {
			case nodesType, edgesType, propertiesType, rowType:
				return true
			}
			return false
		}, cmpopts.EquateEmpty()),
	}
	if f != wire.Exact {
		opts = append(opts, cmp.Comparer(func(a, b wire.Value) bool { return a.EqualNumeric(b) }))
	}
	return opts
}

var (
	nodesType      = reflect.TypeOf([]wire.Node(nil))
	edgesType      = reflect.TypeOf([]wire.Edge(nil))
	propertiesType = reflect.TypeOf([]wire.Property(nil))
	rowType        = reflect.TypeOf(wire.Row(nil))
)

// Diff returns a human-readable report of the differences between want and
// got under f, or "" when they are the same response.
func Diff(want, got *wire.GraphResponse, f wire.Fidelity) string {
	if same(want, got, f) { // most calls compare equal responses; go-cmp is slow
		return ""
	}
	return cmp.Diff(want, got, CmpOptions(f))
}

// same reports whether want and got are equal under CmpOptions(f):
// wire.Equal, and the Value of every node cell, which it leaves out.
func same(want, got *wire.GraphResponse, f wire.Fidelity) bool {
	if !wire.Equal(want, got, f) {
		return false
	}
	if want == nil {
		return true
	}
	eqv := wire.Value.Equal
	if f != wire.Exact {
		eqv = wire.Value.EqualNumeric
	}
	for i, row := range want.Rows {
		for j, c := range row {
			if c.Node != nil && !eqv(c.Value, got.Rows[i][j].Value) {
				return false
			}
		}
	}
	return true
}
