package toon

import (
	"strconv"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/wire"
)

// edges writes the edges table (or "edges: []"), one line per edge, with
// the optional columns any edge has.
func (s *streamer) edges(e *toonwrite.Writer, edges []wire.Edge) {
	e.Enter()
	defer e.Leave()
	e.Line(0)
	key := "edges"
	if len(edges) == 0 {
		e.Buf = toonwrite.AppendKey(e.Buf, key)
		e.Buf = append(e.Buf, ':', ' ', '[', ']')
		return
	}
	var depth, pathID, step bool
	for i := range edges {
		depth = depth || edges[i].Depth.Valid
		pathID = pathID || edges[i].PathID.Valid
		step = step || edges[i].Step.Valid
	}
	s.fields = append(s.fields[:0], toonwrite.Field{Name: "from"}, toonwrite.Field{Name: "from_id"}, toonwrite.Field{Name: "to"}, toonwrite.Field{Name: "to_id"}, toonwrite.Field{Name: "type"})
	if depth {
		s.fields = append(s.fields, toonwrite.Field{Name: "depth"})
	}
	if pathID {
		s.fields = append(s.fields, toonwrite.Field{Name: "path_id"})
	}
	if step {
		s.fields = append(s.fields, toonwrite.Field{Name: "step"})
	}
	e.Header(&key, len(edges), s.fields, false)
	optInt := func(o wire.OptInt) {
		e.Buf = append(e.Buf, e.Delim())
		if !o.Valid {
			e.Buf = append(e.Buf, "null"...)
			return
		}
		e.Buf = strconv.AppendInt(e.Buf, o.Int, 10)
	}
	for i := range edges {
		ed := &edges[i]
		e.Line(1)
		e.Buf = e.AppendString(e.Buf, ed.From)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = strconv.AppendInt(e.Buf, ed.FromID, 10)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = e.AppendString(e.Buf, ed.To)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = strconv.AppendInt(e.Buf, ed.ToID, 10)
		e.Buf = append(e.Buf, e.Delim())
		e.Buf = e.AppendString(e.Buf, ed.Type)
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
