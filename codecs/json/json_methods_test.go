package json_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

const adrCase = "../../bench/corpus/text-heavy/traversal_adr_50u_200mr.json"

// json.Marshal of a response writes its canonical bytes, those of the
// corpus file, and json.Unmarshal reads them back exactly. (The cli tests
// compare the same bytes with `wirebench decode -f json`.)
func TestMarshalJSONIsCanonical(t *testing.T) {
	canonical, err := os.ReadFile(adrCase)
	if err != nil {
		t.Fatal(err)
	}
	r, err := jsoncodec.DecodeWithin(canonical, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, canonical) {
		t.Fatalf("json.Marshal differs from %s:\n%s", adrCase, firstDiff(got, canonical))
	}

	var back wire.GraphResponse
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, &back, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("json.Unmarshal back (-want +got):\n%s", d)
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-30)
	return "at byte " + strconv.Itoa(i) + ":\n got  " + string(a[lo:min(len(a), i+30)]) + "\n want " + string(b[lo:min(len(b), i+30)])
}

// Inside a larger document (a log record, an API envelope) the response
// and its values keep the canonical rules, and the whole reads back.
func TestJSONMethodsInsideOtherJSON(t *testing.T) {
	r := &wire.GraphResponse{
		FormatVersion: "1.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 9007199254740993, Properties: []wire.Property{
			wire.Prop("score", wire.Float(1)),
			wire.Prop("big", wire.Int(math.MaxInt64)),
			wire.Prop("tags", wire.ListOf(wire.String("a<b"), wire.Int(2), wire.Float(2.5), wire.Null())),
		}}},
		Edges: []wire.Edge{},
	}
	type envelope struct {
		Request string              `json:"request"`
		Result  *wire.GraphResponse `json:"result"`
		Extra   wire.Value          `json:"extra"`
		Missing wire.Value          `json:"missing"`
	}
	in := envelope{Request: "q1", Result: r, Extra: wire.ListOf(wire.Float(0), wire.Float(math.Copysign(0, -1)), wire.Bool(true))}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in); err != nil {
		t.Fatal(err)
	}
	want := `{"request":"q1","result":{"format_version":"1.0","query_type":"search","nodes":[{"type":"User","id":"9007199254740993","score":1.0,"big":9223372036854775807,"tags":["a<b",2,2.5,null]}],"edges":[]},"extra":[0.0,-0.0,true],"missing":null}` + "\n"
	if buf.String() != want {
		t.Fatalf("encoded\n got  %s want %s", buf.String(), want)
	}
	var out envelope
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, out, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
	// json.Marshal escapes HTML characters: other bytes, the same response.
	escaped, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(escaped, []byte(`"a\u003cb"`)) {
		t.Fatalf("json.Marshal: %s", escaped)
	}
	back, err := jsoncodec.DecodeWithin(escaped, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, back, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("escaped round trip (-want +got):\n%s", d)
	}
}

func TestValueMarshalJSON(t *testing.T) {
	for _, tc := range []struct {
		v    wire.Value
		want string
	}{
		{wire.Null(), `null`},
		{wire.Bool(false), `false`},
		{wire.Int(-9223372036854775808), `-9223372036854775808`},
		{wire.Float(1), `1.0`},
		{wire.Float(1e21), `1e+21`},
		{wire.Float(0.1), `0.1`},
		{wire.String("é\n\"x\""), `"é\n\"x\""`},
		{wire.ListOf(), `[]`},
		{wire.ListOf(wire.ListOf(wire.Int(1)), wire.String("")), `[[1],""]`},
	} {
		got, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatalf("%v: %v", tc.v, err)
		}
		if string(got) != tc.want {
			t.Errorf("json.Marshal(%v) = %s, want %s", tc.v, got, tc.want)
		}
		var back wire.Value
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("json.Unmarshal(%s): %v", got, err)
		}
		if !back.Equal(tc.v) {
			t.Errorf("json.Unmarshal(%s) = %v, want %v", got, back, tc.v)
		}
	}
	for _, v := range []wire.Value{wire.Float(math.NaN()), wire.ListOf(wire.Int(1), wire.Float(math.Inf(-1)))} {
		_, err := json.Marshal(v)
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || !strings.Contains(ee.Msg, "unsupported float value") {
			t.Errorf("json.Marshal(%v): error %v, want a *wire.EncodeError", v, err)
		}
	}
}

func TestValueUnmarshalJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want wire.Value
	}{
		{` null `, wire.Null()},
		{`true`, wire.Bool(true)},
		{`1`, wire.Int(1)},
		{`-0`, wire.Int(0)},
		{`1.0`, wire.Float(1)},
		{`1e2`, wire.Float(100)},
		{`-0.0`, wire.Float(math.Copysign(0, -1))},
		{`9223372036854775807`, wire.Int(math.MaxInt64)},
		{`"\u00e9"`, wire.String("é")},
		{`[1, [2.5, "x"], null, []]`, wire.ListOf(wire.Int(1), wire.ListOf(wire.Float(2.5), wire.String("x")), wire.Null(), wire.ListOf())},
	} {
		var v wire.Value
		if err := v.UnmarshalJSON([]byte(tc.in)); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if !v.Equal(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.in, v, tc.want)
		}
	}
	for _, tc := range []struct{ in, msg string }{
		{`{"a":1}`, "found object"},
		{`[1, {}]`, "found object"},
		{`9223372036854775808`, "out of int64 range"},
		{`1e400`, "out of float64 range"},
		{`01`, "unexpected data after the value"},
		{`1 2`, "unexpected data after the value"},
		{`[1,]`, "expected a value"},
		{``, "expected a value"},
		{strings.Repeat("[", 33) + strings.Repeat("]", 33), "MaxDepth"},
	} {
		v := wire.Int(7)
		err := v.UnmarshalJSON([]byte(tc.in))
		var de *wire.DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want a *wire.DecodeError containing %q", tc.in, err, tc.msg)
		}
		if !v.Equal(wire.Int(7)) {
			t.Errorf("%q: value changed to %v on error", tc.in, v)
		}
	}
	// 32 levels is the default MaxDepth, and allowed.
	var v wire.Value
	if err := v.UnmarshalJSON([]byte(strings.Repeat("[", 32) + strings.Repeat("]", 32))); err != nil {
		t.Fatalf("32 levels: %v", err)
	}
}

func TestGraphResponseUnmarshalJSON(t *testing.T) {
	r := &wire.GraphResponse{FormatVersion: "keep", QueryType: wire.Search, Nodes: []wire.Node{}, Edges: []wire.Edge{}}
	if err := json.Unmarshal([]byte(`null`), r); err != nil || r.FormatVersion != "keep" {
		t.Fatalf("null: err %v, response %+v; want no change", err, r)
	}
	err := json.Unmarshal([]byte(`{"format_version":"1","query_type":"search","nodes":[],"edges":[],"extra":1}`), r)
	var de *wire.DecodeError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), `unknown top-level field "extra"`) {
		t.Fatalf("unknown field: error %v, want a *wire.DecodeError", err)
	}
	if r.FormatVersion != "keep" {
		t.Fatalf("response changed on error: %+v", r)
	}
	big := make([]byte, wire.DefaultLimits().MaxInputBytes+1)
	err = r.UnmarshalJSON(big)
	if !errors.As(err, &de) || !errors.Is(err, wire.ErrLimit) || de.Limit != "MaxInputBytes" {
		t.Fatalf("over-long input: error %v, want MaxInputBytes", err)
	}
}
