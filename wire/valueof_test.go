package wire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

type userID int64
type label string

var when = time.Date(2025, 6, 30, 12, 0, 0, 5e8, time.UTC)

// stamp embeds time.Time, and with it time.Time's MarshalJSON.
type stamp struct{ time.Time }

// level is an integer type with a text form.
type level int

func (l level) MarshalText() ([]byte, error) {
	if l >= 2 {
		return []byte("high"), nil
	}
	return []byte("low"), nil
}

// upper is a string type whose text differs from its string.
type upper string

func (u upper) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(u))), nil }

// ptrText has MarshalText on its pointer only.
type ptrText struct{ s string }

func (p *ptrText) MarshalText() ([]byte, error) { return []byte("<" + p.s + ">"), nil }

// ptrJSON has MarshalJSON on its pointer only.
type ptrJSON struct{ n int }

func (p *ptrJSON) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(p.n)), nil }

// both has MarshalJSON and MarshalText; encoding/json uses MarshalJSON.
type both struct{}

func (both) MarshalJSON() ([]byte, error) { return []byte("1"), nil }
func (both) MarshalText() ([]byte, error) { return []byte("text"), nil }

// rawJSON writes itself as its JSON.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// wrapped holds one value in a list.
type wrapped []any

var (
	errFailing = errors.New("cannot marshal")
	errAny     = errors.New("any error")
)

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errFailing }

type textFailing struct{}

func (textFailing) MarshalText() ([]byte, error) { return nil, errFailing }

// loop is a pointer type that can point to itself.
type loop *loop

