package json

import "github.com/graphwire/graphwire/wire"

// Decode parses canonical-shaped JSON into a response under the default
// Limits; see Codec.Decode.
func Decode(data []byte) (*wire.GraphResponse, error) { return std.Decode(data) }

// Decode parses canonical-shaped JSON into a response; see the package
// documentation for what it accepts. Errors are *wire.DecodeError with a
// byte offset.
func (c *Codec) Decode(data []byte) (*wire.GraphResponse, error) {
	return wire.DecodeJSON(data, c.core.Limits)
}
