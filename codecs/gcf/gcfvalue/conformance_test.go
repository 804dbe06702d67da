package gcfvalue_test

import (
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// fixture is one conformance fixture of the GCF suite
// (tests/conformance/README.md): its operation and its raw fields.
type fixture struct {
	path      string
	Operation string                     `json:"operation"`
	fields    map[string]json.RawMessage // every field, raw
}

func (f *fixture) raw(t *testing.T, name string) json.RawMessage {
	t.Helper()
	r, ok := f.fields[name]
	if !ok {
		t.Fatalf("%s: no field %q", f.path, name)
	}
	return r
}

// str returns the string field name.
func (f *fixture) str(t *testing.T, name string) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(f.raw(t, name), &s); err != nil {
		t.Fatalf("%s: field %q is not a string: %v", f.path, name, err)
	}
	return s
}

// expect fails the test unless an encoder wrote, without error, the
// fixture's expected text; what names the encoding.
func (f *fixture) expect(t *testing.T, what string, got []byte, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if want := f.str(t, "expected"); string(got) != want {
		t.Fatalf("%s mismatch\n got: %q\nwant: %q", what, got, want)
	}
}

// value returns the field name parsed as a JSON Value (exact numbers, key
// order kept).
func (f *fixture) value(t *testing.T, name string) gcfvalue.Value {
	t.Helper()
	v, err := gcfvalue.ParseJSON(f.raw(t, name))
	if err != nil {
		t.Fatalf("%s: field %q: %v", f.path, name, err)
	}
	return v
}

// skipped lists the fixtures this package does not run, each with the
// reason; every one is a graph-profile fixture (TestConformance checks
// that no generic-profile fixture is here).
var skipped = map[string]string{}

// handlers run a fixture of each operation; a fixture of any other
// operation fails the test.
var handlers = map[string]func(t *testing.T, f *fixture){
	"encode":         runEncode,
	"encode-error":   runEncodeError,
	"decode":         runDecode,
	"error":          runError,
	"roundtrip":      runRoundTrip,
	"roundtrip-wire": runRoundTripWire,

	"generic-pack-root":     runPackRoot,
	"generic-delta":         runDelta,
	"generic-delta-verify":  runDeltaVerify,
	"generic-delta-decode":  runDeltaDecode,
	"generic-delta-session": runDeltaSession,
}

func specDir(t *testing.T) string {
	dir := os.Getenv("GCF_SPEC_DIR")
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GCF_SPEC_DIR is not set (it must be under CI): the GCF conformance suite cannot run")
		}
		t.Skip("GCF_SPEC_DIR is not set: set it to the gcf-spec tests/conformance directory to run the suite")
	}
	return dir
}

func loadFixtures(t *testing.T, dir string) []*fixture {
	var out []*fixture
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		f := &fixture{path: filepath.ToSlash(rel)}
		if err := json.Unmarshal(data, &f.fields); err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if err := json.Unmarshal(data, f); err != nil || f.Operation == "" {
			t.Errorf("%s: no operation (%v)", rel, err)
			return nil
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no fixtures under %s", dir)
	}
	return out
}

// isGraphFixture reports whether f exercises the graph profile: it sits in
// a graph-* directory, its operation is one of the graph profile's, or its
// GCF text declares profile=graph.
func isGraphFixture(f *fixture) bool {
	if strings.HasPrefix(f.path, "graph-") {
		return true
	}
	switch f.Operation {
	case "session", "delta", "delta-verify", "pack-root", "graph-stream-encode":
		return true
	}
	for _, k := range []string{"input", "expected"} {
		if r, ok := f.fields[k]; ok && strings.Contains(string(r), "GCF profile=graph") {
			return true
		}
	}
	return false
}

