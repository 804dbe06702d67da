package goon

import (
	"bytes"

	"github.com/graphwire/graphwire/wirecodec"
)

// Sniff implements wirecodec.Sniffer: the confidence that prefix opens GOON.
// Text whose first line is "@header" (every GOON document's first section,
// in every goon_version) scores 0.99; any other "@section" line 0.4. Blank
// lines and a UTF-8 byte order mark may come first; bytes that are not
// text score 0. A document (a delta, a response with references) opens
// with "@header" too: it is GOON, read by DecodeDocument.
func (c *Codec) Sniff(prefix []byte) float64 {
	t, ok := wirecodec.SniffText(prefix)
	if !ok || len(t) == 0 {
		return 0
	}
	switch {
	case bytes.HasPrefix(t, []byte("@header\n")), bytes.HasPrefix(t, []byte("@header\r\n")):
		return 0.99
	case t[0] == '@':
		return 0.4
	}
	return 0
}
