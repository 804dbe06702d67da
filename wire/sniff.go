package wire

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// Guess is one codec that some bytes may be encoded in, with a confidence
// from 0 (surely not) to 1 (surely).
type Guess struct {
	Name       string  // the codec's canonical name
	Confidence float64 // in (0, 1]
}

// Sniffer is implemented by codecs that can tell their own encoding from
// its first bytes. Registry.Sniff finds it by type assertion; a codec that
// does not implement it is never named by Sniff.
//
// By convention a confidence of 0.9 or more means the bytes open with the
// format's own signature (wirebench's -f auto takes the first guess at 0.5
// or more), lower ones mean weaker signs, and 0 means the bytes cannot be
// this format.
type Sniffer interface {
	// Sniff returns the confidence, from 0 to 1, that prefix (the first
	// bytes of an input, at most SniffLen of them, so possibly cut in the
	// middle of an item) starts an encoding of this codec. It must be
	// fast, must not panic on any bytes, and must not modify or retain
	// prefix.
	Sniff(prefix []byte) float64
}

// SniffLen is how many leading bytes Sniff looks at: it costs the same on
// any input, however long. A codec's Sniff method and its tests may rely
// on seeing no more.
const SniffLen = 512

// Sniff names the registered codecs data may be encoded in, most likely
// first (ties by name), leaving out those with no confidence. An empty
// result means the bytes look like none of them.
//
// The registry has no rules of its own: each codec that implements Sniffer
// judges the first SniffLen bytes of data, and a confidence above 1 counts
// as 1. A codec registered under several aliases is named once, by its
// canonical name.
func (g *Registry) Sniff(data []byte) []Guess {
	if len(data) > SniffLen {
		data = data[:SniffLen:SniffLen]
	}
	t := g.current()
	var out []Guess
	for i, info := range t.infos {
		s, ok := t.byName[i].(Sniffer)
		if !ok {
			continue
		}
		if c := s.Sniff(data); c > 0 {
			out = append(out, Guess{Name: info.Name, Confidence: min(c, 1)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Confidence > out[j].Confidence })
	return out
}

// Sniff names the codecs of the default registry data may be encoded in;
// see Registry.Sniff.
func Sniff(data []byte) []Guess { return defaultRegistry.Sniff(data) }

// SniffText is for the Sniff method of a text format. It returns prefix
// without a leading UTF-8 byte order mark and leading whitespace (space,
// tab, CR, LF), and whether prefix reads as text: valid UTF-8 without
// control characters other than tab, CR and LF. A rune cut off at the end
// of prefix is allowed, since a prefix may end anywhere. The result shares
// prefix's bytes. The text codecs' Sniff methods (json, goon, toon)
// call it.
func SniffText(prefix []byte) (text []byte, ok bool) {
	p := bytes.TrimPrefix(prefix, []byte("\uFEFF"))
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && n <= 1 {
			if !utf8.FullRune(p[i:]) {
				break
			}
			return nil, false
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return nil, false
		}
		i += n
	}
	return bytes.TrimLeft(p, " \t\r\n"), true
}
