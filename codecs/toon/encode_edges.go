package toon

import (
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// edges writes the edges table, with the optional columns any edge has.
func (s *streamer) edges(e *toonwrite.Writer, edges []wire.Edge) {
	e.Enter()
	defer e.Leave()
	e.Line(0)
	key := "edges"
	if len(edges) == 0 {
		e.Buf = append(toonwrite.AppendKey(e.Buf, key), ": []"...)
		return
	}
	var depth, pathID, step bool
	for i := range edges {
		depth = depth || edges[i].Depth.Valid
		pathID = pathID || edges[i].PathID.Valid
		step = step || edges[i].Step.Valid
	}
	s.fields = s.fields[:0]
	for k, name := range edgeFields {
		if k < 5 || [...]bool{depth, pathID, step}[k-5] {
			s.fields = append(s.fields, toonwrite.Field{Name: name})
		}
	}
	e.Header(&key, len(edges), s.fields, false)
	optInt := func(o wire.Opt[int64]) {
		e.Buf = append(e.Buf, e.Delim())
		if !o.Valid {
			e.Buf = append(e.Buf, "null"...)
			return
		}
		e.Buf = textwire.AppendInt(e.Buf, o.V)
	}
	var from, to, typ plainMemo
	for i := range edges {
		ed := &edges[i]
		e.Line(1)
		from.append(e, ed.From)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = textwire.AppendInt(e.Buf, ed.FromID)
		e.Buf = append(e.Buf, e.Delim())
		to.append(e, ed.To)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = textwire.AppendInt(e.Buf, ed.ToID)
		e.Buf = append(e.Buf, e.Delim())
		typ.append(e, ed.Type)
		if depth {
			optInt(ed.Depth)
		}
		if pathID {
			optInt(ed.PathID)
		}
		if step {
			optInt(ed.Step)
		}
	}
}

// plainMemo remembers the last string of a column written unquoted, so
// that a run of equal values is scanned once.
type plainMemo struct {
	s  string
	ok bool
}

// append appends s as the writer's AppendString does.
func (m *plainMemo) append(e *toonwrite.Writer, s string) {
	if m.ok && s == m.s {
		e.Buf = append(e.Buf, s...)
		return
	}
	n := len(e.Buf)
	e.Buf = e.AppendString(e.Buf, s)
	m.s, m.ok = s, len(e.Buf)-n == len(s)
}
