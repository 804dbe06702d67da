package wiretest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// The tests below make the harness fail on purpose; keep rapid from
	// saving fail files for them.
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// fake is a codec built on canonical JSON whose parts a test replaces to
// break it in one way.
type fake struct {
	name     string
	fidelity wire.Fidelity
	enc      func(dst []byte, r *wire.GraphResponse) ([]byte, error)
	dec      func(data []byte) (*wire.GraphResponse, error)
}

func (f fake) Info() wire.Info { return wire.Info{Name: f.name, Fidelity: f.fidelity} }

func (f fake) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	if f.enc != nil {
		return f.enc(dst, r)
	}
	return json.AppendEncode(dst, r)
}

func (f fake) Decode(data []byte) (*wire.GraphResponse, error) {
	if f.dec != nil {
		return f.dec(data)
	}
	r, err := json.Decode(data)
	var de *wire.DecodeError
	if errors.As(err, &de) {
		de.Codec = f.name
	}
	return r, err
}

var sink []byte

func sample() *wire.GraphResponse { return FixedResponses()[0] }

func TestRoundTripCatches(t *testing.T) {
	// truncate cuts strings to 8 bytes: lossy, but a fixed point.
	truncate := func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
		c := Clone(r)
		mapValues(c, func(v wire.Value) wire.Value {
			if v.Kind() == wire.KindString && len(v.Text()) > 8 {
				return wire.String(v.Text()[:8])
			}
			return v
		})
		return json.AppendEncode(dst, c)
	}
	var calls atomic.Int64
	tests := []struct {
		name  string
		codec fake
		f     wire.Fidelity
		want  string // "" means the check passes
	}{
		{"json is exact", fake{name: "t"}, Exact, ""},
		{"lossy under Exact", fake{name: "t", enc: truncate}, Exact, "round trip under exact equality"},
		{"lossy but a fixed point", fake{name: "t", enc: truncate}, FixedPoint, ""},
		{"encoder modifies its input", fake{name: "t", enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
			r.Nodes[0], r.Nodes[1] = r.Nodes[1], r.Nodes[0]
			return json.AppendEncode(dst, r)
		}}, FixedPoint, "encode modified its input"},
		{"one number type: by value only", oneNumberType, Exact, "round trip under exact equality"},
		{"not a fixed point", fake{name: "t", enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
			b, err := json.AppendEncode(dst, r)
			return append(b, strconv.Itoa(int(calls.Add(1)))...), err
		}, dec: func(data []byte) (*wire.GraphResponse, error) {
			return json.Decode(bytes.TrimRight(data, "0123456789"))
		}}, FixedPoint, "Encode(Decode(Encode(r))) differs"},
		{"decode fails on its own encoding", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) {
			return nil, &wire.DecodeError{Codec: "t", Msg: "no"}
		}}, NumbersByValue, "decode of its own encoding"},
		{"encoder panics", fake{name: "t", enc: func([]byte, *wire.GraphResponse) ([]byte, error) { panic("boom") }}, Exact, "panic: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := RoundTrip(tt.codec, tt.f, sample())
			checkErr(t, err, tt.want)
		})
	}
	// The one-number-type codec passes under NumbersByValue.
	if err := RoundTrip(oneNumberType, NumbersByValue, sample()); err != nil {
		t.Errorf("one number type under NumbersByValue: %v", err)
	}
}

// oneNumberType writes integral floats as ints and reads small ints back
// as floats, as a format with one number type does.
var oneNumberType = fake{name: "t", enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	c := Clone(r)
	mapValues(c, func(v wire.Value) wire.Value {
		if f := v.Float(); v.Kind() == wire.KindFloat && f == float64(int64(f)) && f != 0 {
			return wire.Int(int64(f))
		}
		return v
	})
	return json.AppendEncode(dst, c)
}, dec: func(data []byte) (*wire.GraphResponse, error) {
	r, err := json.Decode(data)
	if err == nil {
		mapValues(r, func(v wire.Value) wire.Value {
			if i := v.Int(); v.Kind() == wire.KindInt && i > -1<<53 && i < 1<<53 && i != 0 {
				return wire.Float(float64(i))
			}
			return v
		})
	}
	return r, err
}}

