package goon

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// Property priority classes (SPEC §5.8).
const (
	classIdentity uint8 = iota
	classStatus
	classOther
	classTime
	classText
	classReserved // "id" and "type": not property names
)

// priority returns the class of a property key.
func priority(key string) uint8 {
	switch key {
	case "iid", "username", "name", "full_path", "path", "uuid":
		return classIdentity
	case "state", "status", "visibility_level":
		return classStatus
	case "created_at", "updated_at", "merged_at", "closed_at":
		return classTime
	case "title", "description", "body", "note":
		return classText
	case "id", "type":
		return classReserved
	}
	return classOther
}

// propRef is a node's property as nodeRow sorts it.
type propRef struct {
	key   string
	class uint8
	i     int32
}

// sortProps sorts properties by class, then bytewise (by insertion for
// the few most nodes have).
func sortProps(ps []propRef) {
	if len(ps) > 12 {
		slices.SortFunc(ps, func(x, y propRef) int { return cmp.Or(cmp.Compare(x.class, y.class), strings.Compare(x.key, y.key)) })
		return
	}
	for i := 1; i < len(ps); i++ {
		x := ps[i]
		j := i
		for ; j > 0 && (x.class < ps[j-1].class || x.class == ps[j-1].class && x.key < ps[j-1].key); j-- {
			ps[j] = ps[j-1]
		}
		ps[j] = x
	}
}

// cmpNodes orders nodes by type and id, then by the text of their rows.
func (e *encoder) cmpNodes(a, b *wire.Node) int {
	if c := strings.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ID, b.ID); c != 0 || a == b {
		return c
	}
	var err error
	if e.tmpA, err = e.nodeRow(e.tmpA[:0], a); err != nil {
		e.err = err
		return 0
	}
	if e.tmpB, err = e.nodeRow(e.tmpB[:0], b); err != nil {
		e.err = err
		return 0
	}
	return bytes.Compare(e.tmpA, e.tmpB)
}

// cmpEdges is GOON's total edge order (SPEC §5.6).
func cmpEdges(a, b *wire.Edge) int {
	if c := cmpAbsentLast(a.PathID, b.PathID); c != 0 {
		return c
	}
	if c := cmpAbsentLast(a.Step, b.Step); c != 0 {
		return c
	}
	if c := strings.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := strings.Compare(a.From, b.From); c != 0 {
		return c
	}
	if c := cmp.Compare(a.FromID, b.FromID); c != 0 {
		return c
	}
	if c := strings.Compare(a.To, b.To); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ToID, b.ToID); c != 0 {
		return c
	}
	switch {
	case a.Depth.Valid != b.Depth.Valid:
		if a.Depth.Valid {
			return 1
		}
		return -1
	case a.Depth.Valid:
		return cmp.Compare(a.Depth.V, b.Depth.V)
	}
	return 0
}

func cmpAbsentLast(a, b wire.Opt[int64]) int {
	switch {
	case a.Valid && b.Valid:
		return cmp.Compare(a.V, b.V)
	case a.Valid:
		return -1
	case b.Valid:
		return 1
	}
	return 0
}
