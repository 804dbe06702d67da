package delta_test

import (
	"errors"
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// jsonish is a user's codec: it encodes responses in canonical JSON and
// deltas in their JSON form, taking part through delta.Codec.
type jsonish struct{}

func (jsonish) Info() wire.Info { return wire.Info{Name: "jsonish", Fidelity: wire.Exact} }
func (jsonish) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return wire.AppendJSON(dst, r)
}
func (jsonish) Decode(data []byte) (*wire.GraphResponse, error) {
	return wire.DecodeJSON(data, wire.Limits{})
}
func (jsonish) AppendDelta(dst []byte, d *delta.Delta) ([]byte, error) {
	return delta.AppendJSON(dst, d)
}
func (jsonish) DecodeDelta(data []byte) (*delta.Delta, error) {
	return delta.DecodeJSON(data, wire.Limits{})
}

// plain has no delta syntax.
type plain struct{}

func (plain) Info() wire.Info { return wire.Info{Name: "plain", Fidelity: wire.Exact} }
func (plain) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return wire.AppendJSON(dst, r)
}
func (plain) Decode(data []byte) (*wire.GraphResponse, error) {
	return wire.DecodeJSON(data, wire.Limits{})
}

func TestCodecByTypeAssertion(t *testing.T) {
	g, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g.Register(jsonish{})
	g.Register(plain{})
	rs := wiretest.FixedResponses()
	d, err := delta.Diff(rs[0], rs[1])
	if err != nil {
		t.Fatal(err)
	}
	b, err := delta.EncodeWith(g, "JSONish", d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := delta.DecodeWith(g, "jsonish", b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := delta.Patch(rs[0], got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := wiretest.Diff(rs[1], r, wire.Exact); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := delta.EncodeWith(g, "plain", d); !errors.Is(err, delta.ErrNoSyntax) {
		t.Errorf("a codec without a delta syntax: got %v, want ErrNoSyntax", err)
	}
	if _, err := delta.DecodeWith(g, "plain", b); !errors.Is(err, delta.ErrNoSyntax) {
		t.Errorf("a codec without a delta syntax: got %v, want ErrNoSyntax", err)
	}
	if _, err := delta.EncodeWith(g, "nope", d); !errors.Is(err, wire.ErrUnknownCodec) {
		t.Errorf("an unknown codec: got %v, want wire.ErrUnknownCodec", err)
	}
}
