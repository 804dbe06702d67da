package wirecodec_test

import (
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// fakeCodec refuses a response whose first node is of type bad; it counts
// how Validate reached it.
type fakeCodec struct {
	name     string
	bad      string
	appends  int
	panics   bool
	plainErr bool
}

func (c *fakeCodec) Info() wire.Info {
	return wire.Info{Name: c.name, MediaType: "application/x-" + c.name}
}
func (c *fakeCodec) refuse(r *wire.GraphResponse) error {
	if c.panics {
		panic("boom")
	}
	if len(r.Nodes) > 0 && r.Nodes[0].Type == c.bad {
		if c.plainErr {
			return errors.New("plain failure")
		}
		return &wire.EncodeError{Codec: c.name, Path: "nodes[0].type", Msg: "bad type"}
	}
	return nil
}
func (c *fakeCodec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	c.appends++
	if err := c.refuse(r); err != nil {
		return dst, err
	}
	return append(dst, "x"...), nil
}
func (c *fakeCodec) Decode([]byte) (*wire.GraphResponse, error) { return &wire.GraphResponse{}, nil }

// checkerCodec answers CheckEncode and never needs to encode.
type checkerCodec struct{ fakeCodec }

func (c *checkerCodec) CheckEncode(r *wire.GraphResponse) error { return c.refuse(r) }

// streamCodec encodes into a writer.
type streamCodec struct {
	fakeCodec
	wrote int
}

func (c *streamCodec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	if err := c.refuse(r); err != nil {
		return err
	}
	n, err := w.Write([]byte("streamed"))
	c.wrote += n
	return err
}

func TestValidateAsksEveryCodecByTheRightRoute(t *testing.T) {
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plain := &fakeCodec{name: "plain", bad: "A"}
	checker := &checkerCodec{fakeCodec{name: "checker", bad: "B"}}
	stream := &streamCodec{fakeCodec: fakeCodec{name: "stream", bad: "A", plainErr: true}}
	panicky := &fakeCodec{name: "panicky", bad: "none"}
	for _, c := range []wire.Codec{plain, checker, stream, panicky} {
		reg.Register(c)
	}
	r := &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "A", ID: 1}}}

	err = wirecodec.Validate(reg, r)
	var ve *wirecodec.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate: %v, want a *wirecodec.ValidationError", err)
	}
	type verdict struct{ Codec, Path, Msg string }
	var got []verdict
	for _, ce := range ve.Codecs {
		got = append(got, verdict{ce.Codec, ce.Path, ce.Msg})
	}
	want := []verdict{{"plain", "nodes[0].type", "bad type"}, {"stream", "", "cannot encode"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
	if ve.Model != nil {
		t.Errorf("model error %v", ve.Model)
	}
	if checker.appends != 0 || stream.appends != 0 {
		t.Errorf("a Checker was encoded %d times, a StreamEncoder through AppendEncode %d times", checker.appends, stream.appends)
	}
	if plain.appends != 1 {
		t.Errorf("a plain codec was encoded %d times, want 1", plain.appends)
	}

	r.Nodes[0].Type = "C"
	if err := wirecodec.Validate(reg, r); err != nil {
		t.Errorf("Validate of a response every codec takes: %v", err)
	}
	panicky.panics = true
	err = wirecodec.Validate(reg, r)
	if !errors.As(err, &ve) || len(ve.Codecs) != 1 || ve.Codecs[0].Codec != "panicky" {
		t.Errorf("a panicking codec: %v", err)
	}
	if stream.wrote == 0 {
		t.Error("the StreamEncoder was never asked to write (into the discarding writer)")
	}
}

// The model's rules are one check: a repeated property key is refused
// under the registry's Limits even by a codec that does not check it.
func TestValidateModelRules(t *testing.T) {
	var reg wire.Registry
	reg.Register(&fakeCodec{name: "lax", bad: "none"})
	cases := []struct {
		name, path string
		r          wire.GraphResponse
	}{
		{"repeated key", "nodes[0].properties.k", wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "A", Properties: []wire.Property{wire.Prop("k", wire.Int(1)), wire.Prop("k", wire.Int(2))}}}}},
		{"reserved key", "nodes[0].properties.id", wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "A", Properties: []wire.Property{wire.Prop("id", wire.Int(1))}}}}},
		{"query type", "query_type", wire.GraphResponse{QueryType: "walk"}},
		{"group kind", "group_columns[0].kind", wire.GraphResponse{QueryType: wire.Aggregation, GroupColumns: []wire.GroupColumn{{Name: "g", Kind: "edge"}}}},
		{"repeated cell", "rows[0]", wire.GraphResponse{QueryType: wire.Aggregation, Rows: []wire.Row{{{Name: "c"}, {Name: "c"}}}}},
		{"pagination", "pagination", wire.GraphResponse{QueryType: wire.Search, Pagination: &wire.Pagination{HasMore: true}}},
	}
	for _, c := range cases {
		var ve *wirecodec.ValidationError
		if err := wirecodec.Validate(&reg, &c.r); !errors.As(err, &ve) || ve.Model == nil || ve.Model.Path != c.path || len(ve.Codecs) != 0 {
			t.Errorf("%s: %v, want a model error at %s and no codec's", c.name, err, c.path)
		}
	}
}
