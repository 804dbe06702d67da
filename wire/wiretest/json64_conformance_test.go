// The harness's hostile check decodes inputs of up to 64 MiB on one
// goroutine, which the race detector slows severalfold with nothing to
// watch; .ci/run runs this test without it.

//go:build !race

package wiretest_test

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// json64 is a user-defined codec: canonical JSON in standard base64, for
// transports that carry only ASCII.
type json64 struct{}

func (json64) Info() wire.Info {
	return wire.Info{Name: "json64", MediaType: "text/plain", Description: "canonical JSON in base64"}
}

func (json64) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	j, err := json.AppendEncode(nil, r)
	if err != nil {
		return dst, err
	}
	return base64.StdEncoding.AppendEncode(dst, j), nil
}

func (json64) Decode(data []byte) (*wire.GraphResponse, error) {
	j, err := base64.StdEncoding.AppendDecode(nil, data)
	if err != nil {
		var at base64.CorruptInputError
		errors.As(err, &at)
		return nil, &wire.DecodeError{Codec: "json64", Offset: int64(at), Msg: "malformed base64"}
	}
	r, err := json.Decode(j)
	if err != nil {
		var de *wire.DecodeError
		if errors.As(err, &de) {
			// Offsets of the base64 text, where the JSON byte's group starts.
			return nil, &wire.DecodeError{Codec: "json64", Offset: de.Offset / 3 * 4, Msg: "in the JSON: " + de.Msg}
		}
		return nil, err
	}
	return r, nil
}

// A codec of your own gets every check of the harness — round trip under its
// fidelity, determinism, concurrency, hostile input and the shapes the model
// refuses — in one line, whether or not it is registered anywhere (a
// service's own registry: pass reg.Lookup's codec).
func TestJSON64Conformance(t *testing.T) {
	wiretest.Config{Fidelity: wiretest.Exact}.RunCodec(t, json64{})
}
