package codecs_test

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

func validRegistry(t *testing.T) *wire.Registry {
	t.Helper()
	reg, err := codecs.NewRegistry(codecs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// refusals returns codec name -> path of each codec a *wirecodec.ValidationError
// lists.
func refusals(t *testing.T, err error) (map[string]string, *wirecodec.ValidationError) {
	t.Helper()
	var ve *wirecodec.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate: %v, want a *wirecodec.ValidationError", err)
	}
	got := map[string]string{}
	for _, ce := range ve.Codecs {
		got[ce.Codec] = ce.Path
	}
	return got, ve
}

// TestValidateNamesEveryRefusingCodec is issue 24's item 7: a type name
// with a space encodes in every format but goon, and one call says so,
// naming goon and the path, before any encoding is served.
func TestValidateNamesEveryRefusingCodec(t *testing.T) {
	reg := validRegistry(t)
	r := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "User", ID: 1}, {Type: "Merge Request", ID: 2, Properties: []wire.Property{wire.Prop("title", wire.String("x"))}}}}
	got, ve := refusals(t, wirecodec.Validate(reg, r))
	if ve.Model != nil {
		t.Errorf("model error %v for a response the model allows", ve.Model)
	}
	// The path is goon's own ("node 2" today): the codec says where.
	if diff := cmp.Diff([]string{"goon"}, slices.Sorted(maps.Keys(got))); diff != "" || got["goon"] == "" {
		t.Errorf("refusing codecs (-want +got):\n%s\nerror: %v", diff, ve)
	}
	if ce := ve.For("goon"); ce == nil || !strings.Contains(ve.Error(), "goon: "+ce.Path+": ") || !strings.Contains(ce.Msg, "Merge Request") {
		t.Errorf("For(goon) = %v; Error() = %q", ce, ve.Error())
	}
	// Each codec's verdict is its encoder's.
	for _, info := range reg.List() {
		c, _ := reg.Lookup(info.Name)
		_, encErr := c.AppendEncode(nil, r)
		if (encErr != nil) != (ve.For(info.Name) != nil) {
			t.Errorf("%s: AppendEncode error %v, Validate lists %v", info.Name, encErr, ve.For(info.Name))
		}
	}

	r.Nodes[1].Type = "MergeRequest"
	if err := wirecodec.Validate(reg, r); err != nil {
		t.Errorf("Validate of a valid response: %v", err)
	}
}

// A NaN is refused by the text formats only; a repeated property key by the
// model, and so by every codec; a limit is matched by errors.Is.
func TestValidateModelAndLimits(t *testing.T) {
	reg := validRegistry(t)
	r := &wire.GraphResponse{FormatVersion: "1.0", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("score", wire.Float(math.NaN()))}}}}
	got, ve := refusals(t, wirecodec.Validate(reg, r))
	if ve.Model != nil {
		t.Errorf("model error %v for a NaN", ve.Model)
	}
	for _, name := range []string{"msgpack", "cbor"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s refuses a NaN: %v", name, ve.For(name))
		}
	}
	if _, ok := got["json"]; !ok {
		t.Errorf("json accepts a NaN: %v", ve)
	}

	r.Nodes[0].Properties = []wire.Property{wire.Prop("a", wire.Int(1)), wire.Prop("a", wire.Int(2))}
	got, ve = refusals(t, wirecodec.Validate(reg, r))
	if ve.Model == nil || ve.Model.Path != "nodes[0].properties.a" {
		t.Errorf("model error %v, want one at nodes[0].properties.a", ve.Model)
	}
	for _, info := range reg.List() {
		if got[info.Name] != "nodes[0].properties.a" {
			t.Errorf("%s: refusal at %q, want nodes[0].properties.a", info.Name, got[info.Name])
		}
	}
	var ee *wire.EncodeError
	if !errors.As(ve, &ee) || ee != ve.Model {
		t.Errorf("errors.As gives %v, want the model's error", ee)
	}

	small, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxStringBytes: 4}})
	if err != nil {
		t.Fatal(err)
	}
	r.Nodes[0].Properties = []wire.Property{wire.Prop("a", wire.String("too long"))}
	if err := wirecodec.Validate(small, r); !errors.Is(err, wire.ErrLimit) {
		t.Errorf("Validate past MaxStringBytes: %v, want ErrLimit", err)
	}
	if err := wirecodec.Validate(reg, nil); err == nil {
		t.Error("Validate(nil) = nil")
	}
}

// TestValidateAgreesWithEveryEncoder: over generated responses, valid,
// awkward (names goon cannot write, floats json cannot) and refused by the
// model, Validate lists a codec exactly when its AppendEncode fails, with
// the same error.
func TestValidateAgreesWithEveryEncoder(t *testing.T) {
	reg := validRegistry(t)
	opts := []wiretest.Options{{}, {AwkwardNames: true, NonFinite: true}}
	for _, shape := range wiretest.Refusals() {
		if shape.Limit() == "" {
			opts = append(opts, wiretest.Options{AwkwardNames: true, Refuse: shape})
		}
	}
	n := 30
	if testing.Short() {
		n = 8
	}
	refused := map[string]int{}
	for _, o := range opts {
		gen := wiretest.ResponseWith(o)
		for seed := range n {
			r := gen.Example(seed)
			err := wirecodec.Validate(reg, r)
			var ve *wirecodec.ValidationError
			if err != nil && !errors.As(err, &ve) {
				t.Fatalf("Validate: %v is not a *wirecodec.ValidationError", err)
			}
			for _, info := range reg.List() {
				c, _ := reg.Lookup(info.Name)
				_, encErr := c.AppendEncode(nil, r)
				var listed *wire.EncodeError
				if ve != nil {
					listed = ve.For(info.Name)
				}
				switch {
				case encErr == nil && listed != nil:
					t.Errorf("%+v seed %d: %s encodes, Validate lists %v", o, seed, info.Name, listed)
				case encErr != nil && (listed == nil || listed.Error() != encErr.Error()):
					t.Errorf("%+v seed %d: %s: AppendEncode gives %v, Validate lists %v", o, seed, info.Name, encErr, listed)
				case encErr != nil:
					refused[info.Name]++
				}
			}
		}
	}
	t.Logf("refusals per codec over %d responses: %v", n*len(opts), refused)
}
