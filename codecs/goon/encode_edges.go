package goon

import (
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

func (e *encoder) writeEdges(b []byte) ([]byte, error) {
	return writeGroups(e, b, e.edges, func(ed *wire.Edge) string { return ed.Type }, "relationship type", e.edgePath, e.edgeLine)
}

// edgeLine appends "From:id --> To:id[ depth=D][ path_id=P][ step=S]".
func (e *encoder) edgeLine(b []byte, ed *wire.Edge) ([]byte, error) {
	if e.ends[0] == "" || ed.From != e.ends[0] || ed.To != e.ends[1] {
		for _, f := range [...]string{"from", "to"} {
			if err := e.edgeName(ed, f); err != nil {
				return b, err
			}
		}
		e.ends = [2]string{ed.From, ed.To}
	}
	b = append(b, ed.From...)
	b = append(b, ':')
	b = textwire.AppendInt(b, ed.FromID)
	b = append(b, " --> "...)
	b = append(b, ed.To...)
	b = append(b, ':')
	b = textwire.AppendInt(b, ed.ToID)
	if ed.Depth.Valid {
		b = append(b, " depth="...)
		b = textwire.AppendInt(b, ed.Depth.V)
	}
	if ed.PathID.Valid {
		b = append(b, " path_id="...)
		b = textwire.AppendInt(b, ed.PathID.V)
	}
	if ed.Step.Valid {
		b = append(b, " step="...)
		b = textwire.AppendInt(b, ed.Step.V)
	}
	return b, nil
}

// edgeName refuses ed's field (from, to or type) when it is not a name.
func (e *encoder) edgeName(ed *wire.Edge, field string) error {
	s, what := ed.From, "node type"
	switch field {
	case "to":
		s = ed.To
	case "type":
		s, what = ed.Type, "relationship type"
	}
	if isName(s) {
		return nil
	}
	return notName(e.edgePath(ed).Field(field).String(), what, s)
}

// writePaths writes a line per path id: the first edge's source, then
// --REL--> target for each edge.
func (e *encoder) writePaths(b []byte) ([]byte, error) {
	edges := e.edges
	for i := 0; i < len(edges); {
		pid := edges[i].PathID.V
		b = append(b, "path="...)
		b = textwire.AppendInt(b, pid)
		b = append(b, ": "...)
		if err := e.edgeName(edges[i], "from"); err != nil {
			return b, err
		}
		b = append(b, edges[i].From...)
		b = append(b, ':')
		b = textwire.AppendInt(b, edges[i].FromID)
		for ; i < len(edges) && edges[i].PathID.V == pid; i++ {
			ed := edges[i]
			for _, f := range [...]string{"type", "to"} {
				if err := e.edgeName(ed, f); err != nil {
					return b, err
				}
			}
			b = append(b, " --"...)
			b = append(b, ed.Type...)
			b = append(b, "--> "...)
			b = append(b, ed.To...)
			b = append(b, ':')
			b = textwire.AppendInt(b, ed.ToID)
		}
		b = append(b, '\n')
		var err error
		if b, err = e.spill(b); err != nil {
			return b, err
		}
	}
	return b, nil
}
