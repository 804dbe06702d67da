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
// and operation, then each row's medians over the cases: MB/s and the
// speed-up against encoding/json on typed structs.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s %s/%s, %d CPUs, %v per measurement; timings vary from run to run.\n", r.GoVersion, r.GOOS, r.GOARCH, r.CPUs, r.Budget)
	fmt.Fprintf(w, "MB/s is the case's canonical JSON size ÷ time, for every row (one yardstick). %s and the JSON libraries %s and %s work on typed structs that mirror the canonical JSON; %s on map[string]any.\n\n", Reference, GoJSON, Sonic, ReferenceGeneric)
	var rows [][]string
	for _, m := range r.Measurements {
		rows = append(rows, []string{
			m.Case, m.Codec, m.Op, group(int64(m.Bytes)), group(int64(m.NsPerOp + 0.5)),
			strconv.FormatFloat(m.MBPerSec, 'f', 1, 64), strconv.FormatFloat(m.AllocsPerOp, 'f', 0, 64),
			group(int64(m.BytesPerOp + 0.5)), speedup(m.Speedup),
		})
	}
	if err := table(w, []string{"case", "codec", "op", "bytes", "ns/op", "MB/s", "allocs/op", "B/op", "vs encoding/json"}, rows, 3); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nMedians over %d case(s): MB/s of canonical JSON, and speed-up against %s on typed structs (above 1× is faster):\n\n", r.cases(), Reference)
	rows = nil
	for _, codec := range r.codecs() {
		rows = append(rows, []string{
			codec,
			mbps(r.MedianMBPerSec(codec, Encode)), mbps(r.MedianMBPerSec(codec, Decode)),
			speedup(r.MedianSpeedup(codec, Encode)), speedup(r.MedianSpeedup(codec, Decode)),
		})
	}
	if err := table(w, []string{"codec", "encode MB/s", "decode MB/s", "encode vs encoding/json", "decode vs encoding/json"}, rows, 1); err != nil {
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
