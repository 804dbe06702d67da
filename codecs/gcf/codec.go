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
	// Limits bound what Decode accepts and, symmetrically, what AppendEncode writes.
	Limits wire.Limits
}

// Codec is the gcf GraphResponse codec with fixed Options, immutable and
// safe for concurrent use.
type Codec struct {
	core  codecbase.Core
	value gcfvalue.Options // the generic layer's, under core.Limits
}

// New returns a codec configured by o, or the error naming the first option out of range.
func New(o Options) (*Codec, error) {
	return codecbase.New(wire.Info{Name: Name, MediaType: MediaType, Fidelity: wire.NumbersByValue,
		Description: "GCF v3.5.3 generic profile: nodes, edges, columns, group columns and rows as tables; numbers compare by value"},
		o.Limits, func(core codecbase.Core) *Codec { return &Codec{core, valueOptions(core.Limits)} })
}

var std = codecbase.Register(New(Options{}))

// Default returns the codec with default Options, the default wire registry's.
func Default() *Codec { return std }

// Limits reports the codec's limits, defaults filled in.
func (c *Codec) Limits() wire.Limits { return c.core.Limits }

// Info describes the codec for a registry.
func (c *Codec) Info() wire.Info { return c.core.Info() }

// layoutDepth is how many containers of the generic document stand above a
// list value at most: the root object, the rows table, a row, a node cell.
const layoutDepth = 4

// valueMemFactor and valueMemSlack relate the generic layer's memory
// estimate to MaxMaterializedBytes (see valueOptions).
const (
	valueMemFactor = 32
	valueMemSlack  = 4 << 10
)

// valueOptions returns the generic layer's Options under l. A node has
// MaxElements+2 members (properties, type, id), the root and an edge 8;
// MaxFields allows nodes' columns, the union of their keys, and rows', the
// union of their cells, a node cell flattened into MaxElements+2 columns.
// The value built takes up to valueMemFactor times the canonical JSON that
// MaxMaterializedBytes bounds (a list of one-digit ints: 2 bytes of JSON,
// 48 of value, per item). The response is then checked against l itself;
// the generic layer's own bound, 10 times the input plus 10 MiB, holds.
func valueOptions(l wire.Limits) gcfvalue.Options {
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
