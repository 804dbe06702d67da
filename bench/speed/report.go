package speed

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/bench/internal/mdtable"
)

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes the report as markdown tables: one row per case, codec
// and operation, then each row's medians over the cases (Report.Medians):
// MB/s, the speed-up against encoding/json on typed structs, the ratio to
// bytedance/sonic, and allocations per operation. Numbers are printed
// with a fixed number of decimals, so two reports differ only where the
// measurements do.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s %s/%s, %d CPUs, %v per measurement, the fastest of %d round(s); timings vary from run to run.\n", r.GoVersion, r.GOOS, r.GOARCH, r.CPUs, r.Budget, max(r.Rounds, 1))
	fmt.Fprintf(w, "MB/s is the case's canonical JSON size ÷ time, for every row (one yardstick). %s and the JSON libraries %s and %s work on typed structs that mirror the canonical JSON; %s on map[string]any.\n\n", Reference, GoJSON, Sonic, ReferenceGeneric)
	var rows [][]string
	for _, m := range r.Measurements {
		rows = append(rows, []string{
			m.Case, m.Codec, m.Op, group(int64(m.Bytes)), group(int64(m.NsPerOp + 0.5)),
			mbps(m.MBPerSec), allocs(m.AllocsPerOp),
			group(int64(m.BytesPerOp + 0.5)), speedup(m.Speedup), ratio(m.VsSonic),
		})
	}
	if err := table(w, []string{"case", "codec", "op", "bytes", "ns/op", "MB/s", "allocs/op", "B/op", "vs encoding/json", "÷ sonic"}, rows, 3); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nMedians over %d case(s), per row: MB/s of canonical JSON; speed-up against %s on typed structs (above 1× is faster); MB/s ÷ %s's MB/s on the same case (at or above 1.00 is at least as fast); allocations per operation:\n\n", r.cases(), Reference, Sonic)
	rows = nil
	for _, m := range r.medians() {
		rows = append(rows, []string{
			m.Codec,
			mbps(m.EncodeMBPerSec), mbps(m.DecodeMBPerSec),
			speedup(m.EncodeVsEncodingJSON), speedup(m.DecodeVsEncodingJSON),
			ratio(m.EncodeVsSonic), ratio(m.DecodeVsSonic),
			allocs(m.EncodeAllocs), allocs(m.DecodeAllocs),
		})
	}
	if err := table(w, []string{"codec", "encode MB/s", "decode MB/s", "encode vs encoding/json", "decode vs encoding/json",
		"encode ÷ sonic", "decode ÷ sonic", "encode allocs", "decode allocs"}, rows, 1); err != nil {
		return err
	}
	if len(r.Failures) > 0 {
		fmt.Fprintf(w, "\nNot measured: %d decode(s) whose codec rejects its own output:\n\n", len(r.Failures))
		rows = nil
		for _, f := range r.Failures {
			rows = append(rows, []string{f.Case, f.Codec, f.Op, f.Err})
		}
		return table(w, []string{"case", "codec", "op", "error"}, rows, 4)
	}
	return nil
}

// Median is one row's medians over the cases it was measured on, each
// the median of that field of its Measurements for the operation (0 when
// there is none).
type Median struct {
	Codec string `json:"codec"`
	// Cases is the number of cases measured (encode; a decode its
	// codec could not measure is in Failures).
	Cases                int     `json:"cases"`
	EncodeMBPerSec       float64 `json:"encode_mb_per_s"`
	DecodeMBPerSec       float64 `json:"decode_mb_per_s"`
	EncodeVsEncodingJSON float64 `json:"encode_speedup_vs_encoding_json"`
	DecodeVsEncodingJSON float64 `json:"decode_speedup_vs_encoding_json"`
	// EncodeVsSonic and DecodeVsSonic are the medians over the cases of
	// the row's MB/s ÷ bytedance/sonic's MB/s on the same case.
	EncodeVsSonic float64 `json:"encode_ratio_vs_sonic"`
	DecodeVsSonic float64 `json:"decode_ratio_vs_sonic"`
	// EncodeAllocs and DecodeAllocs are the medians of allocations per
	// operation.
	EncodeAllocs float64 `json:"encode_allocs_per_op"`
	DecodeAllocs float64 `json:"decode_allocs_per_op"`
}

