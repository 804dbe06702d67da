package toonvalue

import (
	"errors"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/wire"
)

// FromJSON converts JSON text to TOON: the JSON is read with
// jsonvalue.Parse (object key order kept, numbers exact) and encoded with
// opts. It is what a user of the reference TOON library gets from
// encode(JSON.parse(text)), except that integers beyond 2^53 stay exact.
// A JSON syntax error reads "toon: offset N: JSON input: ...".
func FromJSON(jsonText []byte, opts EncodeOptions) ([]byte, error) {
	v, err := jsonvalue.Parse(jsonText)
	if err != nil {
		var de *wire.DecodeError
		if errors.As(err, &de) {
			return nil, &wire.DecodeError{Codec: "toon", Offset: de.Offset, Msg: "JSON input: " + de.Msg}
		}
		return nil, err
	}
	return Marshal(v, opts)
}

// ToJSON converts TOON text to compact JSON (see jsonvalue.Append).
func ToJSON(toonText []byte, opts DecodeOptions) ([]byte, error) {
	v, err := Unmarshal(toonText, opts)
	if err != nil {
		return nil, err
	}
	return jsonvalue.Append(nil, v)
}
