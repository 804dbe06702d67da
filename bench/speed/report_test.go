package speed

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fixedReport is a report of three cases with round timings: sonic takes
// 100 ns per op everywhere; json 50, 200 and 80 ns to encode (2, 0.5 and
// 1.25 × sonic's MB/s) and 100, 100 and 400 to decode.
func fixedReport() *Report {
	rep := &Report{GoVersion: "go1.26", GOOS: "linux", GOARCH: "amd64", CPUs: 2, Budget: time.Millisecond}
	add := func(codec, c, op string, ns, allocs float64) {
		rep.Measurements = append(rep.Measurements, Measurement{
			Codec: codec, Case: c, Op: op, Bytes: 1000, CanonicalBytes: 1000, Iterations: 1,
			NsPerOp: ns, MBPerSec: 1000 / ns * 1e3, AllocsPerOp: allocs, Speedup: 1,
		})
	}
	for i, c := range []string{"a", "b", "c"} {
		add(Sonic, c, Encode, 100, 3)
		add(Sonic, c, Decode, 100, float64(100*(i+1)))
		add("json", c, Encode, []float64{50, 200, 80}[i], 1)
		add("json", c, Decode, []float64{100, 100, 400}[i], []float64{12, 40_000, 9}[i])
	}
	rep.fillVsSonic()
	rep.Medians = rep.medians()
	return rep
}

// The medians table gives, per row, the median over the cases of its
// MB/s ÷ sonic's on the same case and of its allocations per operation,
// beside MB/s and the speed-up against encoding/json; the -json output
// carries the same numbers.
func TestMediansAgainstSonic(t *testing.T) {
	rep := fixedReport()
	want := []Median{
		{Codec: Sonic, Cases: 3, EncodeMBPerSec: 10_000, DecodeMBPerSec: 10_000, EncodeVsEncodingJSON: 1, DecodeVsEncodingJSON: 1,
			EncodeVsSonic: 1, DecodeVsSonic: 1, EncodeAllocs: 3, DecodeAllocs: 200},
		{Codec: "json", Cases: 3, EncodeMBPerSec: 12_500, DecodeMBPerSec: 10_000, EncodeVsEncodingJSON: 1, DecodeVsEncodingJSON: 1,
			EncodeVsSonic: 1.25, DecodeVsSonic: 1, EncodeAllocs: 1, DecodeAllocs: 12},
	}
	if d := cmp.Diff(want, rep.Medians); d != "" {
		t.Errorf("medians (-want +got):\n%s", d)
	}
	if got := rep.Measurements[11].VsSonic; got != 1.0/4 { // json decode of c: 400 ns against 100
		t.Errorf("json decode of c: %v × sonic, want 0.25", got)
	}

	var tab bytes.Buffer
	if err := rep.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	_, medians, ok := strings.Cut(tab.String(), "allocations per operation:\n\n")
	if !ok {
		t.Fatalf("no medians table:\n%s", tab.String())
	}
	wantTable := `| codec           | encode MB/s | decode MB/s | encode vs encoding/json | decode vs encoding/json | encode ÷ sonic | decode ÷ sonic | encode allocs | decode allocs |
|:----------------|------------:|------------:|------------------------:|------------------------:|---------------:|---------------:|--------------:|--------------:|
| bytedance/sonic |     10000.0 |     10000.0 |                   1.00× |                   1.00× |           1.00 |           1.00 |           3.0 |           200 |
| json            |     12500.0 |     10000.0 |                   1.00× |                   1.00× |           1.25 |           1.00 |           1.0 |            12 |
`
	if d := cmp.Diff(wantTable, medians); d != "" {
		t.Errorf("medians table (-want +got):\n%s", d)
	}
	if !strings.Contains(tab.String(), "| ÷ sonic |") || !strings.Contains(tab.String(), "|    0.25 |") {
		t.Errorf("the per-case table lacks the ratio to sonic:\n%s", tab.String())
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rep.Medians, back.Medians); d != "" {
		t.Errorf("-json medians (-table +json):\n%s", d)
	}
	for _, key := range []string{`"encode_ratio_vs_sonic": 1.25`, `"decode_allocs_per_op": 12`, `"ratio_vs_sonic": 0.25`} {
		if !strings.Contains(js.String(), key) {
			t.Errorf("-json output lacks %s", key)
		}
	}
}