// planProblems returns what is wrong with running fixtures under a skip
// list and handlers: a fixture of an operation no handler runs, a skip
// without a reason, a generic-profile fixture skipped, a skip naming no
// fixture.
func planProblems(fixtures []*fixture, skip map[string]string, hs map[string]func(*testing.T, *fixture)) []string {
	var out []string
	seen := make(map[string]bool)
	for _, f := range fixtures {
		seen[f.path] = true
		if reason, ok := skip[f.path]; ok {
			if strings.TrimSpace(reason) == "" {
				out = append(out, f.path+": skipped without a reason")
			}
			if !isGraphFixture(f) {
				out = append(out, f.path+": a generic-profile fixture may not be skipped")
			}
			continue
		}
		if _, ok := hs[f.Operation]; !ok {
			out = append(out, f.path+": operation "+strconv.Quote(f.Operation)+" is not handled")
		}
	}
	var names []string
	for p := range skip {
		if !seen[p] {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	for _, p := range names {
		out = append(out, "skip list names "+p+", which is not in the suite")
	}
	return out
}

// TestPlanProblems: the runner's own rules fail a run.
func TestPlanProblems(t *testing.T) {
	fx := []*fixture{
		{path: "scalar/001.json", Operation: "encode"},
		{path: "graph-encode/001.json", Operation: "encode"},
		{path: "x/001.json", Operation: "transmogrify"},
		{path: "graph-session/001.json", Operation: "session"},
	}
	hs := map[string]func(*testing.T, *fixture){"encode": runEncode}
	got := planProblems(fx, map[string]string{
		"scalar/001.json":        "too hard",
		"graph-encode/001.json":  " ",
		"graph-session/001.json": "sessions are out of scope",
		"gone/001.json":          "removed",
	}, hs)
	want := []string{
		"scalar/001.json: a generic-profile fixture may not be skipped",
		"graph-encode/001.json: skipped without a reason",
		`x/001.json: operation "transmogrify" is not handled`,
		"skip list names gone/001.json, which is not in the suite",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("problems (-want +got):\n%s", d)
	}
}

func TestConformance(t *testing.T) {
	dir := specDir(t)
	fixtures := loadFixtures(t, dir)
	passed := make(map[string]int)
	total := make(map[string]int)
	for _, p := range planProblems(fixtures, skipped, handlers) {
		t.Error(p)
	}
	for _, f := range fixtures {
		total[f.Operation]++
		h, ok := handlers[f.Operation]
		if _, skip := skipped[f.path]; skip || !ok {
			continue
		}
		if t.Run(f.path, func(t *testing.T) { h(t, f) }) {
			passed[f.Operation]++
		}
	}
	ops := make([]string, 0, len(total))
	for op := range total {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	sum := 0
	for _, op := range ops {
		t.Logf("%-22s %3d passed of %3d", op, passed[op], total[op])
		sum += passed[op]
	}
	t.Logf("%-22s %3d passed of %3d, %d skipped", "all", sum, len(fixtures), len(skipped))
}

func runEncode(t *testing.T, f *fixture) {
	if strings.HasPrefix(f.path, "graph-encode/") {
		runGraphEncode(t, f)
		return
	}
	v := f.value(t, "input")
	want := f.str(t, "expected")
	got, err := gcfvalue.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if string(got) != want {
		t.Fatalf("encode mismatch\n got: %q\nwant: %q", got, want)
	}
	checkRoundTrip(t, v, got)
}

// checkRoundTrip requires text, the encoding of v, to decode to v.
func checkRoundTrip(t *testing.T, v gcfvalue.Value, text []byte) {
	t.Helper()
	back, err := gcfvalue.Unmarshal(text)
	if err != nil {
		t.Fatalf("decode(encode(input)): %v\n%s", err, text)
	}
	if d := cmp.Diff(norm(v), norm(back)); d != "" {
		t.Fatalf("decode(encode(input)) differs (-input +decoded):\n%s", d)
	}
}

// norm maps a Value to plain Go values cmp can compare: numbers by value
// (as their canonical text), objects as [key, value] pairs sorted by key.
// The suite compares decoded JSON structurally (its README), and object
// membership, not member order, is what survives a table: a row's members
// come back in the order of the table's field union (spec §7.4.3), and the
// expected values of several decode fixtures list keys sorted. Member
// order is tested on its own (TestMemberOrder).
func norm(v gcfvalue.Value) any {
	switch x := v.(type) {
	case jsonvalue.Number:
		return "number " + x.String()
	case string:
		return "string " + x
	case []jsonvalue.Value:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = norm(e)
		}
		return out
	case *jsonvalue.Object:
		if x == nil {
			return nil
		}
		ms := append([]jsonvalue.Member(nil), x.Members...)
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].Key < ms[j].Key })
		out := []any{}
		for _, m := range ms {
			out = append(out, []any{m.Key, norm(m.Value)})
		}
		return out
	}
	return v
}

func runDecode(t *testing.T, f *fixture) {
	if isGraphText(f.str(t, "input")) {
		runGraphDecode(t, f)
		return
	}
	got, err := gcfvalue.Unmarshal([]byte(f.str(t, "input")))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if d := cmp.Diff(norm(f.value(t, "expected")), norm(got)); d != "" {
		t.Fatalf("decode differs (-expected +decoded):\n%s", d)
	}
}

