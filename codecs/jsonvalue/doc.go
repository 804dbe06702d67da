// Package jsonvalue holds any JSON value exactly — Value, Object, Member,
// Number, Equal — and the generic JSON text that goes with it: Parse reads
// a JSON document into a Value, Append writes one as compact JSON.
//
// It is the value model of the generic TOON library (codecs/toon/toonvalue)
// and of any generic document a codec or a test works on. It is not
// graphwire's data model: a GraphResponse is wire's, its values are
// wire.Values, and its canonical JSON is written and read by wire (see
// codecs/json). The names here do not mean wire's: jsonvalue.Int returns a
// Number, wire.Int a wire.Value; jsonvalue.Equal compares generic values,
// wire.Equal responses.
//
// Objects keep their key order; a Number holds an int64 or a float64
// exactly, so an integer beyond 2^53 survives (JavaScript's numbers round
// it). Numbers are written as JavaScript writes them (see Number.String).
//
// # Limits
//
// Parse follows nesting up to 1000 levels and Append up to 10000 (deeper
// is almost certainly a cycle); past them they fail. Parse allocates in
// proportion to its input and does not keep the caller's slice: it reads
// with Scanner, the module's one JSON scanner, whose strings share one
// copy of the input. A *wire.DecodeError from Parse has the byte offset
// of the problem ("json: offset 5: ...").
package jsonvalue
