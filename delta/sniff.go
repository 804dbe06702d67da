package delta

import (
	"bytes"

	"github.com/graphwire/graphwire/wire"
)

// jsonSignature opens the JSON form of every delta: AppendJSON writes
// "graphwire_delta" as the first key.
const jsonSignature = `"graphwire_delta"`

// SniffJSON tells the JSON form of a delta from a response by its first
// bytes (wire.SniffLen are enough), with a confidence on wire.Sniff's
// scale: 0.99 for an object whose first key is "graphwire_delta" (after an
// optional byte order mark and whitespace), 0 otherwise. A response's
// canonical JSON opens with "format_version", so the two never meet; the
// json codec's Sniff rates a delta 0, and its SniffDelta is SniffJSON.
func SniffJSON(prefix []byte) float64 {
	text, ok := wire.SniffText(prefix)
	if !ok || len(text) == 0 || text[0] != '{' {
		return 0
	}
	rest := bytes.TrimLeft(text[1:], " \t\r\n")
	if bytes.HasPrefix(rest, []byte(jsonSignature)) {
		return 0.99
	}
	return 0
}