func runError(t *testing.T, f *fixture) {
	var in []byte
	if _, ok := f.fields["inputBase64"]; ok {
		b, err := base64.StdEncoding.DecodeString(f.str(t, "inputBase64"))
		if err != nil {
			t.Fatal(err)
		}
		in = b
	} else {
		in = []byte(f.str(t, "input"))
	}
	var err error
	if isGraphText(string(in)) {
		err = graphError(in)
	} else {
		_, err = gcfvalue.Unmarshal(in)
	}
	checkErr(t, err, f.str(t, "expectedError"))
}

// runRoundTrip: encode input, byte-match expected, decode back to input.
func runRoundTrip(t *testing.T, f *fixture) { runEncode(t, f) }

// runRoundTripWire: decode the GCF input and encode it again, byte for
// byte the expected text.
func runRoundTripWire(t *testing.T, f *fixture) {
	v, err := gcfvalue.Unmarshal([]byte(f.str(t, "input")))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	got, err := gcfvalue.Marshal(v)
	f.expect(t, "re-encode", got, err)
}

func runEncodeError(t *testing.T, f *fixture) {
	want := f.str(t, "expectedError")
	_, err := gcfvalue.FromJSON(f.raw(t, "input"), gcfvalue.Options{})
	checkErr(t, err, want)
}

var categoryRE = regexp.MustCompile(`^[a-z_]+$`)

// checkErr requires err to be of the category want (a name such as
// "count_mismatch") or, where the fixture gives a phrase instead ("zero
// count"), to contain the phrase.
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if len(err.Error()) > 300 || strings.ContainsAny(err.Error(), "\n\r") {
		t.Errorf("error is long or not one line: %.400q", err.Error())
	}
	if categoryRE.MatchString(want) {
		if got := gcfvalue.ErrorKind(err); string(got) != want {
			t.Fatalf("error %q is of kind %q, want %q", err, got, want)
		}
		return
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not say %q", err, want)
	}
}

// member returns the member key of the object v, or nil.
func member(v gcfvalue.Value, key string) gcfvalue.Value {
	o, _ := v.(*jsonvalue.Object)
	if o == nil {
		return nil
	}
	m, _ := o.Get(key)
	return m
}

func strMember(v gcfvalue.Value, key string) string {
	s, _ := member(v, key).(string)
	return s
}

func rowsOf(t *testing.T, v gcfvalue.Value) []*jsonvalue.Object {
	t.Helper()
	if v == nil {
		return nil
	}
	items, ok := v.([]jsonvalue.Value)
	if !ok {
		t.Fatalf("rows %v are not an array", v)
	}
	out := make([]*jsonvalue.Object, len(items))
	for i, it := range items {
		if out[i], ok = it.(*jsonvalue.Object); !ok {
			t.Fatalf("row %d is not an object", i)
		}
	}
	return out
}

func fieldsOf(t *testing.T, v gcfvalue.Value) []string {
	t.Helper()
	items, _ := v.([]jsonvalue.Value)
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it.(string)
	}
	return out
}

// keyedSet reads {name?, key, fields, rows} as a keyed set.
func keyedSet(t *testing.T, v gcfvalue.Value) *gcfvalue.KeyedSet {
	t.Helper()
	return &gcfvalue.KeyedSet{Name: strMember(v, "name"), Key: strMember(v, "key"),
		Fields: fieldsOf(t, member(v, "fields")), Rows: rowsOf(t, member(v, "rows"))}
}

// delta reads {key, fields, baseRoot, newRoot, added, changed, removed}.
func delta(t *testing.T, v gcfvalue.Value) *gcfvalue.Delta {
	t.Helper()
	d := &gcfvalue.Delta{Tool: strMember(v, "tool"), Key: strMember(v, "key"), Fields: fieldsOf(t, member(v, "fields")),
		BaseRoot: strMember(v, "baseRoot"), NewRoot: strMember(v, "newRoot"),
		Added: rowsOf(t, member(v, "added")), Changed: rowsOf(t, member(v, "changed"))}
	if r, ok := member(v, "removed").([]jsonvalue.Value); ok {
		d.Removed = r
	}
	dt, ok1 := member(v, "deltaTokens").(jsonvalue.Number)
	ft, ok2 := member(v, "fullTokens").(jsonvalue.Number)
	if ok1 && ok2 {
		a, _ := dt.Int64()
		b, _ := ft.Int64()
		d.Savings = gcfvalue.SavingsPercent(int(a), int(b))
	}
	return d
}

func runPackRoot(t *testing.T, f *fixture) {
	got, err := keyedSet(t, f.value(t, "input")).Root()
	if err != nil {
		t.Fatal(err)
	}
	if want := f.str(t, "expected"); got != want {
		t.Fatalf("pack root %s, want %s", got, want)
	}
}

