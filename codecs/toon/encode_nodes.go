package toon

import (
	"math"
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// maxScannedTypes is the most node types group finds by a scan.
const maxScannedTypes = 16

// indexRun is a run of consecutive node indexes, lo included, hi excluded.
type indexRun struct{ lo, hi int }

// nodeRuns is one group of the nodes section, its nodes held as runs of
// consecutive indexes; tabular says whether it is a table.
type nodeRuns struct {
	typ     string
	runs    []indexRun
	n       int
	tabular bool
}

func (g *nodeRuns) add(i int) {
	if k := len(g.runs); k > 0 && g.runs[k-1].hi == i {
		g.runs[k-1].hi++
	} else {
		g.runs = append(g.runs, indexRun{i, i + 1})
	}
	g.n++
}

// group computes the node groups (see the package documentation) and
// refuses property keys the layout cannot carry (badKeys).
func (s *streamer) group(nodes []wire.Node) error {
	s.groups, s.split = s.groups[:0], false
	if len(nodes) == 0 {
		return nil
	}
	// The types, in first-seen order, found by a scan, and by a map only
	// past maxScannedTypes.
	types := s.types[:0]
	var typeIndex map[string]int
	last := -1
	for i := range nodes {
		t := nodes[i].Type
		k := -1
		switch {
		case last >= 0 && types[last].typ == t:
			k = last
		case typeIndex != nil:
			if j, ok := typeIndex[t]; ok {
				k = j
			}
		default:
			for j := range types {
				if types[j].typ == t {
					k = j
					break
				}
			}
		}
		if k < 0 {
			k = len(types)
			if len(types) < cap(types) {
				types = types[:k+1]
				types[k] = nodeRuns{typ: t, runs: types[k].runs[:0]}
			} else {
				types = append(types, nodeRuns{typ: t})
			}
			if typeIndex != nil {
				typeIndex[t] = k
			} else if len(types) > maxScannedTypes {
				typeIndex = make(map[string]int, 2*len(types))
				for j := range types {
					typeIndex[types[j].typ] = j
				}
			}
		}
		types[k].add(i)
		last = k
	}
	s.types = types
	for _, tg := range types {
		first := nodes[tg.runs[0].lo].Properties
		sameSets, sameSeqs, lists := true, true, false
		var set map[string]struct{}
		for _, sp := range tg.runs {
			for i := sp.lo; i < sp.hi; i++ {
				ps := nodes[i].Properties
				// The first node's key sequence is checked once.
				same := i > tg.runs[0].lo && wirecodec.SameKeys(first, ps)
				if !same {
					if j, msg := badKeys(ps); msg != "" {
						return &wire.EncodeError{Codec: Name, Path: wirecodec.NodePath(i).Property(j, ps[j].Key).String(), Msg: msg + " " + strconv.Quote(ps[j].Key)}
					}
				}
				for _, p := range ps {
					lists = lists || p.Value.Kind() == wire.KindList
				}
				if !sameSets || same || wirecodec.SameKeys(first, ps) {
					continue
				}
				sameSeqs = false
				if len(ps) != len(first) {
					sameSets = false
					continue
				}
				if set == nil {
					set = make(map[string]struct{}, len(first))
					for _, p := range first {
						set[p.Key] = struct{}{}
					}
				}
				for _, p := range ps {
					if _, ok := set[p.Key]; !ok {
						sameSets = false
						break
					}
				}
			}
		}
		if !sameSets || lists || sameSeqs {
			tg.tabular = sameSets && !lists
			s.groups = append(s.groups, tg)
			continue
		}
		s.split = true
		byOrder := make(map[string]int)
		var sig []byte
		for _, sp := range tg.runs {
			for i := sp.lo; i < sp.hi; i++ {
				sig = sig[:0]
				for _, p := range nodes[i].Properties {
					sig = strconv.AppendInt(sig, int64(len(p.Key)), 10)
					sig = append(sig, ':')
					sig = append(sig, p.Key...)
				}
				k, ok := byOrder[string(sig)]
				if !ok {
					k = len(s.groups)
					byOrder[string(sig)] = k
					s.groups = append(s.groups, nodeRuns{typ: tg.typ, tabular: true})
				}
				s.groups[k].add(i)
			}
		}
	}
	return nil
}

// nodes writes the nodes section.
func (s *streamer) nodes(e *toonwrite.Writer, nodes []wire.Node) error {
	e.Enter()
	e.Line(0)
	key := "nodes"
	if s.split {
		e.Header(&key, len(s.groups), nil, false)
	} else {
		e.Buf = append(e.Buf, "nodes:"...)
	}
	for _, gr := range s.groups {
		e.Enter()
		depth := 2
		if s.split {
			e.ListItem(1)
			depth = 3
		} else {
			e.Line(1)
		}
		if err := s.groupBody(e, nodes, gr, depth); err != nil {
			return err
		}
		e.Leave()
	}
	e.Leave()
	return nil
}

// groupBody writes a group's array from its key on, its rows or items at
// depth.
func (s *streamer) groupBody(e *toonwrite.Writer, nodes []wire.Node, gr nodeRuns, depth int) error {
	key := gr.typ
	if gr.tabular {
		first := nodes[gr.runs[0].lo].Properties
		s.fields = append(s.fields[:0], toonwrite.Field{Name: "id"})
		for _, p := range first {
			s.fields = append(s.fields, toonwrite.Field{Name: p.Key})
		}
		e.Header(&key, gr.n, s.fields, false)
		memo := s.memos(len(first))
		for _, sp := range gr.runs {
			for i := sp.lo; i < sp.hi; i++ {
				n := &nodes[i]
				e.Line(depth)
				e.Buf = textwire.AppendInt(e.Buf, n.ID)
				for p := range n.Properties {
					e.Buf = append(e.Buf, e.Delim())
					if v := n.Properties[p].Value; v.Kind() == wire.KindString {
						memo[p].append(e, v.Text())
						continue
					}
					if msg := cell(e, n.Properties[p].Value); msg != "" {
						return valueError(wirecodec.NodePath(i).Property(p, n.Properties[p].Key), n.Properties[p].Value, msg)
					}
				}
			}
		}
		return nil
	}
	e.Header(&key, gr.n, nil, false)
	for _, sp := range gr.runs {
		for i := sp.lo; i < sp.hi; i++ {
			if err := s.listNode(e, nodes, i, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// listNode writes node i as a list item at depth, a property holding a
// list of lists through its generic value (propertyValue).
func (s *streamer) listNode(e *toonwrite.Writer, nodes []wire.Node, i, depth int) error {
	n := &nodes[i]
	e.Enter()
	defer e.Leave()
	e.ListItem(depth)
	e.Buf = append(e.Buf, "id: "...)
	e.Buf = textwire.AppendInt(e.Buf, n.ID)
	for p := range n.Properties {
		key, v := n.Properties[p].Key, n.Properties[p].Value
		fail := func(msg string) error {
			return valueError(wirecodec.NodePath(i).Property(p, key), v, msg)
		}
		if v.Kind() != wire.KindList || flatList(v.List()) {
			e.Line(depth + 1)
			e.Buf = toonwrite.AppendKey(e.Buf, key)
			if msg := listField(e, v); msg != "" {
				return fail(msg)
			}
			continue
		}
		pv, msg := propertyValue(v)
		if msg != "" {
			return fail(msg)
		}
		if e.Err() == nil {
			e.Field(key, pv, depth+1)
		}
	}
	return nil
}

// flatList reports whether list holds no list.
func flatList(list []wire.Value) bool {
	for _, x := range list {
		if x.Kind() == wire.KindList {
			return false
		}
	}
	return true
}

// cell appends the token of a primitive value, or returns
// propertyValue's message.
func cell(e *toonwrite.Writer, v wire.Value) string {
	switch v.Kind() {
	case wire.KindNull:
		e.Buf = append(e.Buf, "null"...)
	case wire.KindBool:
		e.Buf = strconv.AppendBool(e.Buf, v.Bool())
	case wire.KindInt:
		e.Buf = textwire.AppendInt(e.Buf, v.Int())
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)
		}
		e.Buf = jsonvalue.Float(f).Append(e.Buf)
	case wire.KindString:
		e.Buf = e.AppendString(e.Buf, v.Text())
	default:
		_, msg := propertyValue(v)
		return msg
	}
	return ""
}

// nodeOrder writes node_order, each node's group, when the groups are not
// the nodes in order.
func (s *streamer) nodeOrder(e *toonwrite.Writer, n int) {
	pos, sorted := 0, true
	for _, gr := range s.groups {
		for _, sp := range gr.runs {
			sorted = sorted && sp.lo == pos
			pos = sp.hi
		}
	}
	if sorted {
		return
	}
	if cap(s.order) < n {
		s.order = make([]int, n)
	}
	of := s.order[:n]
	for k, gr := range s.groups {
		for _, sp := range gr.runs {
			for i := sp.lo; i < sp.hi; i++ {
				of[i] = k
			}
		}
	}
	intList(e, "node_order", of)
}

// intList writes the top-level inline array "key[N]: a,b,c" of v.
func intList(e *toonwrite.Writer, key string, v []int) {
	e.Line(0)
	e.Header(&key, len(v), nil, false)
	e.Buf = delta.AppendInts(append(e.Buf, ' '), v)
}

// badKeys returns the position of the first key named type or id, or
// repeated, and why.
func badKeys(props []wire.Property) (int, string) {
	for j, p := range props {
		if p.Key == "type" || p.Key == "id" {
			return j, "property named"
		}
	}
	if j := keyset.FirstRepeat(len(props), func(i int) string { return props[i].Key }); j >= 0 {
		return j, "duplicate property"
	}
	return -1, ""
}

// valueError refuses v at p with msg, naming the element of a list at
// fault.
func valueError(p wirecodec.Path, v wire.Value, msg string) error {
	for v.Kind() == wire.KindList {
		found := false
		for i, x := range v.List() {
			if _, m := propertyValue(x); m != "" {
				p, v, found = p.Index(i), x, true
				break
			}
		}
		if !found {
			break
		}
	}
	return &wire.EncodeError{Codec: Name, Path: p.String(), Msg: msg}
}

// memos returns n cleared plainMemos, one per column of a table.
func (s *streamer) memos(n int) []plainMemo {
	if cap(s.memo) < n {
		s.memo = make([]plainMemo, n)
	}
	m := s.memo[:n]
	clear(m)
	return m
}
