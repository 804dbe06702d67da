package gcf

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// deltaKey is the identity field of the node rows of a delta (GCF §10a.1
// wants one): "Type:id", and "#k" for the k-th listing of a node the base
// lists more than once.
const deltaKey = "node_key"

// deltaTool is the header's tool= of the deltas this package writes.
const deltaTool = "graphwire"

// AppendDelta implements delta.Codec: it appends d as a GCF generic delta
// payload (spec §10a.2; see the package documentation, Deltas). What that
// payload cannot express — moved nodes, nodes added other than as one
// run, edges, aggregation rows, header fields — is refused with a
// *wire.EncodeError, and so is a delta GCF does not carry exactly (it
// reads its text back to make sure): send the full response then.
func (c *Codec) AppendDelta(dst []byte, d *delta.Delta) ([]byte, error) {
	b, err := c.appendDelta(dst, d)
	if err != nil {
		return dst, err
	}
	back, err := c.DecodeDelta(b[len(dst):])
	if err != nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "the delta does not read back: " + err.Error()}
	}
	if what := delta.Differs(d, back); what != "" {
		return dst, encErr(what, "GCF does not carry it exactly (a whole float reads back as an int, or properties in an order one table cannot keep)")
	}
	return b, nil
}

func cannot(what string) error {
	return &wire.EncodeError{Codec: Name, Path: what, Msg: "GCF's generic delta (keyed rows, set semantics) cannot express " + what + "; send the full response"}
}

func (c *Codec) appendDelta(dst []byte, d *delta.Delta) ([]byte, error) {
	if d == nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "nil delta"}
	}
	if d.Unchanged() {
		b := append(dst, "GCF profile=generic tool="+deltaTool+" unchanged=true pack_root="...)
		b = append(b, d.Base.String()...)
		return append(b, '\n'), nil
	}
	o := &d.Nodes
	switch {
	case d.Set != 0:
		return dst, cannot("header fields (columns, group_columns, pagination)")
	case len(d.Edges.Removed)+len(d.Edges.Moved)+len(d.Edges.Added) > 0:
		return dst, cannot("edges")
	case len(d.Rows.Removed)+len(d.Rows.Moved)+len(d.Rows.Added) > 0:
		return dst, cannot("aggregation rows")
	case len(o.Moved) > 0:
		return dst, cannot("node order (moved nodes)")
	case !d.QueryType.Valid():
		return dst, encErr("query_type", "invalid query type "+strconv.Quote(string(d.QueryType)))
	}
	extra := []string{"query_type=" + string(d.QueryType)}
	if d.FormatVersion != "" {
		extra = append(extra, "format_version="+d.FormatVersion)
	}
	if d.Rows.Present {
		extra = append(extra, "rows=present")
	}
	if len(o.Added) > 0 {
		for i, a := range o.Added {
			if a.At != o.Added[0].At+i {
				return dst, cannot("nodes added other than as one run")
			}
		}
		extra = append(extra, "added_at="+strconv.Itoa(o.Added[0].At))
	}
	gd := &gcfvalue.Delta{Tool: deltaTool, Key: deltaKey, BaseRoot: d.Base.String(), NewRoot: d.Result.String()}
	row := func(n *wire.Node, k delta.NodeKey, path wire.Path) (*jsonvalue.Object, error) {
		v, err := nodeValue(n, path)
		if err != nil {
			return nil, err
		}
		if _, clash := v.Get(deltaKey); clash {
			return nil, encErr(path.String()+"."+deltaKey, "a property named "+deltaKey+", the identity field of a GCF delta")
		}
		r := jsonvalue.NewObject(1 + v.Len())
		r.Add(deltaKey, nodeKeyString(k))
		for _, m := range v.Members {
			r.Add(m.Key, m.Value)
		}
		return r, nil
	}
	for i := range o.Changed {
		r, err := row(&o.Changed[i].Node, o.Changed[i].Key(), wire.Path{}.Field("nodes").Field("changed").Index(i))
		if err != nil {
			return dst, err
		}
		gd.Changed = append(gd.Changed, r)
	}
	for i := range o.Added {
		n := &o.Added[i].Item
		r, err := row(n, delta.NodeKey{Type: n.Type, ID: n.ID}, wire.Path{}.Field("nodes").Field("added").Index(i))
		if err != nil {
			return dst, err
		}
		gd.Added = append(gd.Added, r)
	}
	for _, k := range o.Removed {
		gd.Removed = append(gd.Removed, nodeKeyString(k))
	}
	fields, ok := tableFields(append(append([]*jsonvalue.Object(nil), gd.Changed...), gd.Added...))
	if !ok {
		return dst, cannot("nodes whose properties come in orders no one table keeps")
	}
	gd.Fields = fields
	return gcfvalue.AppendDelta(dst, gd, c.valueOptions(), extra...)
}

