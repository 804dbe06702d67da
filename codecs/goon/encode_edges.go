package goon

import (
	"strconv"

	"github.com/graphwire/graphwire/wire"
)

// The @edges and @paths sections, written: REL(n): groups of
// "From:id --> To:id" lines, and path chains.

func (e *encoder) writeEdges(b []byte) ([]byte, error) {
	edges := e.edges
	for i := 0; i < len(edges); {
		typ := edges[i].Type
		j := i + 1
		for j < len(edges) && edges[j].Type == typ {
			j++
		}
		if !isName(typ) {
			return b, notName(e.edgePath(edges[i]).Field("type").String(), "relationship type", typ)
		}
		b = append(b, typ...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(j-i), 10)
		b = append(b, "):\n"...)
		for ; i < j; i++ {
			var err error
			if b, err = appendEdge(b, edges[i]); err != nil {
				return b, edgeError(err, e.edgePath(edges[i]))
			}
			b = append(b, '\n')
			if b, err = e.spill(b); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// appendEdge appends the line of ed without its type and newline:
// "From:id --> To:id[ depth=D][ path_id=P][ step=S]". An error's Path is
// the field of the edge (edgeError places it).
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
		b = strconv.AppendInt(b, ed.Depth.Int, 10)
	}
	if ed.PathID.Valid {
		b = append(b, " path_id="...)
		b = strconv.AppendInt(b, ed.PathID.Int, 10)
	}
	if ed.Step.Valid {
		b = append(b, " step="...)
		b = strconv.AppendInt(b, ed.Step.Int, 10)
	}
	return b, nil
}

// writePaths writes one chain per path id: the first edge's source, then
// --REL--> target for every edge of the path in edge order.
func (e *encoder) writePaths(b []byte) ([]byte, error) {
	edges := e.edges
	for i := 0; i < len(edges); {
		pid := edges[i].PathID.Int
		b = append(b, "path="...)
		b = strconv.AppendInt(b, pid, 10)
		b = append(b, ": "...)
		if !isName(edges[i].From) {
			return b, notName(e.edgePath(edges[i]).Field("from").String(), "node type", edges[i].From)
		}
		b = append(b, edges[i].From...)
		b = append(b, ':')
		b = strconv.AppendInt(b, edges[i].FromID, 10)
		for ; i < len(edges) && edges[i].PathID.Int == pid; i++ {
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
