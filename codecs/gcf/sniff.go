package gcf

import (
	"bytes"

	"github.com/graphwire/graphwire/wirecodec"
)

// Sniff implements wirecodec.Sniffer: 0.95 for text whose first line is a GCF
// generic-profile header (a response, or a document of delta.DocumentCodec),
// 0.5 for any other GCF header ("GCF " and a profile field), 0 otherwise.
// A byte order mark and blank lines may come first.
func (c *Codec) Sniff(prefix []byte) float64 {
	t, ok := wirecodec.SniffText(prefix)
	if !ok {
		return 0
	}
	line := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		line = t[:i]
	}
	line = bytes.TrimRight(line, "\r")
	switch {
	case bytes.Equal(line, []byte("GCF profile=generic")), bytes.HasPrefix(line, []byte("GCF profile=generic ")):
		return 0.95
	case bytes.HasPrefix(line, []byte("GCF profile=")):
		return 0.5
	}
	return 0
}
