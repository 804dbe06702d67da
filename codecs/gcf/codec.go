package gcf

import (
	"math"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/internal/codecbase"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Name is the codec's registry name.
const Name = "gcf"

// MediaType is the media type GCF's spec names (§18).
const MediaType = "application/vnd.gcf+text"

// Options configure a Codec. The zero value gives the default Limits.
type Options struct {
	// Limits bound what Decode accepts and, symmetrically, what
	// AppendEncode writes (see wire.Limits).
	Limits wire.Limits
}

// Codec is the gcf GraphResponse codec with fixed Options. It is
// immutable and safe for concurrent use.
type Codec struct {
	core codecbase.Core
}

// New returns a codec configured by o, or an error naming the first option
// out of range.
func New(o Options) (*Codec, error) {
	core, err := codecbase.New(Name, o.Limits)
	if err != nil {
		return nil, err
	}
	return &Codec{core: core}, nil
}

var std = codecbase.Must(New(Options{}))

// Default returns the codec with default Options: the one registered in
// the default wire registry when this package is imported.
func Default() *Codec { return std }

func init() { wire.Register(std) }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info {
	return wire.Info{
		Name:        Name,
		MediaType:   MediaType,
		Description: "GCF v3.5.3 generic profile: nodes, edges, columns, group columns and rows as tables; numbers compare by value",
		Fidelity:    wire.NumbersByValue,
	}
}

// layoutDepth is how many containers of the generic document stand above
// a list value at most: the root object, the rows table, a row, a node
// cell.
const layoutDepth = 4

// valueMemFactor and valueMemSlack relate the generic layer's memory
// estimate to MaxMaterializedBytes (see valueOptions): the layout's own
// objects and sections take the slack.
const (
	valueMemFactor = 32
	valueMemSlack  = 4 << 10
)

// valueOptions are the generic layer's Options under the codec's limits.
//
// An object of the layout has at most MaxElements+2 members (a node's
// properties and its type and id) or 8 (the root, an edge). A table may
// need more columns than that: nodes has the union of its nodes' keys (at
// most MaxElements nodes of MaxElements properties each) and rows the
// union of its rows' cells, a node cell flattened into the node's
// MaxElements+2 path columns. MaxFields allows them; the response the
// document holds is then checked against the codec's Limits themselves,
// and the generic layer's memory bound holds whatever the columns.
//
// MaxMaterializedBytes bounds the response's canonical JSON; the generic
// layer bounds its own estimate of the memory of the value it builds,
// which takes up to valueMemFactor times the canonical JSON (a list of
// one-digit ints: two bytes of JSON, 48 of value, per item), so the
// generic layer gets that much room, and the response is checked against
// the limit itself once built. The generic layer's own bound, 10 times
// the input plus 10 MiB, holds either way.
func (c *Codec) valueOptions() gcfvalue.Options {
	l := c.core.Limits
	m := int64(l.MaxElements)
	if l.MaxMaterializedBytes < (math.MaxInt64-valueMemSlack)/valueMemFactor {
		l.MaxMaterializedBytes = l.MaxMaterializedBytes*valueMemFactor + valueMemSlack
	} else {
		l.MaxMaterializedBytes = math.MaxInt64
	}
	l.MaxDepth = min(l.MaxDepth+layoutDepth, wirecodec.HardMaxDepth)
	l.MaxElements = int(min(max(m+2, 8), math.MaxInt32))
	fields := int64(math.MaxInt32)
	if m < 1<<10 { // m*m*(m+2) fits well below 2^31
		fields = min(max(m*m*(m+2), 8), math.MaxInt32)
	}
	return gcfvalue.Options{Limits: l, MaxFields: int(fields)}
}
