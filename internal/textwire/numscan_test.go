package textwire

import (
	"strconv"
	"strings"
	"testing"
)

func TestScanNumber(t *testing.T) {
	tests := []struct {
		in      string
		end     int
		isFloat bool
		ok      bool
	}{
		{"0", 1, false, true},
		{"-12", 3, false, true},
		{"1.5e-3", 6, true, true},
		{"2E+10", 5, true, true},
		{"01", 1, false, true}, // a literal ends after the 0
		{"12,3", 2, false, true},
		{"-", 1, false, false},
		{"+1", 0, false, false},
		{"1.", 2, false, false},
		{"1e", 2, false, false},
		{".5", 0, false, false},
	}
	for _, tt := range tests {
		end, isFloat, ok := ScanNumber(tt.in, 0)
		if end != tt.end || isFloat != tt.isFloat || ok != tt.ok {
			t.Errorf("ScanNumber(%q) = %d, %v, %v; want %d, %v, %v", tt.in, end, isFloat, ok, tt.end, tt.isFloat, tt.ok)
		}
		if bend, _, bok := ScanNumber([]byte(tt.in), 0); bend != end || bok != ok {
			t.Errorf("ScanNumber([]byte(%q)) differs from the string form", tt.in)
		}
	}
}

func TestNumericLike(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "05": true, "+1": true, "-1.50": true, "1e5": true, "1E-05": true,
		"": false, "-": false, "1.": false, ".5": false, "1e": false, "0x10": false, "1_000": false, "12a": false,
	} {
		if got := NumericLike(s); got != want {
			t.Errorf("NumericLike(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestAppendShortest: the shortest text reads back as the float, and
// AppendFloat is it with ".0" where it would read as an integer.
func TestAppendShortest(t *testing.T) {
	for _, f := range []float64{0, 1, -2.5, 1e-7, 1e21, 123456789e15, 5e-324, 1.7976931348623157e308, 0.000001} {
		s := string(AppendShortest(nil, f))
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != f {
			t.Errorf("AppendShortest(%g) = %s, reads back as %g (%v)", f, s, back, err)
		}
		want := s
		if !strings.ContainsAny(s, ".e") {
			want += ".0"
		}
		if got := string(AppendFloat(nil, f)); got != want {
			t.Errorf("AppendFloat(%g) = %s, want %s", f, got, want)
		}
	}
	if got := string(AppendShortest(nil, 1e-7)); got != "1e-7" {
		t.Errorf("AppendShortest(1e-7) = %s, want 1e-7", got)
	}
}
