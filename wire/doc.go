// Package wire holds graphwire's data model, GraphResponse, and the registry
// through which codecs are chosen by name at run time.
//
// # Data model
//
// A GraphResponse is one graph query result (GKG's unified query response,
// schema v2). Its values keep apart what a wire format must keep apart: int
// and float, the string "true" and the bool true, null, "" and absent,
// absent and zero optional fields, and int64 beyond 2^53. See Value and the
// nil-versus-empty rule on GraphResponse.
//
// # Registry
//
// Codec packages register themselves in init; importing
//
//	import _ "github.com/graphwire/graphwire/codecs"
//
// registers every built-in codec. Names and aliases are case-insensitive;
// the registry is safe for concurrent use and reads never take a lock.
//
// # Equality
//
// Round-trip tests compare responses with CmpOptions (go-cmp), under Exact
// or NumbersByValue equality; both are defined here once and used by every
// codec's tests.
package wire