// mapValues replaces every node property and row cell value v of r (lists
// element by element) by f(v).
func mapValues(r *wire.GraphResponse, f func(wire.Value) wire.Value) {
	var deep func(v wire.Value) wire.Value
	deep = func(v wire.Value) wire.Value {
		if v.Kind() == wire.KindList {
			l := make([]wire.Value, len(v.List()))
			for i, e := range v.List() {
				l[i] = deep(e)
			}
			return wire.ListOf(l...)
		}
		return f(v)
	}
	props := func(ps []wire.Property) {
		for i := range ps {
			ps[i].Value = deep(ps[i].Value)
		}
	}
	for i := range r.Nodes {
		props(r.Nodes[i].Properties)
	}
	for _, row := range r.Rows {
		for j := range row {
			row[j].Value = deep(row[j].Value)
			if row[j].Node != nil {
				props(row[j].Node.Properties)
			}
		}
	}
}

// checkErr checks that err is nil when want is "", and otherwise holds one
// of the |-separated alternatives of want.
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("unexpected failure: %v", err)
	case want != "" && err == nil:
		t.Errorf("passed, want a failure containing %q", want)
	case want != "":
		for _, w := range strings.Split(want, "|") {
			if strings.Contains(err.Error(), w) {
				return
			}
		}
		t.Errorf("failure %q does not contain %q", err, want)
	}
}

func TestDeterminismCatches(t *testing.T) {
	var calls atomic.Int64
	tests := []struct {
		name  string
		codec fake
		want  string
	}{
		{"json", fake{name: "t"}, ""},
		{"counter in the output", fake{name: "t", enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
			b, err := json.AppendEncode(dst, r)
			return append(b, strconv.Itoa(int(calls.Add(1)))...), err
		}}, "two encodings of one response differ"},
		{"depends on string identity", fake{name: "t", enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
			c := Clone(r)
			if unsafe.StringData(r.FormatVersion) != unsafe.StringData(sample().FormatVersion) {
				c.FormatVersion = "copy"
			}
			return json.AppendEncode(dst, c)
		}}, "the encoding of a deep copy differs"},
		{"ignores dst", fake{name: "t", enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
			return json.AppendEncode(nil, r)
		}}, "AppendEncode(dst, r) is not dst followed by Encode(r)"},
		{"decode retains its input", fake{name: "t", dec: func(data []byte) (*wire.GraphResponse, error) {
			r, err := json.Decode(data)
			if err == nil {
				i := bytes.Index(data, []byte(r.FormatVersion))
				r.FormatVersion = unsafe.String(&data[i], len(r.FormatVersion))
			}
			return r, err
		}}, "Decode retains its input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, Determinism(tt.codec, sample()), tt.want) })
	}
}

func TestDecodeHostileCatches(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	valid, _ := json.AppendEncode(nil, sample())
	jsonDec := func(data []byte) (*wire.GraphResponse, error) { return json.Decode(data) }
	tests := []struct {
		name   string
		codec  fake
		input  []byte
		limits Bounds
		want   string
	}{
		{"valid input", fake{name: "json", dec: jsonDec}, valid, Bounds{}, ""},
		{"error", fake{name: "json", dec: jsonDec}, valid[:10], Bounds{}, ""},
		{"panic", fake{name: "t", dec: func(data []byte) (*wire.GraphResponse, error) { return nil, fmt.Errorf("%d", data[len(data)]) }}, valid, Bounds{}, "panicked"},
		{"plain error", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) { return nil, errors.New("t: bad") }}, valid, Bounds{}, "not a *wire.DecodeError"},
		{"other codec's name", fake{name: "t", dec: jsonDec}, valid[:10], Bounds{}, `names codec "json", not "t"`},
		{"two lines", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) {
			return nil, &wire.DecodeError{Codec: "t", Msg: "bad\nworse"}
		}}, valid, Bounds{}, "not one line"},
		{"response and error", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) {
			return sample(), &wire.DecodeError{Codec: "t", Msg: "bad"}
		}}, valid, Bounds{}, "both a response and an error"},
		{"nothing", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) { return nil, nil }}, valid, Bounds{}, "neither a response nor an error"},
		{"invalid response", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) {
			return &wire.GraphResponse{QueryType: "bogus"}, nil
		}}, valid, Bounds{}, "not valid"},
		{"allocates by a declared length", fake{name: "t", dec: func(data []byte) (*wire.GraphResponse, error) {
			sink = make([]byte, 256<<20)
			sink = nil
			return nil, &wire.DecodeError{Codec: "t", Msg: "declared 2^28"}
		}}, valid[:10], Bounds{}, "allocated"},
		{"slow", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) {
			time.Sleep(30 * time.Millisecond)
			return nil, &wire.DecodeError{Codec: "t", Msg: "slow"}
		}}, valid, Bounds{Time: 5 * time.Millisecond, TimePerByte: 1}, "took|hung"},
		{"hangs", fake{name: "t", dec: func([]byte) (*wire.GraphResponse, error) {
			<-release
			return nil, &wire.DecodeError{Codec: "t", Msg: "late"}
		}}, valid, Bounds{Time: 2 * time.Millisecond, TimePerByte: 1}, "hung"},
		{"modifies its input", fake{name: "t", dec: func(data []byte) (*wire.GraphResponse, error) {
			data[0] ^= 1
			return nil, &wire.DecodeError{Codec: "t", Msg: "bad"}
		}}, bytes.Clone(valid), Bounds{}, "modified its input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeHostile(tt.codec, tt.input, tt.limits)
			checkErr(t, err, tt.want)
		})
	}
}