// medians computes Medians from Measurements.
func (r *Report) medians() []Median {
	var out []Median
	for _, codec := range r.codecs() {
		m := Median{Codec: codec}
		for _, x := range r.Measurements {
			if x.Codec == codec && x.Op == Encode {
				m.Cases++
			}
		}
		m.EncodeMBPerSec, m.DecodeMBPerSec = r.MedianMBPerSec(codec, Encode), r.MedianMBPerSec(codec, Decode)
		m.EncodeVsEncodingJSON, m.DecodeVsEncodingJSON = r.MedianSpeedup(codec, Encode), r.MedianSpeedup(codec, Decode)
		vsSonic := func(x Measurement) float64 { return x.VsSonic }
		m.EncodeVsSonic, m.DecodeVsSonic = r.median(codec, Encode, vsSonic), r.median(codec, Decode, vsSonic)
		allocs := func(x Measurement) float64 { return x.AllocsPerOp }
		m.EncodeAllocs, m.DecodeAllocs = r.median(codec, Encode, allocs), r.median(codec, Decode, allocs)
		out = append(out, m)
	}
	return out
}

// fillVsSonic sets each measurement's VsSonic from sonic's measurement of
// the same case and operation.
func (r *Report) fillVsSonic() {
	type key struct{ c, op string }
	sonicNs := map[key]float64{}
	for _, m := range r.Measurements {
		if m.Codec == Sonic {
			sonicNs[key{m.Case, m.Op}] = m.NsPerOp
		}
	}
	for i := range r.Measurements {
		m := &r.Measurements[i]
		if ns, ok := sonicNs[key{m.Case, m.Op}]; ok && m.NsPerOp > 0 {
			m.VsSonic = ns / m.NsPerOp
		}
	}
}

// ratio formats a ratio to sonic: 0.79.
func ratio(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// allocs formats allocations per operation: whole numbers with
// thousands separators, one decimal below 10 (a median of two cases may
// fall between whole numbers).
func allocs(x float64) string {
	if x < 10 {
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return group(int64(x + 0.5))
}

func mbps(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// MedianMBPerSec is the median over cases of codec's MB/s (of canonical
// JSON) for op; 0 when there is no measurement.
func (r *Report) MedianMBPerSec(codec, op string) float64 {
	return r.median(codec, op, func(m Measurement) float64 { return m.MBPerSec })
}

// MedianSpeedup is the median over cases of codec's speed-up against the
// reference for op; 0 when there is no measurement.
func (r *Report) MedianSpeedup(codec, op string) float64 {
	return r.median(codec, op, func(m Measurement) float64 { return m.Speedup })
}

func (r *Report) median(codec, op string, field func(Measurement) float64) float64 {
	var xs []float64
	for _, m := range r.Measurements {
		if m.Codec == codec && m.Op == op {
			xs = append(xs, field(m))
		}
	}
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

func (r *Report) codecs() []string {
	var out []string
	for _, m := range r.Measurements {
		if !slices.Contains(out, m.Codec) {
			out = append(out, m.Codec)
		}
	}
	return out
}

func (r *Report) cases() int {
	seen := map[string]bool{}
	for _, m := range r.Measurements {
		seen[m.Case] = true
	}
	return len(seen)
}

func speedup(x float64) string {
	return strconv.FormatFloat(x, 'f', 2, 64) + "×"
}

// group formats n with thousands separators.
func group(n int64) string { return mdtable.Group(n) }

func table(w io.Writer, head []string, rows [][]string, leftCols int) error {
	if err := mdtable.Render(w, head, rows, leftCols); err != nil {
		return fmt.Errorf("speed: %w", err)
	}
	return nil
}
