package wire_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

func TestValueAccessors(t *testing.T) {
	type got struct {
		Kind  wire.Kind
		Null  bool
		Bool  bool
		Int   int64
		Float float64
		Text  string
		Len   int
		List  bool // List() != nil
	}
	tests := []struct {
		name string
		v    wire.Value
		want got
	}{
		{"zero value", wire.Value{}, got{Kind: wire.KindNull, Null: true}},
		{"null", wire.Null(), got{Kind: wire.KindNull, Null: true}},
		{"true", wire.Bool(true), got{Kind: wire.KindBool, Bool: true}},
		{"false", wire.Bool(false), got{Kind: wire.KindBool}},
		{"int", wire.Int(-42), got{Kind: wire.KindInt, Int: -42}},
		{"int max", wire.Int(math.MaxInt64), got{Kind: wire.KindInt, Int: math.MaxInt64}},
		{"int min", wire.Int(math.MinInt64), got{Kind: wire.KindInt, Int: math.MinInt64}},
		{"int 1 is not bool true", wire.Int(1), got{Kind: wire.KindInt, Int: 1}},
		{"float", wire.Float(1.5), got{Kind: wire.KindFloat, Float: 1.5}},
		{"float 1.0", wire.Float(1), got{Kind: wire.KindFloat, Float: 1}},
		{"string", wire.String("héllo"), got{Kind: wire.KindString, Text: "héllo"}},
		{"empty string is not null", wire.String(""), got{Kind: wire.KindString}},
		{"string true is not bool", wire.String("true"), got{Kind: wire.KindString, Text: "true"}},
		{"empty list", wire.ListOf(), got{Kind: wire.KindList, List: true}},
		{"nil list", wire.ListOf(nil...), got{Kind: wire.KindList, List: true}},
		{"list", wire.ListOf(wire.Int(1), wire.String("a")), got{Kind: wire.KindList, Len: 2, List: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := got{
				Kind: tc.v.Kind(), Null: tc.v.Kind() == wire.KindNull, Bool: tc.v.Bool(), Int: tc.v.Int(),
				Float: tc.v.Float(), Text: tc.v.Text(), Len: len(tc.v.List()), List: tc.v.List() != nil,
			}
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("accessors (-want +got):\n%s", diff)
			}
		})
	}
	if math.Signbit(wire.Float(math.Copysign(0, -1)).Float()) != true {
		t.Errorf("Float(-0.0) lost its sign")
	}
	if !math.IsNaN(wire.Float(math.NaN()).Float()) {
		t.Errorf("Float(NaN) is not NaN")
	}
}

func TestValueEqual(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name    string
		a, b    wire.Value
		equal   bool // Equal
		numeric bool // EqualNumeric
	}{
		{"null null", wire.Null(), wire.Null(), true, true},
		{"null vs empty string", wire.Null(), wire.String(""), false, false},
		{"null vs string null", wire.Null(), wire.String("null"), false, false},
		{"null vs false", wire.Null(), wire.Bool(false), false, false},
		{"null vs int 0", wire.Null(), wire.Int(0), false, false},
		{"null vs empty list", wire.Null(), wire.ListOf(), false, false},
		{"bool true vs string true", wire.Bool(true), wire.String("true"), false, false},
		{"bool true vs int 1", wire.Bool(true), wire.Int(1), false, false},
		{"int 1 vs float 1.0", wire.Int(1), wire.Float(1), false, true},
		{"float 1.0 vs int 1", wire.Float(1), wire.Int(1), false, true},
		{"int 1 vs float 1.5", wire.Int(1), wire.Float(1.5), false, false},
		{"int 1 vs string 1", wire.Int(1), wire.String("1"), false, false},
		{"-0.0 vs 0.0", wire.Float(negZero), wire.Float(0), false, true},
		{"-0.0 vs int 0", wire.Float(negZero), wire.Int(0), false, true},
		{"NaN vs NaN", wire.Float(math.NaN()), wire.Float(math.NaN()), true, true},
		{"NaN vs int 0", wire.Float(math.NaN()), wire.Int(0), false, false},
		{"+Inf vs max int", wire.Float(math.Inf(1)), wire.Int(math.MaxInt64), false, false},
		{"2^63 float vs max int", wire.Float(1 << 63), wire.Int(math.MaxInt64), false, false},
		{"-2^63 float vs min int", wire.Float(-(1 << 63)), wire.Int(math.MinInt64), false, true},
		{"2^53 float vs 2^53+1 int", wire.Float(1 << 53), wire.Int(1<<53 + 1), false, false},
		{"2^53 float vs 2^53 int", wire.Float(1 << 53), wire.Int(1 << 53), false, true},
		{"int max vs int max-1", wire.Int(math.MaxInt64), wire.Int(math.MaxInt64 - 1), false, false},
		{"nested lists", wire.ListOf(wire.ListOf(wire.Int(1)), wire.String("x")),
			wire.ListOf(wire.ListOf(wire.Int(1)), wire.String("x")), true, true},
		{"nested lists numbers", wire.ListOf(wire.ListOf(wire.Int(1))), wire.ListOf(wire.ListOf(wire.Float(1))), false, true},
		{"list order", wire.ListOf(wire.Int(1), wire.Int(2)), wire.ListOf(wire.Int(2), wire.Int(1)), false, false},
		{"list length", wire.ListOf(wire.Int(1)), wire.ListOf(wire.Int(1), wire.Null()), false, false},
		{"empty list vs nil list", wire.ListOf(), wire.ListOf(nil...), true, true},
		{"strings", wire.String("日本"), wire.String("日本"), true, true},
		{"strings differ", wire.String("a"), wire.String("b"), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.Equal(tc.b); got != tc.equal {
				t.Errorf("%v.Equal(%v) = %v, want %v", tc.a, tc.b, got, tc.equal)
			}
			if got := tc.b.Equal(tc.a); got != tc.equal {
				t.Errorf("%v.Equal(%v) = %v, want %v", tc.b, tc.a, got, tc.equal)
			}
			if got := tc.a.EqualNumeric(tc.b); got != tc.numeric {
				t.Errorf("%v.EqualNumeric(%v) = %v, want %v", tc.a, tc.b, got, tc.numeric)
			}
			if got := tc.b.EqualNumeric(tc.a); got != tc.numeric {
				t.Errorf("%v.EqualNumeric(%v) = %v, want %v", tc.b, tc.a, got, tc.numeric)
			}
		})
	}
}

