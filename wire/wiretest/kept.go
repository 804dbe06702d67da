package wiretest

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// Kept reports whether got, the decoding of an encoding of want by a lossy
// codec (FixedPoint), keeps what a lossy codec must: the query type; the
// set of nodes by type and id; every edge by endpoints and type, outside
// path_finding (GOON rebuilds paths from chains); a has_more of true.
func Kept(want, got *wire.GraphResponse) error {
	if want.QueryType != got.QueryType {
		return fmt.Errorf("query type %q came back as %q", want.QueryType, got.QueryType)
	}
	type nodeKey struct {
		typ string
		id  int64
	}
	nodes := func(r *wire.GraphResponse) []nodeKey {
		var ks []nodeKey
		for _, n := range r.Nodes {
			ks = append(ks, nodeKey{n.Type, n.ID})
		}
		return sortedSet(ks, func(a, b nodeKey) int { return cmp.Or(cmp.Compare(a.typ, b.typ), cmp.Compare(a.id, b.id)) })
	}
	if w, g := nodes(want), nodes(got); !slices.Equal(w, g) {
		return fmt.Errorf("nodes (type, id) %v came back as %v", w, g)
	}
	type edgeKey struct {
		from, to, typ string
		fromID, toID  int64
	}
	edges := func(r *wire.GraphResponse) []edgeKey {
		var ks []edgeKey
		for _, e := range r.Edges {
			ks = append(ks, edgeKey{e.From, e.To, e.Type, e.FromID, e.ToID})
		}
		return sortedSet(ks, func(a, b edgeKey) int {
			return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.fromID, b.fromID), cmp.Compare(a.to, b.to), cmp.Compare(a.toID, b.toID), cmp.Compare(a.typ, b.typ))
		})
	}
	w, g := edges(want), edges(got)
	if want.QueryType == wire.PathFinding {
		w = nil // a layout may write paths as chains, rebuilding their edges
	}
	for _, e := range w {
		if !slices.Contains(g, e) {
			return fmt.Errorf("edge (from, to, type) %v is lost: %v came back as %v", e, w, g)
		}
	}
	if want.Pagination != nil && want.Pagination.HasMore && (got.Pagination == nil || !got.Pagination.HasMore) {
		return fmt.Errorf("pagination has_more=true came back as %+v", got.Pagination)
	}
	return nil
}

func sortedSet[T comparable](s []T, cmp func(a, b T) int) []T {
	slices.SortFunc(s, cmp)
	return slices.Compact(s)
}
