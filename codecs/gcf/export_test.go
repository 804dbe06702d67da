package gcf

import "github.com/graphwire/graphwire/wire"

// AppendGeneric (AppendEncode through the generic value only) and
// AppendFast (the writer alone) expose the two writers to the
// differential tests.
func (c *Codec) AppendGeneric(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return c.appendEncode(dst, r, false)
}

func (c *Codec) AppendFast(dst []byte, r *wire.GraphResponse) ([]byte, bool) {
	return c.appendFast(dst, r, 0)
}

// DecodeGeneric is Decode through the generic value only; DecodeFast is
// the reader alone.
func (c *Codec) DecodeGeneric(data []byte) (*wire.GraphResponse, error) { return c.decode(data, false) }

func (c *Codec) DecodeFast(data []byte) (*wire.GraphResponse, bool) { return c.decodeFast(data, 0) }