// String is canonical JSON, so a printed value tells its kind (1 is an
// int, 1.0 a float, "1" a string), and it is MarshalJSON's text wherever
// MarshalJSON succeeds; a NaN or infinity is written as strconv writes it.
func TestValueString(t *testing.T) {
	tests := []struct {
		v    wire.Value
		want string
	}{
		{wire.Null(), "null"},
		{wire.Bool(true), "true"},
		{wire.Int(-7), "-7"},
		{wire.Int(1), "1"},
		{wire.Float(1), "1.0"},
		{wire.String("1"), `"1"`},
		{wire.Float(0), "0.0"},
		{wire.Float(math.Copysign(0, -1)), "-0.0"},
		{wire.Float(1e21), "1e+21"},
		{wire.Float(0.5), "0.5"},
		{wire.String("a\"b\n"), `"a\"b\n"`},
		{wire.ListOf(), "[]"},
		{wire.ListOf(wire.Int(1), wire.ListOf(wire.Null()), wire.String("x")), `[1,[null],"x"]`},
		{wire.Float(math.NaN()), "NaN"},
		{wire.Float(math.Inf(1)), "+Inf"},
		{wire.ListOf(wire.Float(1), wire.Float(math.Inf(-1))), "[1.0,-Inf]"},
	}
	for _, tc := range tests {
		got := tc.v.String()
		if got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
		if fmt.Sprint(tc.v) != got {
			t.Errorf("fmt.Sprint = %q, want String's %q", fmt.Sprint(tc.v), got)
		}
		if b, err := tc.v.MarshalJSON(); err == nil && string(b) != got {
			t.Errorf("MarshalJSON = %s, String() = %s: they differ", b, got)
		}
	}
	kinds := map[wire.Kind]string{
		wire.KindNull: "null", wire.KindBool: "bool", wire.KindInt: "int", wire.KindFloat: "float",
		wire.KindString: "string", wire.KindList: "list", wire.Kind(9): "Kind(9)",
	}
	for k, want := range kinds {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(k), got, want)
		}
	}
}

func TestModelHelpers(t *testing.T) {
	if diff := cmp.Diff([]wire.QueryType{"traversal", "search", "neighbors", "path_finding", "aggregation"}, wirecodec.QueryTypes()); diff != "" {
		t.Errorf("QueryTypes (-want +got):\n%s", diff)
	}
	for _, q := range wirecodec.QueryTypes() {
		if !q.Valid() {
			t.Errorf("%q.Valid() = false", q)
		}
	}
	for _, q := range []wire.QueryType{"", "Traversal", "paths", "search "} {
		if q.Valid() {
			t.Errorf("%q.Valid() = true", q)
		}
	}
	// QueryTypes returns a fresh slice each time.
	qs := wirecodec.QueryTypes()
	qs[0] = "changed"
	if wirecodec.QueryTypes()[0] != wire.Traversal {
		t.Errorf("QueryTypes shares its slice")
	}
	for _, k := range []wire.GroupKind{wire.GroupByNode, wire.GroupByProperty} {
		if !k.Valid() {
			t.Errorf("%q.Valid() = false", k)
		}
	}
	for _, k := range []wire.GroupKind{"", "Node", "edge"} {
		if k.Valid() {
			t.Errorf("%q.Valid() = true", k)
		}
	}

	n := wire.Node{Type: "User", ID: 1, Properties: []wire.Property{
		wire.Prop("name", wire.String("Ann")),
		wire.Prop("deleted_at", wire.Null()),
	}}
	if v, ok := n.Get("name"); !ok || !v.Equal(wire.String("Ann")) {
		t.Errorf("Get(name) = %v, %v", v, ok)
	}
	if v, ok := n.Get("deleted_at"); !ok || v.Kind() != wire.KindNull {
		t.Errorf("Get(deleted_at) = %v, %v; want present null", v, ok)
	}
	if v, ok := n.Get("missing"); ok || v.Kind() != wire.KindNull {
		t.Errorf("Get(missing) = %v, %v; want absent", v, ok)
	}
	if got := wire.Some[int64](0); !got.Valid || got.V != 0 {
		t.Errorf("Some[int64](0) = %+v", got)
	}
	if got := wire.Some(""); !got.Valid || got.V != "" {
		t.Errorf("Some(\"\") = %+v", got)
	}
	if (wire.Opt[int64]{}).Valid || (wire.Opt[string]{}).Valid {
		t.Errorf("zero optionals are present")
	}
}
