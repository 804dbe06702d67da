package scorecard

import (
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
	"github.com/graphwire/graphwire/wire"
)

// peers returns the peer rows after json-pretty: toon-plain, the canonical
// JSON document converted to TOON with default options — what a user gets
// from the reference TOON library's encode(JSON.parse(json)).
func peers() []Format {
	return []Format{{
		Name:  "toon-plain",
		Peer:  true,
		Text:  true,
		Loses: peerLosses["toon-plain"],
		encode: func(_ *wire.GraphResponse, canonical []byte) ([]byte, error) {
			return toonvalue.FromJSON(canonical, toonvalue.EncodeOptions{})
		},
		decode: func(data []byte) (*wire.GraphResponse, error) {
			j, err := toonvalue.ToJSON(data, toonvalue.DecodeOptions{})
			if err != nil {
				return nil, err
			}
			return cjson.Decode(j)
		},
		values: toonValues,
	}}
}
