package wire

import "sort"

// Guess is one codec that some bytes may be encoded in, with a confidence
// from 0 (surely not) to 1 (surely).
type Guess struct {
	Name       string  // the codec's canonical name
	Confidence float64 // in (0, 1]
}

// sniffer is wirecodec.Sniffer: a codec that tells its own encoding from
// its first sniffLen (wirecodec.SniffLen) bytes.
type sniffer interface {
	Sniff(prefix []byte) float64
}

const sniffLen = 512

// Sniff names the registered codecs data may be encoded in, most likely
// first (ties by name), leaving out those with no confidence. An empty
// result means the bytes look like none of them.
//
// The registry has no rules of its own: each codec that implements
// wirecodec.Sniffer judges the first wirecodec.SniffLen (512) bytes of
// data, and a confidence above 1 counts as 1. A codec registered under
// several aliases is named once, by its canonical name.
func (g *Registry) Sniff(data []byte) []Guess {
	if len(data) > sniffLen {
		data = data[:sniffLen:sniffLen]
	}
	t := g.current()
	var out []Guess
	for i, info := range t.infos {
		s, ok := t.byName[i].(sniffer)
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
