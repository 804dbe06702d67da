package toon

import (
	"bytes"

	"github.com/graphwire/graphwire/delta"

	"github.com/graphwire/graphwire/wirecodec"
)

// Sniff implements wirecodec.Sniffer: the confidence that prefix opens the toon
// codec's graph layout. Text whose first line starts "format_version: "
// or "query_type: " (the layout's first field, or a document written with
// query_type first) scores 0.95; any other first line that is a TOON key
// and value ("key: value") or opens a block ("key:") scores 0.3, since
// plain TOON may hold anything. A first line opening with '{', '[', '@'
// or '"' scores 0: that is JSON or GOON, or a TOON root array or quoted
// key, which the graph layout never starts with; so does a document with
// a header (a delta, a response with references: its first line opens
// with a header field), which Decode does not read (DecodeDocument does).
// Blank lines and a UTF-8 byte order mark may come first; bytes that are
// not text score 0.
func (c *Codec) Sniff(prefix []byte) float64 {
	t, ok := wirecodec.SniffText(prefix)
	if !ok || len(t) == 0 {
		return 0
	}
	line := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		line = t[:i]
	}
	switch {
	case bytes.HasPrefix(line, []byte("format_version: ")), bytes.HasPrefix(line, []byte("query_type: ")):
		return 0.95
	case line[0] == '{' || line[0] == '[' || line[0] == '@' || line[0] == '"':
		return 0
	case isHeaderLine(line):
		return 0
	case bytes.Contains(line, []byte(": ")) || bytes.HasSuffix(bytes.TrimRight(line, "\r"), []byte(":")):
		return 0.3
	}
	return 0
}

// isHeaderLine reports whether line is a document's header line: a
// header field's name then ':' or '['.
func isHeaderLine(line []byte) bool {
	_, ok := delta.FieldKind(string(line[:max(bytes.IndexAny(line, ":["), 0)]))
	return ok
}
