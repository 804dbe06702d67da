package wirehttp_test

import (
	"bytes"
	"io"
	"sync/atomic"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// fakeCodec is a user codec: canonical JSON behind a one-line prefix,
// registered under its own name, alias and media type.
type fakeCodec struct{}

const fakePrefix = "FAKE/2\n"

func (fakeCodec) Info() wire.Info {
	return wire.Info{Name: "fake", Aliases: []string{"fk"}, MediaType: "application/x-fake; v=2",
		Description: "test codec", Fidelity: wire.Exact, Binary: true}
}

func (fakeCodec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	dst = append(dst, fakePrefix...)
	return cjson.AppendEncode(dst, r)
}

func (fakeCodec) Decode(data []byte) (*wire.GraphResponse, error) {
	rest, ok := bytes.CutPrefix(data, []byte(fakePrefix))
	if !ok {
		return nil, &wire.DecodeError{Codec: "fake", Line: 1, Msg: "expected the FAKE/2 line"}
	}
	return cjson.Decode(rest)
}

// streamCodec is a text codec that implements wirecodec.StreamEncoder; it
// counts the calls of each encoding path.
type streamCodec struct {
	appends, streams *atomic.Int64
}

func (streamCodec) Info() wire.Info {
	return wire.Info{Name: "stream", MediaType: "text/x-stream", Description: "test codec", Fidelity: wire.Exact}
}

func (c streamCodec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	c.appends.Add(1)
	return cjson.AppendEncode(dst, r)
}

// EncodeTo writes the same bytes as AppendEncode, in small pieces.
func (c streamCodec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	c.streams.Add(1)
	b, err := cjson.AppendEncode(nil, r)
	if err != nil {
		return err
	}
	for len(b) > 0 {
		n := min(len(b), 1000)
		if _, err := w.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

func (streamCodec) Decode(data []byte) (*wire.GraphResponse, error) { return cjson.Decode(data) }
