package speed

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

func smallCases(t testing.TB) []corpus.Case {
	t.Helper()
	var out []corpus.Case
	for _, c := range corpus.Generate() {
		if strings.HasSuffix(c.Name, "_s") {
			out = append(out, c)
		}
	}
	return out
}

func TestRun(t *testing.T) {
	cases := smallCases(t)
	var progress []string
	rep, err := Run(cases, Options{Budget: time.Millisecond, Progress: func(done, total int, what string) {
		if done != len(progress) {
			t.Errorf("progress done = %d, want %d", done, len(progress))
		}
		progress = append(progress, what)
	}})
	if err != nil {
		t.Fatal(err)
	}
	codecs := len(wire.List())
	want := len(cases) * (codecs + len(jsonLibs)) * 2
	if len(rep.Measurements) != want || len(progress) != want {
		t.Fatalf("%d measurements, %d progress calls; want %d", len(rep.Measurements), len(progress), want)
	}
	for i, m := range rep.Measurements {
		if m.Iterations < 1 || m.NsPerOp <= 0 || m.Bytes <= 0 || m.MBPerSec <= 0 || m.Speedup <= 0 || m.VsSonic <= 0 {
			t.Errorf("measurement %d implausible: %+v", i, m)
		}
		// One yardstick: MB/s is the canonical JSON's size over the time.
		if got := float64(m.CanonicalBytes) / m.NsPerOp * 1e3; m.MBPerSec != got {
			t.Errorf("measurement %d: %v MB/s, want canonical bytes ÷ time = %v", i, m.MBPerSec, got)
		}
		if m.Codec == "json" && m.Bytes != m.CanonicalBytes {
			t.Errorf("measurement %d: json encodes %d bytes, canonical size %d", i, m.Bytes, m.CanonicalBytes)
		}
		if m.Codec == Reference && m.Speedup != 1 {
			t.Errorf("reference speed-up %v, want 1", m.Speedup)
		}
	}
	// Order: per case, the reference first, encode before decode.
	if m := rep.Measurements[0]; m.Codec != Reference || m.Op != Encode || m.Case != cases[0].ID() {
		t.Errorf("first measurement %+v, want the reference encoding %s", m, cases[0].ID())
	}
	names := []string{Reference, ReferenceGeneric, GoJSON, Sonic}
	for _, info := range wire.List() {
		names = append(names, info.Name)
	}
	for _, n := range names {
		if rep.MedianSpeedup(n, Encode) <= 0 || rep.MedianSpeedup(n, Decode) <= 0 || rep.MedianMBPerSec(n, Encode) <= 0 || rep.MedianMBPerSec(n, Decode) <= 0 {
			t.Errorf("no medians for %s", n)
		}
	}

	if d := cmp.Diff(rep.medians(), rep.Medians); d != "" || len(rep.Medians) != len(names) {
		t.Errorf("Medians: %d rows for %d names (-computed +reported):\n%s", len(rep.Medians), len(names), d)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("-json output does not parse: %v", err)
	}
	if len(back.Measurements) != len(rep.Measurements) || back.Measurements[3] != rep.Measurements[3] {
		t.Errorf("JSON round trip lost measurements")
	}
	var tab bytes.Buffer
	if err := rep.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| case", "vs encoding/json", "Medians over", "encode MB/s", "one yardstick", "| " + Reference + " ", "| " + ReferenceGeneric, "| " + GoJSON, "| " + Sonic, "encode ÷ sonic", "decode allocs"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
}