func TestHostileInputs(t *testing.T) {
	valid := [][]byte{[]byte(`{"a":[12,3456]}`), {0x92, 0xa1, 'x', 0x81}}
	const big = 1 << 16
	count := map[string]int{}
	seen := map[string][]byte{}
	for in := range Hostile(valid, big) {
		count[in.Class]++
		if prev, dup := seen[in.Class+" "+in.Name]; dup && !bytes.Equal(prev, in.Data) {
			t.Errorf("two %s inputs named %q differ", in.Class, in.Name)
		}
		seen[in.Class+" "+in.Name] = in.Data
	}
	for _, c := range Classes() {
		if count[c] == 0 {
			t.Errorf("no %s inputs", c)
		}
	}
	type want struct {
		class, what string
		data        []byte
	}
	wants := []want{
		{ClassLength, "decimal 2^62", []byte(`{"a":[4611686018427387904,3456]}`)},
		{ClassLength, "decimal 2^31 then nothing", []byte(`{"a":[12,2147483648`)},
		{ClassLength, "MessagePack array32 of 2^31", []byte{0xdd, 0x80, 0, 0, 0, 0xa1, 'x', 0x81}},
		{ClassLength, "MessagePack str32 of 2^32-1", []byte{0x92, 0xdb, 0xff, 0xff, 0xff, 0xff, 'x', 0x81}},
		{ClassLength, "CBOR array of 2^62", []byte{0x9b, 0x40, 0, 0, 0, 0, 0, 0, 0}},
		{ClassNesting, "100,000 '['", bytes.Repeat([]byte("["), NestingDepth)},
		{ClassNesting, "100,000 0x91 spliced", append(append([]byte(`{"a":`), bytes.Repeat([]byte{0x91}, NestingDepth)...), `[12,3456]}`...)},
		{ClassUTF8, "surrogate inserted", []byte("\xed\xa0\x80{\"a\":[12,3456]}")},
		{ClassNUL, "NUL written", []byte("{\"a\":[12,3456]\x00")},
		{ClassBig, "whole encoding repeated", repeatTo(valid[0], big)},
		{ClassFlip, "byte XOR 0xff", []byte{0x92, 0xa1, 'x', 0x7e}},
	}
	for _, v := range valid {
		for i := 0; i < len(v); i++ {
			wants = append(wants, want{ClassPrefix, fmt.Sprintf("%q", v[:i]), v[:i]})
		}
	}
	found := make([]bool, len(wants))
	for in := range Hostile(valid, big) {
		if in.Class == ClassBig && len(in.Data) != big {
			t.Errorf("%s is %d bytes, want %d", in.Name, len(in.Data), big)
		}
		for i, w := range wants {
			if w.class == in.Class && bytes.Equal(w.data, in.Data) {
				found[i] = true
			}
		}
	}
	for i, w := range wants {
		if !found[i] {
			t.Errorf("%s input %s missing", w.class, w.what)
		}
	}
}

