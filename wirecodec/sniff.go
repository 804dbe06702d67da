package wirecodec

import (
	"sort"

	"github.com/graphwire/graphwire/wire"
)

// Guess is one codec that some bytes may be encoded in, with a confidence
// from 0 (surely not) to 1 (surely).
type Guess struct {
	Name       string  // the codec's canonical name
	Confidence float64 // in (0, 1]
}

// Sniff names the codecs of g data may be encoded in, most likely first
// (ties by name), leaving out those with no confidence. An empty result
// means the bytes look like none of them.
//
// The registry has no rules of its own: each codec that implements
// Sniffer judges the first SniffLen bytes of data, and a confidence above
// 1 counts as 1; a codec that does not implement it is never named. A
// codec registered under several aliases is named once, by its canonical
// name.
func Sniff(g *wire.Registry, data []byte) []Guess {
	if len(data) > SniffLen {
		data = data[:SniffLen:SniffLen]
	}
	var out []Guess
	for _, info := range g.List() {
		c, err := g.Lookup(info.Name)
		if err != nil {
			continue // not reached: a registry only grows
		}
		s, ok := c.(Sniffer)
		if !ok {
			continue
		}
		if conf := s.Sniff(data); conf > 0 {
			out = append(out, Guess{Name: info.Name, Confidence: min(conf, 1)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Confidence > out[j].Confidence })
	return out
}

// QueryTypes lists every valid query type (wire.QueryType.Valid), in the
// order of SPEC §2.
func QueryTypes() []wire.QueryType {
	return []wire.QueryType{wire.Traversal, wire.Search, wire.Neighbors, wire.PathFinding, wire.Aggregation}
}
