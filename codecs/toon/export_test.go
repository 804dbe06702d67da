package toon

import "github.com/graphwire/graphwire/wire"

// DecodeGeneric is Decode through the generic TOON value only;
// DecodeFast is the fast reader alone (false: it gave up).
func (c *Codec) DecodeGeneric(data []byte) (*wire.GraphResponse, error) {
	return c.decodeGeneric(data)
}

func (c *Codec) DecodeFast(data []byte) (*wire.GraphResponse, bool) { return c.decodeFast(data) }

// GenericRows sends every rows section to the generic writer while on
// (true), for comparing it with the table writer.
func GenericRows(on bool) { genericRows.Store(on) }
