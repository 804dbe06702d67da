package gcf

import "github.com/graphwire/graphwire/wire"

// DecodeGeneric is Decode through the generic value only; DecodeFast is
// the reader alone.
func (c *Codec) DecodeGeneric(data []byte) (*wire.GraphResponse, error) { return c.decode(data, false) }

func (c *Codec) DecodeFast(data []byte) (*wire.GraphResponse, bool) { return c.decodeFast(data, 0) }
