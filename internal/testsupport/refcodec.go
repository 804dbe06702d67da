package testsupport

import (
	"slices"
	"testing"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// RefCodec is a test-only text codec with a session syntax
// (delta.SessionCodec): canonical JSON in which a reference is a node
// whose one property is "$sent_earlier": true. It is registered as
// "refjson" by the tests of fit and of the scorecard, which price and page
// session references through a codec that is not a built-in.
type RefCodec struct{ *cjson.Codec }

// RefMarker is the property that marks a reference.
const RefMarker = "$sent_earlier"

// Info names the codec refjson.
func (RefCodec) Info() wire.Info {
	return wire.Info{Name: "refjson", MediaType: "application/json", Fidelity: wire.Exact}
}

// AppendReferenced writes the nodes at refs as references.
func (c RefCodec) AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	out := *r
	out.Nodes = slices.Clone(r.Nodes)
	for _, i := range refs {
		out.Nodes[i] = wire.Node{Type: r.Nodes[i].Type, ID: r.Nodes[i].ID, Properties: []wire.Property{wire.Prop(RefMarker, wire.Bool(true))}}
	}
	return c.AppendEncode(dst, &out)
}

// DecodeReferenced reads a response and the positions of its references.
func (c RefCodec) DecodeReferenced(data []byte) (*wire.GraphResponse, []int, error) {
	r, err := c.Decode(data)
	if err != nil {
		return nil, nil, err
	}
	var refs []int
	for i, n := range r.Nodes {
		if len(n.Properties) == 1 && n.Properties[0].Key == RefMarker {
			r.Nodes[i].Properties = nil
			refs = append(refs, i)
		}
	}
	return r, refs, nil
}

// RefRegistry returns a registry of default limits holding a RefCodec over
// the json codec's defaults, and that RefCodec.
func RefRegistry(t testing.TB) (*wire.Registry, RefCodec) {
	t.Helper()
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := cjson.New(cjson.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc := RefCodec{Codec: c}
	reg.Register(rc)
	return reg, rc
}
