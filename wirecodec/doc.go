// Package wirecodec is for authors of codecs: what a codec's encoder and
// decoder need beyond package wire's model and registry. A program that
// only encodes and decodes responses rarely imports it; a service that
// validates a response for every format, or detects a format from its
// bytes, calls Validate and Sniff.
//
// # Limits, one set of rules for every codec
//
// Every built-in encoder refuses what its own decoder would refuse under
// the same wire.Limits. Measure (or Check, CheckSize and CheckExpansion,
// which it stands for) holds the model's rules and the limits in one walk
// of a response; a decoder counts the response it builds with a Meter,
// which refuses it as soon as it passes MaterializedLimit of its input, in
// canonical JSON bytes or in memory (MaterializedSize, InMemorySize).
// A decoder that builds the whole response before it counts it asks
// Within first: a bound that reads no string (a string's bytes and quotes,
// and at most five bytes more for each of its bytes) settles most
// responses, and only one it cannot settle is measured exactly. A
// decoder that took a part's strings from input that holds no escape
// sets Meter.Clean around its charge (the json and goon decoders do).
// Validate runs Check and every codec's own checks over a registry.
//
// # Optional interfaces of a codec
//
// Package wire's registry finds these by type assertion on a wire.Codec,
// by their methods alone (it does not import this package): StreamEncoder
// (Registry.EncodeTo writes as the codec produces), Sniffer (Sniff names
// the codec; SniffText is the first step of a text format's rule) and
// Checker (Validate and CheckEncode ask it rather than encoding).
//
// # Where an error points
//
// NodePath, EdgePath, ColumnPath, GroupColumnPath and RowPath start the
// Path of an *wire.EncodeError, in the syntax every codec shares:
// nodes[3].properties.score, rows[0].g.properties.name.
//
// # Why a package of its own
//
// Package wire is what a user needs: the model, the registry, errors and
// limits. This package imports wire and is implemented here, not in wire:
// wire needs none of it, since canonical JSON's reader and writer are the
// json codec's (codecs/json, which counts with a Meter like every other
// decoder) and wire's encoding/json methods reach them through the
// registry. A Meter is a concrete type whose methods a decoder calls
// directly, as before they moved.
//
// # Security
//
// The limits and their defaults are wire.Limits' (64 MiB of input, lists
// 32 deep and at most 10,000 (HardMaxDepth), 1,048,576 elements per
// sequence, 16 MiB strings, 256 MiB of canonical JSON, MaxExpansion 8
// times the input plus ExpansionAllowance, 8 MiB). A Meter never
// allocates by a number from the input: it counts what a decoder has
// built. ReadLimited never buffers more than its limit and a byte.
package wirecodec