func nodeKeyString(k delta.NodeKey) string {
	s := k.Type + ":" + strconv.FormatInt(k.ID, 10)
	if k.N != 0 {
		s += "#" + strconv.Itoa(k.N)
	}
	return s
}

func parseNodeKey(s string) (delta.NodeKey, bool) {
	var k delta.NodeKey
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		n, err := strconv.Atoi(s[i+1:])
		if err != nil || n < 1 || strconv.Itoa(n) != s[i+1:] {
			return k, false
		}
		k.N, s = n, s[:i]
	}
	i := strings.LastIndexByte(s, ':')
	if i < 1 {
		return k, false
	}
	id, err := strconv.ParseInt(s[i+1:], 10, 64)
	if err != nil || strconv.FormatInt(id, 10) != s[i+1:] {
		return k, false
	}
	k.Type, k.ID = s[:i], id
	return k, true
}

// SniffDelta is the confidence that prefix opens a delta or unchanged
// payload of this package: 0.99 for a first line "GCF profile=generic"
// with delta=true or unchanged=true among its fields, 0 otherwise. Sniff
// rates such a payload 0.
func (c *Codec) SniffDelta(prefix []byte) float64 {
	if isDeltaHeader(prefix) {
		return 0.99
	}
	return 0
}

func isDeltaHeader(prefix []byte) bool {
	t, ok := wire.SniffText(prefix)
	if !ok {
		return false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) < 2 || fields[0] != "GCF" || fields[1] != "profile=generic" {
		return false
	}
	for _, f := range fields[2:] {
		if f == "delta=true" || f == "unchanged=true" {
			return true
		}
	}
	return false
}

var _ delta.Codec = (*Codec)(nil)

// parseCost is the in-memory cost of gcfvalue's parse of a delta
// payload, an upper bound on what it builds: a row's object, member and
// list item a line, with the bytes of its text; a member and its boxed
// value a delimiter.
var parseCost = delta.ParseCost{Line: 128, Cell: 64, Delims: "|"}

func deltaError(msg string) error { return &wire.DecodeError{Codec: Name, Line: 1, Msg: msg} }

