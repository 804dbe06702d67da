package jsonvalue

import (
	"math"
	"testing"
)

func TestNumberString(t *testing.T) {
	tests := []struct {
		n    Number
		want string
	}{
		{Int(0), "0"},
		{Int(-42), "-42"},
		{Int(9007199254740993), "9007199254740993"},
		{Int(math.MinInt64), "-9223372036854775808"},
		{Float(0), "0"},
		{Float(math.Copysign(0, -1)), "0"},
		{Float(1), "1"},
		{Float(1.5), "1.5"},
		{Float(0.1), "0.1"},
		{Float(1e6), "1000000"},
		{Float(1e20), "100000000000000000000"},
		{Float(1e21), "1e+21"},
		{Float(-1.5e21), "-1.5e+21"},
		{Float(1.7976931348623157e308), "1.7976931348623157e+308"},
		{Float(1e-6), "0.000001"},
		{Float(1.5e-6), "0.0000015"},
		{Float(1e-7), "1e-7"},
		{Float(1.5e-7), "1.5e-7"},
		{Float(5e-324), "5e-324"},
		{Float(123456789012345680000), "123456789012345680000"},
		{Float(18014398509482032), "18014398509482032"}, // exact digits; JavaScript writes 18014398509482030
		{Float(9007199254740992), "9007199254740992"},
		{Float(math.NaN()), "null"},
		{Float(math.Inf(-1)), "null"},
	}
	for _, tt := range tests {
		if got := tt.n.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestParseNumber(t *testing.T) {
	for _, tt := range []struct {
		in    string
		want  Number
		isInt bool
		bad   bool
	}{
		{in: "0", want: Int(0), isInt: true},
		{in: "-0", want: Int(0), isInt: true},
		{in: "-0.0", want: Float(0)},
		{in: "9223372036854775807", want: Int(math.MaxInt64), isInt: true},
		{in: "9223372036854775808", want: Float(9223372036854775808)},
		{in: "1.0", want: Float(1)},
		{in: "1E+2", want: Float(100)},
		{in: "05", bad: true},
		{in: "+1", bad: true},
		{in: ".5", bad: true},
		{in: "1.", bad: true},
		{in: "1e400", bad: true},
		{in: "", bad: true},
	} {
		n, err := ParseNumber(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseNumber(%q) = %v, want an error", tt.in, n)
			}
			continue
		}
		if err != nil || !n.Equal(tt.want) || n.IsInt() != tt.isInt {
			t.Errorf("ParseNumber(%q) = %v (int %v), %v; want %v (int %v)", tt.in, n, n.IsInt(), err, tt.want, tt.isInt)
		}
	}
	if Int(1).Equal(Float(1.5)) || !Int(3).Equal(Float(3)) || Float(math.NaN()).Equal(Float(math.NaN())) {
		t.Error("Number.Equal compares by value")
	}
}

func TestObject(t *testing.T) {
	o := NewObject(2)
	o.Set("a", Int(1))
	o.Set("b", "x")
	o.Set("a", Int(2))
	if v, ok := o.Get("a"); !ok || !Equal(v, Int(2)) || o.Len() != 2 || o.Members[0].Key != "a" {
		t.Errorf("Set keeps the first position and the last value: %+v", o.Members)
	}
	if _, ok := o.Get("missing"); ok {
		t.Error("Get of a missing key")
	}
	var nilObj *Object
	if nilObj.Len() != 0 || !Equal(nilObj, nil) {
		t.Error("a nil *Object is null")
	}
}
