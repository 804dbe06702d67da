package json_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// receiverResponse is a small response with the values whose canonical
// form differs from encoding/json's default for the Go struct: a float
// that is a whole number, an id past 2^53, a list.
func receiverResponse(name string) wire.GraphResponse {
	return wire.GraphResponse{
		FormatVersion: "1.0", QueryType: wire.Search,
		Nodes: []wire.Node{{Type: "User", ID: 9007199254740993, Properties: []wire.Property{
			wire.Prop("name", wire.String(name)),
			wire.Prop("score", wire.Float(2)),
			wire.Prop("tags", wire.ListOf(wire.String("a"), wire.Int(math.MaxInt64))),
		}}},
		Edges: []wire.Edge{},
	}
}

// A GraphResponse held by value, in a struct field, a slice element or a
// map value, is written in its canonical JSON (not with Go field names)
// and reads back the same, as one held through a pointer does.
func TestMarshalJSONValueReceiver(t *testing.T) {
	canonical := func(r wire.GraphResponse) string {
		t.Helper()
		b, err := jsoncodec.AppendEncode(nil, &r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	t.Run("struct field", func(t *testing.T) {
		type holder struct {
			R   wire.GraphResponse  `json:"r"`
			P   *wire.GraphResponse `json:"p"`
			Nil *wire.GraphResponse `json:"nil"`
		}
		pr := receiverResponse("pointer")
		in := holder{R: receiverResponse("value"), P: &pr}
		got, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"r":` + canonical(in.R) + `,"p":` + canonical(pr) + `,"nil":null}`
		if string(got) != want {
			t.Fatalf("json.Marshal\n got  %s\n want %s", got, want)
		}
		var out holder
		if err := json.Unmarshal(got, &out); err != nil {
			t.Fatal(err)
		}
		if d := wiretest.Diff(&in.R, &out.R, wire.Exact); d != "" {
			t.Errorf("field by value (-want +got):\n%s", d)
		}
		if d := wiretest.Diff(in.P, out.P, wire.Exact); d != "" {
			t.Errorf("field by pointer (-want +got):\n%s", d)
		}
		if out.Nil != nil {
			t.Errorf("nil field read back as %+v", out.Nil)
		}
	})

	t.Run("slice element", func(t *testing.T) {
		in := []wire.GraphResponse{receiverResponse("a"), receiverResponse("b")}
		got, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		want := "[" + canonical(in[0]) + "," + canonical(in[1]) + "]"
		if string(got) != want {
			t.Fatalf("json.Marshal\n got  %s\n want %s", got, want)
		}
		var out []wire.GraphResponse
		if err := json.Unmarshal(got, &out); err != nil {
			t.Fatal(err)
		}
		if len(out) != len(in) {
			t.Fatalf("read back %d responses, want %d", len(out), len(in))
		}
		for i := range in {
			if d := wiretest.Diff(&in[i], &out[i], wire.Exact); d != "" {
				t.Errorf("element %d (-want +got):\n%s", i, d)
			}
		}
	})

	t.Run("map value", func(t *testing.T) {
		in := map[string]wire.GraphResponse{"x": receiverResponse("x"), "y": receiverResponse("y")}
		got, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"x":` + canonical(in["x"]) + `,"y":` + canonical(in["y"]) + `}`
		if string(got) != want {
			t.Fatalf("json.Marshal\n got  %s\n want %s", got, want)
		}
		var out map[string]wire.GraphResponse
		if err := json.Unmarshal(got, &out); err != nil {
			t.Fatal(err)
		}
		for k, r := range in {
			o, ok := out[k]
			if !ok {
				t.Fatalf("key %q missing after the round trip", k)
			}
			if d := wiretest.Diff(&r, &o, wire.Exact); d != "" {
				t.Errorf("value %q (-want +got):\n%s", k, d)
			}
		}
	})

	t.Run("values of Value", func(t *testing.T) {
		type holder struct {
			V  wire.Value            `json:"v"`
			S  []wire.Value          `json:"s"`
			M  map[string]wire.Value `json:"m"`
			PV *wire.Value           `json:"pv"`
		}
		f := wire.Float(3)
		in := holder{V: wire.Float(1), S: []wire.Value{wire.Int(1), wire.Float(1)}, M: map[string]wire.Value{"k": wire.ListOf(wire.Float(0.5))}, PV: &f}
		got, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"v":1.0,"s":[1,1.0],"m":{"k":[0.5]},"pv":3.0}`
		if string(got) != want {
			t.Fatalf("json.Marshal\n got  %s\n want %s", got, want)
		}
		var out holder
		if err := json.Unmarshal(got, &out); err != nil {
			t.Fatal(err)
		}
		if !out.V.Equal(in.V) || len(out.S) != 2 || !out.S[0].Equal(in.S[0]) || !out.S[1].Equal(in.S[1]) ||
			!out.M["k"].Equal(in.M["k"]) || out.PV == nil || !out.PV.Equal(f) {
			t.Fatalf("read back %+v, want %+v", out, in)
		}
	})

	// A response the canonical form cannot carry fails inside a larger
	// document too, with the *EncodeError's text: never Go field names.
	t.Run("error by value", func(t *testing.T) {
		r := receiverResponse("nan")
		r.Nodes[0].Properties[1] = wire.Prop("score", wire.Float(math.NaN()))
		_, err := json.Marshal(struct{ R wire.GraphResponse }{r})
		if err == nil || !strings.Contains(err.Error(), "unsupported float value NaN") {
			t.Fatalf("json.Marshal: err = %v, want the NaN refused", err)
		}
	})
}
