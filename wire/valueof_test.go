package wire_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

type userID int64
type label string

func TestValueOf(t *testing.T) {
	one := 1
	var nilPtr *int
	var nilSlice []string
	var nilAny any
	for _, tc := range []struct {
		name string
		in   any
		want wire.Value
	}{
		{"nil", nil, wire.Null()},
		{"nil pointer", nilPtr, wire.Null()},
		{"bool", true, wire.Bool(true)},
		{"int", -3, wire.Int(-3)},
		{"int8", int8(-128), wire.Int(-128)},
		{"int16", int16(300), wire.Int(300)},
		{"int32", int32(-7), wire.Int(-7)},
		{"int64 min", int64(math.MinInt64), wire.Int(math.MinInt64)},
		{"uint", uint(7), wire.Int(7)},
		{"uint8", uint8(255), wire.Int(255)},
		{"uint16", uint16(65535), wire.Int(65535)},
		{"uint32", uint32(math.MaxUint32), wire.Int(math.MaxUint32)},
		{"uint64 max int64", uint64(math.MaxInt64), wire.Int(math.MaxInt64)},
		{"uintptr", uintptr(9), wire.Int(9)},
		{"named int", userID(9007199254740993), wire.Int(9007199254740993)},
		{"float32 exact", float32(0.1), wire.Float(float64(float32(0.1)))},
		{"float64", 1.0, wire.Float(1)},
		{"negative zero", math.Copysign(0, -1), wire.Float(math.Copysign(0, -1))},
		{"NaN", math.NaN(), wire.Float(math.NaN())},
		{"string", "x", wire.String("x")},
		{"named string", label("y"), wire.String("y")},
		{"pointer", &one, wire.Int(1)},
		{"json.Number int", json.Number("-42"), wire.Int(-42)},
		{"json.Number max", json.Number("9223372036854775807"), wire.Int(math.MaxInt64)},
		{"json.Number float", json.Number("1.0"), wire.Float(1)},
		{"json.Number exponent", json.Number("1E3"), wire.Float(1000)},
		{"json.Number small exponent", json.Number("2e-3"), wire.Float(0.002)},
		{"Value", wire.ListOf(wire.Int(1)), wire.ListOf(wire.Int(1))},
		{"[]any", []any{nil, true, 1, 2.5, "s", json.Number("3"), []any{}}, wire.ListOf(wire.Null(), wire.Bool(true), wire.Int(1), wire.Float(2.5), wire.String("s"), wire.Int(3), wire.ListOf())},
		{"[]int64", []int64{1, 2}, wire.ListOf(wire.Int(1), wire.Int(2))},
		{"[]string", []string{"a"}, wire.ListOf(wire.String("a"))},
		{"nil []string", nilSlice, wire.ListOf()},
		{"[][]float64", [][]float64{{1}, {}}, wire.ListOf(wire.ListOf(wire.Float(1)), wire.ListOf())},
		{"array", [2]uint16{3, 4}, wire.ListOf(wire.Int(3), wire.Int(4))},
		{"[]any holding nil any", []any{nilAny, &one}, wire.ListOf(wire.Null(), wire.Int(1))},
		{"[]wire.Value", []wire.Value{wire.Float(1)}, wire.ListOf(wire.Float(1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wire.ValueOf(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tc.want) {
				t.Fatalf("ValueOf(%#v) = %v (%s), want %v (%s)", tc.in, got, got.Kind(), tc.want, tc.want.Kind())
			}
		})
	}
}

func TestValueOfRejects(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	s := struct{ A int }{1}
	for _, tc := range []struct {
		name string
		in   any
		want wire.ValueOfError
	}{
		{"uint64 above int64", uint64(math.MaxInt64) + 1, wire.ValueOfError{Type: "uint64", Msg: "9223372036854775808 (uint64) is above the int64 range"}},
		{"map", map[string]int{}, wire.ValueOfError{Type: "map[string]int", Msg: "unsupported type map[string]int"}},
		{"struct in a list", []any{1, []any{2, s}}, wire.ValueOfError{Path: "[1][1]", Type: "struct { A int }", Msg: "unsupported type struct { A int }"}},
		{"pointer to struct", &s, wire.ValueOfError{Type: "struct { A int }", Msg: "unsupported type struct { A int }"}},
		{"complex", complex(1, 2), wire.ValueOfError{Type: "complex128", Msg: "unsupported type complex128"}},
		{"func", func() {}, wire.ValueOfError{Type: "func()", Msg: "unsupported type func()"}},
		{"channel in typed slice", []chan int{nil}, wire.ValueOfError{Path: "[0]", Type: "chan int", Msg: "unsupported type chan int"}},
		{"bytes", []byte("ab"), wire.ValueOfError{Type: "[]uint8", Msg: "unsupported type []uint8: bytes may be text or numbers; convert to string or []int"}},
		{"json.Number invalid", json.Number("1.2.3"), wire.ValueOfError{Type: "json.Number", Msg: `json.Number "1.2.3": not a JSON number`}},
		{"json.Number empty", json.Number(""), wire.ValueOfError{Type: "json.Number", Msg: `json.Number "": not a JSON number`}},
		{"json.Number leading zero", []any{json.Number("01")}, wire.ValueOfError{Path: "[0]", Type: "json.Number", Msg: `json.Number "01": not a JSON number`}},
		{"json.Number NaN", json.Number("NaN"), wire.ValueOfError{Type: "json.Number", Msg: `json.Number "NaN": not a JSON number`}},
		{"json.Number int overflow", json.Number("9223372036854775808"), wire.ValueOfError{Type: "json.Number", Msg: `json.Number "9223372036854775808": integer out of int64 range`}},
		{"json.Number float overflow", json.Number("1e999"), wire.ValueOfError{Type: "json.Number", Msg: `json.Number "1e999": out of float64 range`}},
		{"cycle", cyclic, wire.ValueOfError{Path: strings.Repeat("[0]", 32), Type: "[]interface {}", Msg: "lists nested deeper than 32"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := wire.ValueOf(tc.in)
			var ve *wire.ValueOfError
			if !errors.As(err, &ve) {
				t.Fatalf("ValueOf = %v, %v; want a *wire.ValueOfError", v, err)
			}
			if d := cmp.Diff(tc.want, *ve); d != "" {
				t.Fatalf("error (-want +got):\n%s", d)
			}
			if !strings.HasPrefix(err.Error(), "wire: ValueOf: ") || !strings.Contains(err.Error(), tc.want.Msg) {
				t.Fatalf("Error() = %q", err.Error())
			}
		})
	}
}

// A value built by ValueOf goes into a response and through the codecs'
// canonical JSON unchanged.
func TestValueOfInResponse(t *testing.T) {
	tags, err := wire.ValueOf([]string{"go", "graphs"})
	if err != nil {
		t.Fatal(err)
	}
	score, err := wire.ValueOf(float32(0.5))
	if err != nil {
		t.Fatal(err)
	}
	r := &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "Project", ID: 1, Properties: []wire.Property{wire.Prop("tags", tags), wire.Prop("score", score)}}}}
	b, err := wire.AppendJSON(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format_version":"1","query_type":"search","nodes":[{"type":"Project","id":"1","tags":["go","graphs"],"score":0.5}],"edges":[]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	back, err := wire.DecodeJSON(b, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, back, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}