func selfLoop() loop {
	var l loop
	l = &l
	return l
}

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
		{"float32 as encoding/json writes it", float32(0.1), wire.Float(0.1)},
		{"float32 large", float32(16777217), wire.Float(16777216)},
		{"float32 smallest", float32(math.SmallestNonzeroFloat32), wire.Float(1e-45)},
		{"float32 infinity", float32(math.Inf(-1)), wire.Float(math.Inf(-1))},
		{"float32 negative zero", float32(math.Copysign(0, -1)), wire.Float(math.Copysign(0, -1))},
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
		{"nil []string", nilSlice, wire.Null()},
		{"empty []string", []string{}, wire.ListOf()},
		{"[][]float64", [][]float64{{1}, {}}, wire.ListOf(wire.ListOf(wire.Float(1)), wire.ListOf())},
		{"array", [2]uint16{3, 4}, wire.ListOf(wire.Int(3), wire.Int(4))},
		{"[]any holding nil any", []any{nilAny, &one}, wire.ListOf(wire.Null(), wire.Int(1))},
		{"[]wire.Value", []wire.Value{wire.Float(1)}, wire.ListOf(wire.Float(1))},
		{"nil []any", []any(nil), wire.Null()},
		{"nil slice in a list", []any{[]int(nil), []int{}}, wire.ListOf(wire.Null(), wire.ListOf())},
		{"empty array", [0]int{}, wire.ListOf()},
		{"time.Time UTC", time.Date(2024, 1, 2, 3, 4, 5, 600, time.UTC), wire.String("2024-01-02T03:04:05.0000006Z")},
		{"time.Time whole second, offset", time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("", 2*3600)), wire.String("2024-01-02T03:04:05+02:00")},
		{"*time.Time", &when, wire.String("2025-06-30T12:00:00.5Z")},
		{"nil *time.Time", (*time.Time)(nil), wire.Null()},
		{"[]time.Time", []time.Time{when}, wire.ListOf(wire.String("2025-06-30T12:00:00.5Z"))},
		{"struct embedding time.Time", stamp{when}, wire.String("2025-06-30T12:00:00.5Z")},
		{"TextMarshaler", level(2), wire.String("high")},
		{"TextMarshaler on a string type", upper("go"), wire.String("GO")},
		{"TextMarshaler pointer receiver, by value", ptrText{"x"}, wire.String("<x>")},
		{"TextMarshaler pointer receiver, by pointer", &ptrText{"y"}, wire.String("<y>")},
		{"TextMarshaler in a slice", []level{0, 2}, wire.ListOf(wire.String("low"), wire.String("high"))},
		{"nil TextMarshaler pointer", (*ptrText)(nil), wire.Null()},
		{"net.IP", net.IPv4(192, 0, 2, 1), wire.String("192.0.2.1")},
		{"MarshalJSON before MarshalText", both{}, wire.Int(1)},
		{"MarshalJSON int", rawJSON(`7`), wire.Int(7)},
		{"MarshalJSON float", rawJSON(` 7.0 `), wire.Float(7)},
		{"MarshalJSON list", rawJSON(`[null,"a",[true]]`), wire.ListOf(wire.Null(), wire.String("a"), wire.ListOf(wire.Bool(true)))},
		{"json.RawMessage", json.RawMessage(`[1,2.5]`), wire.ListOf(wire.Int(1), wire.Float(2.5))},
		{"MarshalJSON pointer receiver, by value", ptrJSON{3}, wire.Int(3)},
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
		name  string
		in    any
		want  wire.ValueOfError
		cause error // the method's error Err holds: errors.Is finds it; errAny for any non-nil error
	}{
		{"uint64 above int64", uint64(math.MaxInt64) + 1, wire.ValueOfError{Func: "ValueOf", Type: "uint64", Msg: "9223372036854775808 (uint64) is above the int64 range"}, nil},
		{"map", map[string]int{}, wire.ValueOfError{Func: "ValueOf", Type: "map[string]int", Msg: "unsupported type map[string]int"}, nil},
		{"struct in a list", []any{1, []any{2, s}}, wire.ValueOfError{Func: "ValueOf", Path: "[1][1]", Type: "struct { A int }", Msg: "unsupported type struct { A int }"}, nil},
		{"pointer to struct", &s, wire.ValueOfError{Func: "ValueOf", Type: "struct { A int }", Msg: "unsupported type struct { A int }"}, nil},
		{"complex", complex(1, 2), wire.ValueOfError{Func: "ValueOf", Type: "complex128", Msg: "unsupported type complex128"}, nil},
		{"func", func() {}, wire.ValueOfError{Func: "ValueOf", Type: "func()", Msg: "unsupported type func()"}, nil},
		{"channel in typed slice", []chan int{nil}, wire.ValueOfError{Func: "ValueOf", Path: "[0]", Type: "chan int", Msg: "unsupported type chan int"}, nil},
		{"bytes", []byte("ab"), wire.ValueOfError{Func: "ValueOf", Type: "[]uint8", Msg: "unsupported type []uint8: bytes may be text or numbers; convert to string or []int"}, nil},
		{"json.Number invalid", json.Number("1.2.3"), wire.ValueOfError{Func: "ValueOf", Type: "json.Number", Msg: `json.Number "1.2.3": not a JSON number`}, nil},
		{"json.Number empty", json.Number(""), wire.ValueOfError{Func: "ValueOf", Type: "json.Number", Msg: `json.Number "": not a JSON number`}, nil},
		{"json.Number leading zero", []any{json.Number("01")}, wire.ValueOfError{Func: "ValueOf", Path: "[0]", Type: "json.Number", Msg: `json.Number "01": not a JSON number`}, nil},
		{"json.Number NaN", json.Number("NaN"), wire.ValueOfError{Func: "ValueOf", Type: "json.Number", Msg: `json.Number "NaN": not a JSON number`}, nil},
		{"json.Number int overflow", json.Number("9223372036854775808"), wire.ValueOfError{Func: "ValueOf", Type: "json.Number", Msg: `json.Number "9223372036854775808": integer out of int64 range`}, nil},
		{"json.Number float overflow", json.Number("1e999"), wire.ValueOfError{Func: "ValueOf", Type: "json.Number", Msg: `json.Number "1e999": out of float64 range`}, nil},
		{"cycle", cyclic, wire.ValueOfError{Func: "ValueOf", Path: strings.Repeat("[0]", 32), Type: "[]interface {}", Msg: "lists nested deeper than 32"}, nil},
		{"pointer cycle", selfLoop(), wire.ValueOfError{Func: "ValueOf", Type: "wire_test.loop", Msg: "pointers or lists nested deeper than 32"}, nil},
		{"nil []byte", []byte(nil), wire.ValueOfError{Func: "ValueOf", Type: "[]uint8", Msg: "unsupported type []uint8: bytes may be text or numbers; convert to string or []int"}, nil},
		{"byte array", [2]byte{1, 2}, wire.ValueOfError{Func: "ValueOf", Type: "[2]uint8", Msg: "unsupported type [2]uint8: bytes may be text or numbers; convert to string or []int"}, nil},
		{"unsafe pointer", unsafe.Pointer(nil), wire.ValueOfError{Func: "ValueOf", Type: "unsafe.Pointer", Msg: "unsupported type unsafe.Pointer"}, nil},
		{"time year 10000", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), wire.ValueOfError{Func: "ValueOf", Type: "time.Time", Msg: "time.Time has no RFC 3339 form"}, errAny},
		{"time in a list", []time.Time{time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}, wire.ValueOfError{Func: "ValueOf", Path: "[0]", Type: "time.Time", Msg: "time.Time has no RFC 3339 form"}, errAny},
		{"MarshalJSON fails", failing{}, wire.ValueOfError{Func: "ValueOf", Type: "wire_test.failing", Msg: "MarshalJSON of wire_test.failing failed"}, errFailing},
		{"MarshalText fails", []any{textFailing{}}, wire.ValueOfError{Func: "ValueOf", Path: "[0]", Type: "wire_test.textFailing", Msg: "MarshalText of wire_test.textFailing failed"}, errFailing},
		{"MarshalJSON writes an object", rawJSON(`{"a":1}`), wire.ValueOfError{Func: "ValueOf", Type: "wire_test.rawJSON", Msg: "MarshalJSON of wire_test.rawJSON wrote what a Value cannot hold"}, errAny},
		{"MarshalJSON writes bad JSON", rawJSON(`[1,`), wire.ValueOfError{Func: "ValueOf", Type: "wire_test.rawJSON", Msg: "MarshalJSON of wire_test.rawJSON wrote what a Value cannot hold"}, errAny},
		{"MarshalJSON nests too deep", wrapped{rawJSON(strings.Repeat("[", 32) + strings.Repeat("]", 32))}, wire.ValueOfError{Func: "ValueOf", Path: "[0]", Type: "wire_test.rawJSON", Msg: "pointers or lists nested deeper than 32"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := wire.ValueOf(tc.in)
			var ve *wire.ValueOfError
			if !errors.As(err, &ve) {
				t.Fatalf("ValueOf = %v, %v; want a *wire.ValueOfError", v, err)
			}
			got := *ve
			switch {
			case tc.cause == nil && got.Err != nil:
				t.Fatalf("Err = %v, want nil", got.Err)
			case tc.cause == errAny && got.Err == nil, tc.cause != nil && tc.cause != errAny && !errors.Is(err, tc.cause):
				t.Fatalf("Err = %v, want %v", got.Err, tc.cause)
			}
			got.Err = nil
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("error (-want +got):\n%s", d)
			}
			if !strings.HasPrefix(err.Error(), "wire: ValueOf: ") || !strings.Contains(err.Error(), tc.want.Msg) {
				t.Fatalf("Error() = %q", err.Error())
			}
		})
	}
}

