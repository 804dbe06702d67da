package goon

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

func (e *encoder) writeEdges(b []byte) ([]byte, error) {
	return writeGroups(e, b, e.edges, edgeType, "relationship type", e.edgePath, e.edgeLine)
}

func edgeType(ed *wire.Edge) string { return ed.Type }

// edgeLine appends the line of ed, an error placed at its path.
func (e *encoder) edgeLine(b []byte, ed *wire.Edge) ([]byte, error) {
	b, err := appendEdge(b, ed)
	if err != nil {
		return b, edgeError(err, e.edgePath(ed))
	}
	return b, nil
}

// appendEdge appends "From:id --> To:id[ depth=D][ path_id=P][ step=S]";
// an error's Path is the edge's field.
func appendEdge(b []byte, ed *wire.Edge) ([]byte, error) {
	if !isName(ed.From) {
		return b, notName("from", "node type", ed.From)
	}
	if !isName(ed.To) {
		return b, notName("to", "node type", ed.To)
	}
	b = append(b, ed.From...)
	b = append(b, ':')
	b = strconv.AppendInt(b, ed.FromID, 10)
	b = append(b, " --> "...)
	b = append(b, ed.To...)
	b = append(b, ':')
	b = strconv.AppendInt(b, ed.ToID, 10)
	if ed.Depth.Valid {
		b = append(b, " depth="...)
		b = strconv.AppendInt(b, ed.Depth.V, 10)
	}
	if ed.PathID.Valid {
		b = append(b, " path_id="...)
		b = strconv.AppendInt(b, ed.PathID.V, 10)
	}
	if ed.Step.Valid {
		b = append(b, " step="...)
		b = strconv.AppendInt(b, ed.Step.V, 10)
	}
	return b, nil
}

// writePaths writes a line per path id: the first edge's source, then
// --REL--> target for each edge.
func (e *encoder) writePaths(b []byte) ([]byte, error) {
	edges := e.edges
	for i := 0; i < len(edges); {
		pid := edges[i].PathID.V
		b = append(b, "path="...)
		b = strconv.AppendInt(b, pid, 10)
		b = append(b, ": "...)
		if !isName(edges[i].From) {
			return b, notName(e.edgePath(edges[i]).Field("from").String(), "node type", edges[i].From)
		}
		b = append(b, edges[i].From...)
		b = append(b, ':')
		b = strconv.AppendInt(b, edges[i].FromID, 10)
		for ; i < len(edges) && edges[i].PathID.V == pid; i++ {
			ed := edges[i]
			if !isName(ed.Type) {
				return b, notName(e.edgePath(ed).Field("type").String(), "relationship type", ed.Type)
			}
			if !isName(ed.To) {
				return b, notName(e.edgePath(ed).Field("to").String(), "node type", ed.To)
			}
			b = append(b, " --"...)
			b = append(b, ed.Type...)
			b = append(b, "--> "...)
			b = append(b, ed.To...)
			b = append(b, ':')
			b = strconv.AppendInt(b, ed.ToID, 10)
		}
		b = append(b, '\n')
		var err error
		if b, err = e.spill(b); err != nil {
			return b, err
		}
	}
	return b, nil
}
