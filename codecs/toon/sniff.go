package toon

import (
	"bytes"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wirecodec"
)

// Sniff implements wirecodec.Sniffer: 0.95 when the first line (after
// blank lines and a byte order mark) starts "format_version: " or
// "query_type: ", 0.3 for another "key: value" or "key:" line (plain TOON
// may hold anything), and 0 for a line opening with '{', '[', '@' or '"'
// (JSON, GOON, a root array or quoted key), for a document's header field
// (Decode does not read it), and for bytes that are not text.
func (c *Codec) Sniff(prefix []byte) float64 {
	t, ok := wirecodec.SniffText(prefix)
	if !ok || len(t) == 0 {
		return 0
	}
	line := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		line = t[:i]
	}
	_, header := delta.FieldKind(string(line[:max(bytes.IndexAny(line, ":["), 0)]))
	switch {
	case bytes.HasPrefix(line, []byte("format_version: ")), bytes.HasPrefix(line, []byte("query_type: ")):
		return 0.95
	case line[0] == '{' || line[0] == '[' || line[0] == '@' || line[0] == '"' || header:
		return 0
	case bytes.Contains(line, []byte(": ")) || bytes.HasSuffix(bytes.TrimRight(line, "\r"), []byte(":")):
		return 0.3
	}
	return 0
}