func runDelta(t *testing.T, f *fixture) {
	d := delta(t, f.value(t, "input"))
	got, err := gcfvalue.AppendDelta(nil, d, gcfvalue.Options{})
	f.expect(t, "delta", got, err)
	back, err := gcfvalue.DecodeDelta(got, gcfvalue.Options{})
	if err != nil {
		t.Fatalf("decode the delta back: %v", err)
	}
	if diff := cmp.Diff(norm(toValue(d)), norm(toValue(back))); diff != "" {
		t.Fatalf("the delta reads back differently (-encoded +decoded):\n%s", diff)
	}
}

// toValue is a Delta as a Value, for comparison.
func toValue(d *gcfvalue.Delta) gcfvalue.Value {
	o := &jsonvalue.Object{}
	rows := func(rs []*jsonvalue.Object) []jsonvalue.Value {
		out := []jsonvalue.Value{}
		for _, r := range rs {
			out = append(out, r)
		}
		return out
	}
	o.Add("tool", d.Tool)
	o.Add("key", d.Key)
	o.Add("base", d.BaseRoot)
	o.Add("new", d.NewRoot)
	o.Add("savings", d.Savings)
	o.Add("added", rows(d.Added))
	o.Add("changed", rows(d.Changed))
	o.Add("removed", append([]jsonvalue.Value{}, d.Removed...))
	return o
}

// applyExpect applies d to base and checks the result against the
// fixture: its root is expected, or the error is expectedError.
func applyExpect(t *testing.T, f *fixture, d *gcfvalue.Delta, base *gcfvalue.KeyedSet, wantRoot string) {
	t.Helper()
	before, err := base.Root()
	if err != nil {
		t.Fatal(err)
	}
	next, err := d.Apply(base)
	if after, _ := base.Root(); after != before {
		t.Fatalf("Apply changed the base set")
	}
	if _, ok := f.fields["expectedError"]; ok {
		checkErr(t, err, f.str(t, "expectedError"))
		if next != nil {
			t.Fatalf("a failed Apply returned a set")
		}
		return
	}
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	got, err := next.Root()
	if err != nil {
		t.Fatal(err)
	}
	if want := f.str(t, "expected"); got != want || got != wantRoot {
		t.Fatalf("applied root %s, want %s (expectedNewRoot %s)", got, want, wantRoot)
	}
}

func runDeltaVerify(t *testing.T, f *fixture) {
	in := f.value(t, "input")
	d := delta(t, member(in, "delta"))
	d.NewRoot = strMember(in, "expectedNewRoot")
	applyExpect(t, f, d, keyedSet(t, member(in, "base")), d.NewRoot)
}

func runDeltaDecode(t *testing.T, f *fixture) {
	in := f.value(t, "input")
	d, err := gcfvalue.DecodeDelta([]byte(strMember(in, "wire")), gcfvalue.Options{})
	if err != nil {
		if _, ok := f.fields["expectedError"]; ok {
			checkErr(t, err, f.str(t, "expectedError"))
			return
		}
		t.Fatalf("decode: %v", err)
	}
	applyExpect(t, f, d, keyedSet(t, member(in, "base")), strMember(in, "expectedNewRoot"))
}

func runDeltaSession(t *testing.T, f *fixture) {
	in := f.value(t, "input")
	exp := f.value(t, "expected")
	var p gcfvalue.Policy
	switch pol := member(in, "policy"); strMember(pol, "mode") {
	case "fixedN":
		n, _ := member(pol, "n").(jsonvalue.Number).Int64()
		p.N = int(n)
	case "sizeGuard":
		p.SizeGuard = true
	default:
		t.Fatalf("unknown policy %v", pol)
	}
	s := gcfvalue.NewSession(strMember(in, "tool"), p, gcfvalue.Options{})
	got, err := s.Start(keyedSet(t, member(in, "base")))
	if err != nil {
		t.Fatal(err)
	}
	if want := strMember(exp, "initialFull"); string(got) != want {
		t.Fatalf("initial full payload\n got: %q\nwant: %q", got, want)
	}
	updates, _ := member(in, "updates").([]jsonvalue.Value)
	emissions, _ := member(exp, "emissions").([]jsonvalue.Value)
	if len(updates) != len(emissions) || len(updates) == 0 {
		t.Fatalf("%d updates, %d emissions", len(updates), len(emissions))
	}
	for i, u := range updates {
		wire, full, err := s.Next(keyedSet(t, u))
		if err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
		want := strMember(emissions[i], "wire")
		wantFull, _ := member(emissions[i], "isFull").(bool)
		if string(wire) != want || full != wantFull {
			t.Fatalf("update %d: full=%v\n got: %q\nwant (full=%v): %q", i, full, wire, wantFull, want)
		}
	}
}
