package testsupport

import (
	"testing"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// RefCodec is a test-only text codec that is not a built-in and writes
// documents (delta.DocumentCodec) as a codec of one's own would: the json
// codec under another name, registered as "refjson" by the tests of fit
// and of the scorecard, which price and page session references and
// deltas through it.
type RefCodec struct{ *cjson.Codec }

// Info names the codec refjson.
func (RefCodec) Info() wire.Info {
	return wire.Info{Name: "refjson", MediaType: "application/json", Fidelity: wire.Exact}
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
