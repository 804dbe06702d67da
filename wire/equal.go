package wire

import (
	"reflect"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Equality names how strictly two responses must agree to be the same.
type Equality int

const (
	// Exact: every field and every value, kinds included; floats bit for bit.
	Exact Equality = iota
	// NumbersByValue: as Exact, except that int and float values compare by
	// numeric value (for formats with one number type, such as TOON).
	NumbersByValue
)

// CmpOptions returns the go-cmp options under which two GraphResponses are
// the same response. Every round-trip test in graphwire compares with them:
//
//	if diff := cmp.Diff(want, got, wire.CmpOptions(wire.Exact)); diff != "" { ... }
//
// Under both equalities a nil and an empty Nodes, Edges, property list or
// Row are the same (the wire cannot tell them apart), while a nil and an
// empty Columns, GroupColumns or Rows differ (absent versus present).
func CmpOptions(e Equality) cmp.Options {
	opts := cmp.Options{
		cmp.FilterPath(func(p cmp.Path) bool {
			switch p.Last().Type() {
			case nodesType, edgesType, propertiesType, rowType:
				return true
			}
			return false
		}, cmpopts.EquateEmpty()),
	}
	if e == NumbersByValue {
		opts = append(opts, cmp.Comparer(func(a, b Value) bool { return a.EqualNumeric(b) }))
	}
	return opts
}

var (
	nodesType      = reflect.TypeOf([]Node(nil))
	edgesType      = reflect.TypeOf([]Edge(nil))
	propertiesType = reflect.TypeOf([]Property(nil))
	rowType        = reflect.TypeOf(Row(nil))
)

// Equal reports whether a and b are the same response under e.
func Equal(a, b *GraphResponse, e Equality) bool {
	return cmp.Equal(a, b, CmpOptions(e))
}

// Diff returns a human-readable report of the differences between want and
// got under e, or "" when they are the same response.
func Diff(want, got *GraphResponse, e Equality) string {
	return cmp.Diff(want, got, CmpOptions(e))
}
