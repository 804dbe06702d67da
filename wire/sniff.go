package wire

import (
	"bytes"
	"slices"
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
// its first bytes. Registry.Sniff finds it by type assertion.
type Sniffer interface {
	// Sniff returns the confidence, from 0 to 1, that prefix (the first
	// bytes of an input, at most SniffLen of them) starts an encoding of
	// this codec. It must be fast and must not retain prefix.
	Sniff(prefix []byte) float64
}

// SniffLen is how many leading bytes Sniff looks at: it costs the same on
// any input, however long.
const SniffLen = 512

// Sniff names the registered codecs data may be encoded in, most likely
// first (ties by name), leaving out those with no confidence. An empty
// result means the bytes look like none of them.
//
// A codec that implements Sniffer judges for itself. For the others, the
// built-in formats are recognised by name from their first bytes: canonical
// JSON ("json") starts with an object holding "format_version" or
// "query_type"; GOON ("goon") with its "@header" line; graph TOON ("toon")
// with a "format_version:" or "query_type:" line; the binary layout of
// "msgpack" and "cbor" with an array of 5 to 9 items: the layout version 1 or 2,
// a format version string and a query type. Weaker signs (any JSON
// object, any "key: value" line, any "@section" line) give lower
// confidences. Only a prefix of SniffLen bytes is read.
func (g *Registry) Sniff(data []byte) []Guess {
	if len(data) > SniffLen {
		data = data[:SniffLen]
	}
	t := g.current()
	var out []Guess
	for i, info := range t.infos {
		var c float64
		if s, ok := t.byName[i].(Sniffer); ok {
			c = s.Sniff(data)
		} else if f := builtinSniffers[info.Name]; f != nil {
			c = f(data)
		}
		if c > 0 {
			out = append(out, Guess{Name: info.Name, Confidence: min(c, 1)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Confidence > out[j].Confidence })
	return out
}

// Sniff names the codecs of the default registry data may be encoded in;
// see Registry.Sniff.
func Sniff(data []byte) []Guess { return defaultRegistry.Sniff(data) }

var builtinSniffers = map[string]func([]byte) float64{
	"json":    sniffJSON,
	"goon":    sniffGOON,
	"toon":    sniffTOON,
	"msgpack": sniffMsgpack,
	"cbor":    sniffCBOR,
}

// textPrefix returns the prefix without a UTF-8 byte order mark and
// leading whitespace, and whether it is UTF-8 text (a rune cut off at the
// end of the prefix is allowed, control characters other than tab, CR and
// LF are not).
func textPrefix(p []byte) ([]byte, bool) {
	p = bytes.TrimPrefix(p, []byte("\uFEFF"))
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

func sniffJSON(p []byte) float64 {
	t, ok := textPrefix(p)
	if !ok || len(t) == 0 {
		return 0
	}
	switch t[0] {
	case '{':
		rest := bytes.TrimLeft(t[1:], " \t\r\n")
		switch {
		case bytes.HasPrefix(rest, []byte(`"format_version"`)), bytes.HasPrefix(rest, []byte(`"query_type"`)):
			return 0.99
		case len(rest) == 0, rest[0] == '"', rest[0] == '}':
			return 0.6
		}
		return 0.1
	case '[':
		return 0.2
	}
	return 0
}

func sniffGOON(p []byte) float64 {
	t, ok := textPrefix(p)
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

func sniffTOON(p []byte) float64 {
	t, ok := textPrefix(p)
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
	case bytes.Contains(line, []byte(": ")) || bytes.HasSuffix(bytes.TrimRight(line, "\r"), []byte(":")):
		return 0.3
	}
	return 0
}

// queryTypes are the query types the binary layout's third item names.
var queryTypes = []string{"traversal", "search", "neighbors", "path_finding", "aggregation"}

// sniffBinary judges p as the binary layout: an array header of 5 to 9
// items (array), the layout version 1 or 2, format_version as a string of
// printable ASCII, and the query type as a string naming one. str reads a
// string header and returns its length and size, or ok false.
func sniffBinary(p []byte, array func(byte) bool, str func([]byte) (n, size int, ok bool)) float64 {
	if len(p) < 3 || !array(p[0]) || (p[1] != 0x01 && p[1] != 0x02) {
		return 0
	}
	n, size, ok := str(p[2:])
	if !ok {
		return 0
	}
	i := 2 + size
	if n > 64 || len(p) < i+n {
		return 0.3
	}
	for _, c := range p[i : i+n] {
		if c < 0x20 || c > 0x7e {
			return 0
		}
	}
	i += n
	if n, size, ok = str(p[i:]); !ok || len(p) < i+size+n {
		return 0.3
	}
	if !slices.Contains(queryTypes, string(p[i+size:i+size+n])) {
		return 0.3
	}
	return 0.95
}

func sniffMsgpack(p []byte) float64 {
	return sniffBinary(p, func(b byte) bool { return b >= 0x95 && b <= 0x99 }, func(p []byte) (int, int, bool) {
		switch {
		case len(p) >= 1 && p[0] >= 0xa0 && p[0] <= 0xbf: // fixstr
			return int(p[0] & 0x1f), 1, true
		case len(p) >= 2 && p[0] == 0xd9: // str8
			return int(p[1]), 2, true
		}
		return 0, 0, false
	})
}

func sniffCBOR(p []byte) float64 {
	return sniffBinary(p, func(b byte) bool { return b >= 0x85 && b <= 0x89 }, func(p []byte) (int, int, bool) {
		switch {
		case len(p) >= 1 && p[0] >= 0x60 && p[0] <= 0x77: // text, length in the head
			return int(p[0] & 0x1f), 1, true
		case len(p) >= 2 && p[0] == 0x78: // text, 1-byte length
			return int(p[1]), 2, true
		}
		return 0, 0, false
	})
}
