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
// and operation, then the median speed-up of each codec against
// encoding/json over the cases.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s %s/%s, %d CPUs, %v per measurement; timings vary from run to run.\n\n", r.GoVersion, r.GOOS, r.GOARCH, r.CPUs, r.Budget)
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
	fmt.Fprintf(w, "\nMedian speed-up against %s over %d case(s) (above 1× is faster):\n\n", Reference, r.cases())
	rows = nil
	for _, codec := range r.codecs() {
		rows = append(rows, []string{codec, speedup(r.MedianSpeedup(codec, Encode)), speedup(r.MedianSpeedup(codec, Decode))})
	}
	return table(w, []string{"codec", "encode", "decode"}, rows, 1)
}

// MedianSpeedup is the median over cases of codec's speed-up against the
// reference for op; 0 when there is no measurement.
func (r *Report) MedianSpeedup(codec, op string) float64 {
	var xs []float64
	for _, m := range r.Measurements {
		if m.Codec == codec && m.Op == op {
			xs = append(xs, m.Speedup)
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