func TestClone(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		r := ResponseWith(Options{AwkwardNames: true, NonFinite: true}).Draw(rt, "r")
		c := Clone(r)
		if d := cmp.Diff(r, c, CmpOptions(wire.Exact)); d != "" {
			rt.Fatalf("clone differs:\n%s", d)
		}
		if (r.Nodes == nil) != (c.Nodes == nil) || (r.Columns == nil) != (c.Columns == nil) || (r.Rows == nil) != (c.Rows == nil) {
			rt.Fatalf("clone changed nil into empty or back")
		}
		for i := range c.Nodes {
			c.Nodes[i].ID++
			if len(c.Nodes[i].Properties) > 0 {
				c.Nodes[i].Properties[0].Key += "x"
			}
		}
		for i := range c.Rows {
			for j := range c.Rows[i] {
				if c.Rows[i][j].Node != nil {
					c.Rows[i][j].Node.ID++
				}
			}
		}
		if r.Pagination != nil {
			c.Pagination.TotalRows.V++
		}
		if wire.Equal(r, c, wire.Exact) && (len(r.Nodes) > 0 || r.Pagination != nil) {
			rt.Fatalf("changing the clone changed the original")
		}
	})
}

func TestConcurrentRun(t *testing.T) {
	var calls [10]atomic.Int64
	errs := ConcurrentRun(Goroutines, len(calls), func(i int) error {
		calls[i].Add(1)
		if i == 3 {
			return errors.New("three")
		}
		return nil
	})
	for i := range calls {
		if n := calls[i].Load(); n != Goroutines {
			t.Errorf("work(%d) ran %d times, want %d", i, n, Goroutines)
		}
	}
	if len(errs) != Goroutines {
		t.Errorf("got %d errors, want %d: %v", len(errs), Goroutines, errs)
	}
}

// TestCheckReportsShrunkResponse: a codec that loses every float fails the
// round trip, and Check's report shows the failing response shrunk by rapid
// to the smallest one (a single float).
var floatLiteral = regexp.MustCompile(`[= \[,]-?[0-9]+(\.[0-9]+|(\.[0-9]+)?e[-+]?[0-9]+)[\n,\]]`)

func TestCheckReportsShrunkResponse(t *testing.T) {
	const name = "wiretest-no-floats"
	noFloats := func(v wire.Value) wire.Value {
		if v.Kind() == wire.KindFloat {
			return wire.Null()
		}
		return v
	}
	err := Config{N: 200, Checks: CheckRoundTrip}.check(fake{name: name, enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
		c := Clone(r)
		mapValues(c, noFloats)
		return json.AppendEncode(dst, c)
	}})
	if err == nil {
		t.Fatal("Check passed a codec that drops floats")
	}
	msg := err.Error()
	for _, want := range []string{`codec "wiretest-no-floats" fails`, "round trip under exact equality", "\nresponse:\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("report lacks %q:\n%s", want, msg)
		}
	}
	// The response the report prints holds the float the codec lost, in
	// whatever place rapid put it (a property, an array element, a cell).
	_, dump, _ := strings.Cut(msg, "\nresponse:\n")
	if !floatLiteral.MatchString(dump) {
		t.Errorf("the reported response holds no float:\n%s", dump)
	}
	// Shrunk: a few nodes or rows of node cells (rapid's shrinking does
	// not always drop every node that does not matter), not the dozens of
	// an unshrunk response.
	if strings.Count(msg, "node ") > 12 {
		t.Errorf("the failing response was not shrunk:\n%s", msg)
	}
	json, err := wire.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	if err := (Config{N: 50, Checks: CheckRoundTrip | CheckDeterminism}).check(json); err != nil {
		t.Errorf("json: %v", err)
	}
}

func TestPerCase(t *testing.T) {
	checks := 100
	if testing.Short() {
		checks = 20
	}
	if f := flag.Lookup("rapid.checks"); f != nil {
		checks, _ = strconv.Atoi(f.Value.String())
		if testing.Short() {
			checks /= 5
		}
	}
	for _, n := range []int{1, 99, 500, 100000} {
		if got := PerCase(n); got*checks < n || (got-1)*checks >= n {
			t.Errorf("PerCase(%d) = %d with %d checks", n, got, checks)
		}
	}
}

