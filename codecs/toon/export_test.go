package toon

import "github.com/graphwire/graphwire/wire"

// DecodeGeneric is Decode with every table read as a generic value and
// converted, the reference the table sinks are held to.
func (c *Codec) DecodeGeneric(data []byte) (*wire.GraphResponse, error) {
	_, r, err := c.read(data, nil, false)
	return r, err
}

// GenericRows sends every rows section to the generic writer while on
// (true), for comparing it with the table writer.
func GenericRows(on bool) { genericRows.Store(on) }

// TablesRead decodes data and reports how many of the layout's tables
// it holds and how many of them the table sinks read.
func (c *Codec) TablesRead(data []byte) (offered, taken int, err error) {
	t := &tables{lim: c.core.Limits, src: data}
	_, _, err = c.read(data, t, false)
	return t.offered, t.taken, err
}