// TestRunRounds: with Rounds, every operation is measured that many
// times, each row of a case in turn, and reported once, by its fastest
// round.
func TestRunRounds(t *testing.T) {
	cases := smallCases(t)[:1]
	var order []string
	rep, err := Run(cases, Options{Budget: time.Millisecond, Rounds: 3, Codecs: []string{"goon"},
		Progress: func(done, total int, what string) { order = append(order, what) }})
	if err != nil {
		t.Fatal(err)
	}
	rows := 1 + len(jsonLibs)
	if len(order) != 3*rows*2 || len(rep.Measurements) != rows*2 || rep.Rounds != 3 {
		t.Fatalf("%d measurements taken, %d reported, Rounds %d; want %d, %d, 3", len(order), len(rep.Measurements), rep.Rounds, 3*rows*2, rows*2)
	}
	if diff := cmp.Diff(order[:rows*2], order[rows*2:2*rows*2]); diff != "" {
		t.Fatalf("the second round does not measure the rows in the first's order (-first +second):\n%s", diff)
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil || !strings.Contains(b.String(), "the fastest of 3 round(s)") {
		t.Fatalf("the table does not say its rounds: %v\n%s", err, b.String()[:200])
	}
}

func TestRunSelectsCodecs(t *testing.T) {
	rep, err := Run(smallCases(t)[:1], Options{Budget: time.Millisecond, Codecs: []string{"RAW", "json"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range rep.Measurements {
		got = append(got, m.Codec+" "+m.Op)
	}
	want := "encoding/json encode,encoding/json decode,encoding/json-any encode,encoding/json-any decode," +
		"goccy/go-json encode,goccy/go-json decode,bytedance/sonic encode,bytedance/sonic decode,json encode,json decode"
	if strings.Join(got, ",") != want {
		t.Errorf("measured %v, want %s (an alias selects its codec once)", got, want)
	}
	if _, err := Run(smallCases(t)[:1], Options{Codecs: []string{"nope"}}); !errors.Is(err, wire.ErrUnknownCodec) {
		t.Errorf("unknown codec: %v, want ErrUnknownCodec", err)
	}
	if _, err := Run(nil, Options{}); !errors.Is(err, ErrNoCases) {
		t.Errorf("no cases: %v, want ErrNoCases", err)
	}
}

// TestJSONLibsCarryTheWholeResponse: the typed structs mirror the
// canonical JSON — what each library writes from them reads as the same
// JSON value as the canonical text, on every case of every profile — and
// each library reads its own output. It is one goroutine's work over the
// whole corpus: it skips under the race detector, and .ci/run runs it
// without.
func TestJSONLibsCarryTheWholeResponse(t *testing.T) {
	if testsupport.Race {
		t.Skip("one goroutine over the whole corpus: .ci/run runs it without -race")
	}
	for _, c := range corpus.Generate() {
		if c.Name == "traversal_xl" {
			continue
		}
		canonical, err := cjson.Encode(c.Response)
		if err != nil {
			t.Fatal(err)
		}
		var want any
		if err := json.Unmarshal(canonical, &want); err != nil {
			t.Fatal(err)
		}
		for _, lib := range jsonLibs {
			s, err := lib.subject(canonical)
			if err != nil {
				t.Fatalf("%s: %v", c.ID(), err)
			}
			out, err := s.encode()
			if err != nil {
				t.Fatalf("%s: %s: %v", c.ID(), lib.name, err)
			}
			var got any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%s: %s wrote invalid JSON: %v", c.ID(), lib.name, err)
			}
			// reflect.DeepEqual first: cmp.Diff walks a large tree many
			// times slower, and only its report is needed.
			if !reflect.DeepEqual(want, got) {
				t.Errorf("%s: %s loses part of the response (-canonical +written):\n%s", c.ID(), lib.name, cmp.Diff(want, got))
			}
			if err := s.decode(out); err != nil {
				t.Errorf("%s: %s cannot read its own output: %v", c.ID(), lib.name, err)
			}
		}
	}
}

// TestRunReportsADecoderThatRejectsItsOwnOutput: the run goes on, and the
// report names the decode it could not measure.
func TestRunReportsADecoderThatRejectsItsOwnOutput(t *testing.T) {
	boom := errors.New("cannot read this")
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(rejecting{boom})
	rep, err := Run(smallCases(t)[:1], Options{Budget: time.Millisecond, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	want := []Failure{{Codec: "rejecting", Case: smallCases(t)[0].ID(), Op: Decode, Err: boom.Error()}}
	if diff := cmp.Diff(want, rep.Failures); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if n := len(rep.Measurements); n != 2*len(jsonLibs)+1 {
		t.Errorf("%d measurements, want the JSON libraries' and the codec's encode", n)
	}
	var tab bytes.Buffer
	if err := rep.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tab.String(), "Not measured: 1 decode(s)") || !strings.Contains(tab.String(), boom.Error()) {
		t.Errorf("table does not list the failure:\n%s", tab.String())
	}
}

// rejecting is a codec whose decoder rejects everything.
type rejecting struct{ err error }

func (rejecting) Info() wire.Info {
	return wire.Info{Name: "rejecting", MediaType: "application/x-rejecting", Description: "rejects its own output", Fidelity: wire.Lossy}
}
func (rejecting) AppendEncode(dst []byte, _ *wire.GraphResponse) ([]byte, error) {
	return append(dst, 'x'), nil
}
func (c rejecting) Decode([]byte) (*wire.GraphResponse, error) { return nil, c.err }

func TestMeasureStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	_, err := measure(func() error {
		calls++
		if calls == 3 {
			return boom
		}
		return nil
	}, time.Second)
	if !errors.Is(err, boom) {
		t.Errorf("measure error = %v, want boom", err)
	}
}

func TestMeasureRespectsBudget(t *testing.T) {
	start := time.Now()
	// A budget of 200 sleeps of 1 ms: a loaded machine that stretches one
	// sleep past a smaller budget would end the first round.
	m, err := measure(func() error { time.Sleep(time.Millisecond); return nil }, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if m.Iterations < 2 || time.Since(start) > 5*time.Second {
		t.Errorf("%d iterations in %v", m.Iterations, time.Since(start))
	}
	// One slow iteration past the budget still gives one measurement.
	m, err = measure(func() error { time.Sleep(5 * time.Millisecond); return nil }, time.Millisecond)
	if err != nil || m.Iterations != 1 {
		t.Errorf("slow op: %+v, %v", m, err)
	}
}

func TestNextN(t *testing.T) {
	for _, tt := range []struct {
		n               int
		elapsed, budget time.Duration
		want            int
	}{
		{1, 0, time.Second, 100},
		{1, time.Millisecond, time.Second, 100},          // capped at 100×
		{100, 100 * time.Millisecond, time.Second, 1200}, // fill the budget + 20%
		{5, time.Second, time.Millisecond, 6},            // at least one more
		{maxIterations, time.Nanosecond, time.Hour, maxIterations},
	} {
		if got := nextN(tt.n, tt.elapsed, tt.budget); got != tt.want && !(tt.n == maxIterations && got >= maxIterations) {
			t.Errorf("nextN(%d, %v, %v) = %d, want %d", tt.n, tt.elapsed, tt.budget, got, tt.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 12345678: "12,345,678", -1234: "-1,234"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}
