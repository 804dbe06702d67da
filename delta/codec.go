package delta

import (
	"errors"

	"github.com/graphwire/graphwire/wire"
)

// Codec is the optional interface of a wire.Codec that writes and reads
// deltas in its own syntax, as a document a reader tells from a response.
// EncodeWith and DecodeWith find it by type assertion on the registered
// codec, as grpc-go finds CodecV2, so wire.Codec does not change and a
// codec of one's own takes part by implementing two methods.
//
// AppendDelta follows AppendEncode's rules (on error, dst as given and an
// *wire.EncodeError); DecodeDelta follows Decode's (a positioned
// *wire.DecodeError, the codec's Limits, never a panic). A decoded Delta
// need not be trusted: Patch verifies it against its base and result.
type Codec interface {
	AppendDelta(dst []byte, d *Delta) ([]byte, error)
	DecodeDelta(data []byte) (*Delta, error)
}

// ErrNoSyntax is matched (errors.Is) by the error of EncodeWith and
// DecodeWith for a registered codec that does not implement Codec: send
// that client the full response.
var ErrNoSyntax = errors.New("the codec has no delta syntax")

type noSyntaxError struct{ codec, what string }

func (e *noSyntaxError) Error() string {
	if e.what == "session" {
		return "delta: codec " + e.codec + " has no session syntax (it does not implement delta.SessionCodec)"
	}
	return "delta: codec " + e.codec + " has no delta syntax (it does not implement delta.Codec)"
}

func (e *noSyntaxError) Is(target error) bool { return target == ErrNoSyntax }

// lookup finds the Codec registered in g (the default registry when nil)
// under name.
func lookup(g *wire.Registry, name string) (Codec, error) {
	if g == nil {
		g = wire.DefaultRegistry()
	}
	c, err := g.Lookup(name)
	if err != nil {
		return nil, err
	}
	dc, ok := c.(Codec)
	if !ok {
		return nil, &noSyntaxError{codec: c.Info().Name}
	}
	return dc, nil
}

// EncodeWith writes d in the syntax of the codec registered in g (nil: the
// default registry) under name. A codec without one is ErrNoSyntax.
func EncodeWith(g *wire.Registry, name string, d *Delta) ([]byte, error) {
	c, err := lookup(g, name)
	if err != nil {
		return nil, err
	}
	return c.AppendDelta(nil, d)
}

// DecodeWith reads a delta in the syntax of the codec registered in g
// (nil: the default registry) under name. A codec without one is
// ErrNoSyntax.
func DecodeWith(g *wire.Registry, name string, data []byte) (*Delta, error) {
	c, err := lookup(g, name)
	if err != nil {
		return nil, err
	}
	return c.DecodeDelta(data)
}
