package gcf

import "github.com/graphwire/graphwire/wire"

// DecodeGeneric is Decode with every table read as a generic value and
// converted, the reference the table sinks are held to.
func (c *Codec) DecodeGeneric(data []byte) (*wire.GraphResponse, error) {
	if err := c.core.CheckInput(len(data)); err != nil {
		return nil, err
	}
	return c.decodeAt(data, 0, 0, false)
}