// DecodeDelta implements delta.Codec: it reads a delta or unchanged
// payload written by AppendDelta under the codec's Limits. Malformed GCF
// gives gcfvalue's positioned *wire.DecodeError; a payload that is not
// such a delta a *wire.DecodeError naming what is wrong. What it builds
// is charged to a delta.Meter, the generic parse of the payload first,
// line by line before it parses (about 128 bytes a line and 64 a
// delimiter, parseCost): past MaxExpansion times the input plus
// wire.ExpansionAllowance bytes in memory it refuses, with a
// *wire.DecodeError naming the line, matching errors.Is(err,
// wire.ErrLimit).
func (c *Codec) DecodeDelta(data []byte) (*delta.Delta, error) {
	if int64(len(data)) > c.limits.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: Name, Offset: c.limits.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	m := delta.NewMeter(c.limits, len(data))
	m.Scratch(int64(len(data))) // the document's copy of the input
	if line := m.Parse(data, parseCost); line > 0 {
		return nil, &wire.DecodeError{Codec: Name, Line: line, Msg: "parsing the document up to this line: " + m.Msg(), Limit: m.LimitName()}
	}
	doc, err := gcfvalue.DecodeDocument(data, c.valueOptions())
	if err != nil {
		return nil, asDecodeError(err)
	}
	header := map[string]string{}
	for _, f := range doc.Header {
		header[f.Key] = f.Value
	}
	if header["unchanged"] == "true" {
		h, err := delta.ParseHash(header["pack_root"])
		if err != nil {
			return nil, deltaError("pack_root: " + err.Error())
		}
		if body, _ := doc.Value.(*jsonvalue.Object); body == nil || body.Len() != 0 {
			return nil, deltaError("an unchanged payload with a body")
		}
		return &delta.Delta{Base: h, Result: h}, nil
	}
	gd, err := gcfvalue.DeltaOf(doc)
	if err != nil {
		return nil, asDecodeError(err)
	}
	d := &delta.Delta{}
	if d.Base, err = delta.ParseHash(gd.BaseRoot); err != nil {
		return nil, deltaError("base_root: " + err.Error())
	}
	if d.Result, err = delta.ParseHash(gd.NewRoot); err != nil {
		return nil, deltaError("new_root: " + err.Error())
	}
	if d.Base == d.Result {
		return nil, deltaError("base_root and new_root are equal: that is an unchanged payload")
	}
	if gd.Key != deltaKey {
		return nil, deltaError("key=" + gd.Key + ", expected key=" + deltaKey)
	}
	if d.QueryType = wire.QueryType(header["query_type"]); !d.QueryType.Valid() {
		return nil, deltaError("the header has no valid query_type")
	}
	d.FormatVersion = header["format_version"]
	switch v, ok := header["rows"]; {
	case ok && v != "present":
		return nil, deltaError("rows=" + v + ", expected rows=present or no rows field")
	case ok:
		d.Rows.Present = true
	}
	at := -1
	if v, ok := header["added_at"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || strconv.Itoa(n) != v {
			return nil, deltaError("added_at=" + v + ", expected a position")
		}
		at = n
	}
	if (at >= 0) != (len(gd.Added) > 0) {
		return nil, deltaError("added_at= and ## added go together")
	}
	var rd reader
	// refused records, unless ok, that row i of section did not fit m.
	refused := func(ok bool, section string, i int) {
		if !ok && rd.err == nil {
			rd.err = &wire.DecodeError{Codec: Name, Line: rowLine(data, section, i), Limit: m.LimitName(),
				Msg: section + "[" + strconv.Itoa(i) + "]: " + m.Msg()}
		}
	}
	node := func(r *jsonvalue.Object, path string, wantN bool) (wire.Node, int) {
		if r.Len() == 0 || r.Members[0].Key != deltaKey {
			rd.fail(path, "expected "+deltaKey+" first")
			return wire.Node{}, 0
		}
		s, _ := r.Members[0].Value.(string)
		k, ok := parseNodeKey(s)
		n := rd.node(&jsonvalue.Object{Members: r.Members[1:]}, path)
		if rd.err == nil && (!ok || k.Type != n.Type || k.ID != n.ID || !wantN && k.N != 0) {
			rd.fail(path+"."+deltaKey, "expected the node's Type:id (#k for a repeated node), found "+strconv.Quote(s))
		}
		return n, k.N
	}
	for i := 0; i < len(gd.Changed) && rd.err == nil; i++ {
		n, k := node(gd.Changed[i], "changed["+strconv.Itoa(i)+"]", true)
		if rd.err == nil {
			ok := m.Response().Node(&n) && m.Fits()
			if ok {
				d.Nodes.Changed, ok = delta.Append(m, d.Nodes.Changed, delta.Changed{N: k, Node: n})
			}
			refused(ok, "changed", i)
		}
	}
	for i := 0; i < len(gd.Added) && rd.err == nil; i++ {
		n, _ := node(gd.Added[i], "added["+strconv.Itoa(i)+"]", false)
		if rd.err == nil {
			ok := m.Response().Node(&n) && m.Fits()
			if ok {
				d.Nodes.Added, ok = delta.Append(m, d.Nodes.Added, delta.Placed[wire.Node]{At: at + i, Item: n})
			}
			refused(ok, "added", i)
		}
	}
	for i := 0; i < len(gd.Removed) && rd.err == nil; i++ {
		s, _ := gd.Removed[i].(string)
		k, ok := parseNodeKey(s)
		if !ok {
			rd.fail("removed["+strconv.Itoa(i)+"]", "expected a node's Type:id (#k for a repeated node)")
			break
		}
		d.Nodes.Removed, ok = delta.Append(m, d.Nodes.Removed, k)
		refused(ok, "removed", i)
	}
	if rd.err != nil {
		return nil, rd.err
	}
	return d, nil
}

// rowLine is the line of row i of the section name of a delta payload,
// counted from its "## name" line: rows take one line each.
func rowLine(data []byte, name string, i int) int {
	line := 1
	for off := 0; off < len(data); line++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		if rest, ok := bytes.CutPrefix(data[off:off+end], []byte("## "+name)); ok && (len(rest) == 0 || rest[0] == ' ') {
			return line + 1 + i
		}
		off += end + 1
	}
	return 1
}

// asDecodeError gives err as a *wire.DecodeError.
func asDecodeError(err error) error {
	var de *wire.DecodeError
	if errors.As(err, &de) {
		return err
	}
	return &wire.DecodeError{Codec: Name, Msg: strings.TrimPrefix(err.Error(), "gcf: "), Err: err}
}
