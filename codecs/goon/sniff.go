package goon

import (
	"bytes"

	"github.com/graphwire/graphwire/wirecodec"
)

// Sniff implements wirecodec.Sniffer (see the package documentation,
// Detection).
func (c *Codec) Sniff(prefix []byte) float64 {
	t, ok := wirecodec.SniffText(prefix)
	switch {
	case !ok || len(t) == 0:
		return 0
	case bytes.HasPrefix(t, []byte("@header\n")), bytes.HasPrefix(t, []byte("@header\r\n")):
		return 0.99
	case t[0] == '@':
		return 0.4
	}
	return 0
}
