package wire

import "strconv"

// Session references in canonical JSON: codecs/json's AppendReferenced and
// DecodeReferenced (package delta's SessionCodec) call these. A node sent
// earlier in a session is written in place, in the nodes array, as its
// type and, where a node has "id", "sent_earlier_id":
//
//	{"type":"User","sent_earlier_id":"42"}
//
// Every node object has "id" and no reference has, so the two cannot be
// confused: a node object with "id" is a node, whatever its properties
// are named (a property called sent_earlier_id included), and one without
// "id" is a reference when it holds exactly "type" and "sent_earlier_id",
// a decimal int64 string like any id, and an error otherwise. A response
// without references is written as AppendJSONWithin writes it.

// refIDName is the key of a reference's id; refIDKey is it quoted.
const (
	refIDName = "sent_earlier_id"
	refIDKey  = `"` + refIDName + `"`
)

// AppendJSONReferenced appends the canonical JSON of r to dst, as
// AppendJSONWithin does under l, with the nodes at positions refs
// (ascending, each once) written as references to nodes sent earlier:
// {"type":T,"sent_earlier_id":ID}, their properties left out. The limits
// apply to what is written (a reference holds no property). With no refs
// it is AppendJSONWithin. Positions out of order or out of range are an
// *EncodeError; on error dst is returned unchanged.
func AppendJSONReferenced(dst []byte, r *GraphResponse, refs []int, l Limits) ([]byte, error) {
	if len(refs) == 0 || r == nil {
		return AppendJSONWithin(dst, r, l)
	}
	prev := -1
	for k, i := range refs {
		if i <= prev || i >= len(r.Nodes) {
			return dst, &EncodeError{Codec: "json", Path: "refs[" + strconv.Itoa(k) + "]",
				Msg: "reference to node " + strconv.Itoa(i) + ": positions must be ascending, each once, below " + strconv.Itoa(len(r.Nodes))}
		}
		prev = i
	}
	// The response as written: the referenced nodes without properties.
	view := *r
	view.Nodes = make([]Node, len(r.Nodes))
	copy(view.Nodes, r.Nodes)
	for _, i := range refs {
		view.Nodes[i].Properties = nil
	}
	return appendJSONWithin(dst, &view, refs, l)
}

// DecodeJSONReferenced reads what AppendJSONReferenced writes, and any
// response DecodeJSON reads, under l: the response, each reference a node
// of its type and id with nil Properties, and the positions of the
// references in its nodes, ascending (none for a plain response). Errors
// are DecodeJSON's, and a malformed reference is a *DecodeError at the
// node or at its sent_earlier_id.
func DecodeJSONReferenced(data []byte, l Limits) (*GraphResponse, []int, error) {
	return decodeJSON(data, l, true)
}

// reference makes n, the node at index in nodes whose object starts at
// start and holds no "id", the reference its "sent_earlier_id" (whose
// value is at valueOff) names.
func (d *decoder) reference(n *Node, index, start, valueOff int) error {
	if !d.referenced {
		return d.errAt(start, `node: missing "id" (a reference to a node sent earlier, "sent_earlier_id", is read only in a session)`)
	}
	if len(n.Properties) != 1 {
		return d.errAt(start, `node reference: expected only "type" and "sent_earlier_id"`)
	}
	end := d.pos
	d.pos = valueOff
	id, err := d.id("node sent_earlier_id")
	d.pos = end
	if err != nil {
		return err
	}
	n.ID, n.Properties = id, nil
	d.refs = append(d.refs, index)
	return nil
}