// ValueOf gives the value encoding/json writes for the same Go value.
func TestValueOfMatchesEncodingJSON(t *testing.T) {
	seven := 7
	var nilPtr *int
	for _, in := range []any{
		nil, true, false, -3, int8(-128), uint32(math.MaxUint32), int64(math.MinInt64), uint64(math.MaxInt64),
		1.0, 1e21, 1e-7, -0.5, float32(0.1), float32(3.4e38), float32(1e-45), float32(16777217),
		"", "a<b>&\u2028\"", label("named"),
		json.Number("12"), json.Number("1.50"), json.Number("-1e3"),
		when, time.Date(2024, 2, 29, 23, 59, 59, 123456789, time.FixedZone("", -7*3600-30*60)), &when, (*time.Time)(nil),
		level(2), upper("go"), &ptrText{"p"}, net.IPv6loopback, both{}, rawJSON(`[1, 1.0, "x"]`), json.RawMessage(`12`),
		[]string(nil), []string{}, [][]int{{1}, nil, {}}, [2]int{3, 4}, [0]string{},
		&seven, nilPtr, []any{nil, 1, 2.5, "s", []any{}, []int(nil), when, level(0)},
		[]*int{&seven, nil}, []float32{0.1, 0.2},
	} {
		t.Run(fmt.Sprintf("%T", in), func(t *testing.T) {
			b, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			d := json.NewDecoder(bytes.NewReader(b))
			d.UseNumber()
			var j any
			if err := d.Decode(&j); err != nil {
				t.Fatal(err)
			}
			v, err := wire.ValueOf(in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := sameAsJSON(v, j); diff != "" {
				t.Fatalf("ValueOf(%#v)%s\nencoding/json: %s", in, diff, b)
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
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format_version":"1","query_type":"search","nodes":[{"type":"Project","id":"1","tags":["go","graphs"],"score":0.5}],"edges":[]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	back, err := jsoncodec.DecodeWithin(b, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, back, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}
