package goon

import (
	"cmp"
	"slices"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// The edge order (cmpEdges) computed on keys: each edge's names replaced
// by their ranks in bytewise order and its optional ints by (absent,
// value) pairs, so that sorting compares integers in one struct instead of
// strings behind pointers.

// edgeKey is an edge as sortEdges orders it: (path absent, path, step
// absent, step, type, from, from_id, to, to_id, depth present, depth),
// the names as ranks, an absent int as 0.
type edgeKey struct {
	path, step, fromID, toID, depth int64
	typ, from, to                   uint32
	flags                           uint8  // edgePathAbsent, edgeStepAbsent, edgeDepthPresent
	i                               uint32 // the edge's index in the response (keys hold no pointer)
}

const (
	edgePathAbsent uint8 = 1 << iota
	edgeStepAbsent
	edgeDepthPresent
)

// maxLinearNames is how many distinct names sortEdges looks up by
// scanning before it builds a map.
const maxLinearNames = 16

// sortEdges sets e.edges to the edges of r (in a path_finding response,
// those with a path_id) in GOON's edge order (cmpEdges), without repeats.
func (e *encoder) sortEdges(r *wire.GraphResponse) {
	paths := r.QueryType == wire.PathFinding
	keys := slices.Grow(e.ekeys[:0], len(r.Edges))
	e.names = e.names[:0]
	clear(e.nameIdx)
	for i := range r.Edges {
		ed := &r.Edges[i]
		if paths && !ed.PathID.Valid {
			continue
		}
		k := edgeKey{i: uint32(i), typ: e.nameID(ed.Type), from: e.nameID(ed.From), to: e.nameID(ed.To), fromID: ed.FromID, toID: ed.ToID}
		if ed.PathID.Valid {
			k.path = ed.PathID.Int
		} else {
			k.flags |= edgePathAbsent
		}
		if ed.Step.Valid {
			k.step = ed.Step.Int
		} else {
			k.flags |= edgeStepAbsent
		}
		if ed.Depth.Valid {
			k.flags |= edgeDepthPresent
			k.depth = ed.Depth.Int
		}
		keys = append(keys, k)
	}
	// Ranks: the names' bytewise order.
	order := slices.Grow(e.nameOrder[:0], len(e.names))
	for i := range e.names {
		order = append(order, uint32(i))
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(e.names[a], e.names[b]) })
	rank := slices.Grow(e.nameRank[:0], len(order))[:len(order)]
	for r, id := range order {
		rank[id] = uint32(r)
	}
	for i := range keys {
		k := &keys[i]
		k.typ, k.from, k.to = rank[k.typ], rank[k.from], rank[k.to]
	}
	slices.SortFunc(keys, cmpEdgeKeys)
	out := slices.Grow(e.edges[:0], len(keys))
	for i := range keys {
		if i > 0 && sameEdgeKey(&keys[i], &keys[i-1]) {
			continue
		}
		out = append(out, &r.Edges[keys[i].i])
	}
	e.edges = out
	e.ekeys, e.nameOrder, e.nameRank = keys[:0], order[:0], rank[:0]
	clear(e.names)
}

// nameID returns the index of s in e.names, adding it when new.
func (e *encoder) nameID(s string) uint32 {
	if len(e.names) <= maxLinearNames {
		for i, n := range e.names {
			if n == s {
				return uint32(i)
			}
		}
		if len(e.names) < maxLinearNames {
			e.names = append(e.names, s)
			return uint32(len(e.names) - 1)
		}
		if e.nameIdx == nil {
			e.nameIdx = make(map[string]uint32)
		}
		for i, n := range e.names {
			e.nameIdx[n] = uint32(i)
		}
	}
	if i, ok := e.nameIdx[s]; ok {
		return i
	}
	e.nameIdx[s] = uint32(len(e.names))
	e.names = append(e.names, s)
	return uint32(len(e.names) - 1)
}

func cmpEdgeKeys(a, b edgeKey) int {
	if c := cmp.Compare(a.flags&edgePathAbsent, b.flags&edgePathAbsent); c != 0 {
		return c
	}
	if c := cmp.Compare(a.path, b.path); c != 0 {
		return c
	}
	if c := cmp.Compare(a.flags&edgeStepAbsent, b.flags&edgeStepAbsent); c != 0 {
		return c
	}
	if c := cmp.Compare(a.step, b.step); c != 0 {
		return c
	}
	if a.typ != b.typ {
		return cmp.Compare(a.typ, b.typ)
	}
	if a.from != b.from {
		return cmp.Compare(a.from, b.from)
	}
	if a.fromID != b.fromID {
		return cmp.Compare(a.fromID, b.fromID)
	}
	if a.to != b.to {
		return cmp.Compare(a.to, b.to)
	}
	if a.toID != b.toID {
		return cmp.Compare(a.toID, b.toID)
	}
	if c := cmp.Compare(a.flags&edgeDepthPresent, b.flags&edgeDepthPresent); c != 0 {
		return c
	}
	return cmp.Compare(a.depth, b.depth)
}

func sameEdgeKey(a, b *edgeKey) bool {
	return a.path == b.path && a.step == b.step && a.fromID == b.fromID && a.toID == b.toID && a.depth == b.depth &&
		a.typ == b.typ && a.from == b.from && a.to == b.to && a.flags == b.flags
}
