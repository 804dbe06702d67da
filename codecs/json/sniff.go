package json

import (
	"bytes"

	"github.com/graphwire/graphwire/wirecodec"
)

// Sniff implements wire.Sniffer (see the package documentation,
// "Detection"): another object that opens with a key, is empty or is cut
// off after its '{' scores 0.6, any other object 0.1, an array 0.2, and
// bytes that are not text 0. White space and a byte order mark may come
// first.
func (c *Codec) Sniff(prefix []byte) float64 {
	t, ok := wirecodec.SniffText(prefix)
	if !ok || len(t) == 0 {
		return 0
	}
	switch t[0] {
	case '{':
		rest := bytes.TrimLeft(t[1:], " \t\r\n")
		switch {
		case bytes.HasPrefix(rest, []byte(`"format_version"`)), bytes.HasPrefix(rest, []byte(`"query_type"`)):
			return 0.99
		case bytes.HasPrefix(rest, []byte(`"graphwire_delta"`)):
			return 0
		case len(rest) == 0, rest[0] == '"', rest[0] == '}':
			return 0.6
		}
		return 0.1
	case '[':
		return 0.2
	}
	return 0
}