// TestLossyCodecMustKeepTheGraph is issue 24's item 5: a codec that
// declares FixedPoint, writes the same bytes for every response and
// decodes them to an empty one passes the byte-for-byte fixed point; the
// harness fails it, and fails a codec whose Info declares another
// fidelity than the test. The codec is a value, registered nowhere, so
// the test runs again under -count=2.
func TestLossyCodecMustKeepTheGraph(t *testing.T) {
	dropAll := fake{name: "drop-all", fidelity: FixedPoint,
		enc: func(dst []byte, r *wire.GraphResponse) ([]byte, error) { return append(dst, "{}"...), nil },
		dec: func([]byte) (*wire.GraphResponse, error) {
			return &wire.GraphResponse{QueryType: wire.Traversal, Nodes: []wire.Node{}, Edges: []wire.Edge{}}, nil
		}}
	err := Config{Fidelity: FixedPoint, N: 100, Checks: CheckRoundTrip}.check(dropAll)
	if err == nil || !strings.Contains(err.Error(), "lossy round trip") {
		t.Errorf("a codec that drops every response: %v, want a lossy round-trip failure", err)
	}
	jsonLike := fake{name: "json-like", fidelity: FixedPoint}
	if err := (Config{Fidelity: FixedPoint, N: 100, Checks: CheckRoundTrip}).check(jsonLike); err != nil {
		t.Errorf("a lossless codec declaring FixedPoint: %v", err)
	}
	err = Config{Fidelity: Exact, N: 20, Checks: CheckRoundTrip}.check(jsonLike)
	if err == nil || !strings.Contains(err.Error(), "Info().Fidelity is lossy") {
		t.Errorf("a test declaring exact for a codec whose Info says lossy: %v", err)
	}
}

// TestRunTakesACodecOfAnyRegistry: a codec registered only in a service's
// own registry runs through the harness by value.
func TestRunTakesACodecOfAnyRegistry(t *testing.T) {
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(fake{name: "gtsv"})
	c, err := reg.Lookup("gtsv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wire.Lookup("gtsv"); err == nil {
		t.Fatal("gtsv is in the default registry too")
	}
	Config{N: 50, Checks: CheckRoundTrip | CheckDeterminism | CheckRefusals}.RunCodec(t, c)
}

// TestRefusalsCatchAnEncoderThatSkipsTheModel: an encoder that writes
// canonical JSON without the shared check (as the json codec did for a
// repeated property key) fails the refusals check, naming the shape.
func TestRefusalsCatchAnEncoderThatSkipsTheModel(t *testing.T) {
	lax := fake{name: "lax", enc: laxJSON}
	err := Config{N: 200, Checks: CheckRefusals}.check(lax)
	if err == nil || !strings.Contains(err.Error(), string(RefuseRepeatedProperty)) || !strings.Contains(err.Error(), string(RefuseRepeatedCell)) {
		t.Errorf("an encoder that writes repeated keys: %v, want the repeated_property and repeated_cell shapes named", err)
	}
	if err := (Config{N: 200, Checks: CheckRefusals}).check(fake{name: "checked"}); err != nil {
		t.Errorf("an encoder that runs Limits.Check: %v", err)
	}
}

// laxJSON writes r as canonical JSON, without the model's check of
// repeated property keys and cell names: the json codec writes a copy in
// which each repeated key is a placeholder, which laxJSON puts back.
func laxJSON(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	c := Clone(r)
	var keys []string
	hide := func(k *string) {
		*k, keys = "\ue000"+strconv.Itoa(len(keys)), append(keys, *k)
	}
	props := func(ps []wire.Property) {
		seen := map[string]bool{}
		for j := range ps {
			if seen[ps[j].Key] {
				hide(&ps[j].Key)
			} else {
				seen[ps[j].Key] = true
			}
		}
	}
	for i := range c.Nodes {
		props(c.Nodes[i].Properties)
	}
	for _, row := range c.Rows {
		seen := map[string]bool{}
		for j := range row {
			if row[j].Node != nil {
				props(row[j].Node.Properties)
			}
			if seen[row[j].Name] {
				hide(&row[j].Name)
			} else {
				seen[row[j].Name] = true
			}
		}
	}
	b, err := json.AppendEncode(nil, c)
	if err != nil {
		return dst, err
	}
	for i, k := range keys {
		b = bytes.ReplaceAll(b, []byte(`"\ue000`+strconv.Itoa(i)+`"`), json.AppendString(nil, k))
	}
	return append(dst, b...), nil
}
