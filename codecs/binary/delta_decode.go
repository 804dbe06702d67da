package binary

import (
	"fmt"
	"math"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

var _ delta.Codec = (*Codec)(nil)

// DecodeDelta implements delta.Codec: it reads a delta record under the
// codec's Limits (MaxElements bounds each list of the record,
// MaxMaterializedBytes the nodes, edges and rows it holds). Errors are
// *wire.DecodeError naming the byte offset; a limit passed matches
// errors.Is(err, wire.ErrLimit). What it builds, the lists of the delta
// included, is charged to a delta.Meter as it goes: past MaxExpansion
// times the input plus wire.ExpansionAllowance bytes in memory it
// refuses at the item it reached. The delta is not trusted: delta.Patch
// checks it against its base and result fingerprints.
func (c *Codec) DecodeDelta(data []byte) (*delta.Delta, error) {
	switch {
	case int64(len(data)) > c.limits.MaxInputBytes:
		e := decodeError(c.format.String(), int(c.limits.MaxInputBytes),
			fmt.Sprintf("input of %d bytes exceeds the limit of %d", len(data), c.limits.MaxInputBytes), nil)
		e.Limit = "MaxInputBytes"
		return nil, e
	case len(data) == 0:
		return nil, decodeError(c.format.String(), 0, "empty input", nil)
	}
	st := decPool.Get().(*decState)
	defer func() {
		st.src.reset(nil, 0, nil)
		st.d.reset(nil, nil)
		decPool.Put(st)
	}()
	st.src.reset(data, c.format, c)
	st.d.reset(&st.src, c)
	dd := deltaDecoder{decoder: &st.d, dm: delta.NewMeter(c.limits, len(data))}
	st.d.m = dd.dm.Response()
	dl, err := dd.deltaRecord()
	if err != nil {
		return nil, err
	}
	if st.src.off != len(data) {
		return nil, st.src.failAt(st.src.off, fmt.Sprintf("%d trailing bytes after the delta", len(data)-st.src.off), nil)
	}
	return dl, nil
}

// SniffDelta is the confidence that prefix opens a delta record in the
// codec's format: 0.99 for an array of 4 or 13 items whose first is the
// string "graphwire_delta", 0 otherwise. Sniff rates a delta record 0 (its
// array is not one of 5 to 9 items opening with a layout version).
func (c *Codec) SniffDelta(prefix []byte) float64 {
	if len(prefix) < 2+len(deltaTag) {
		return 0
	}
	var head, str byte
	if c.format == CBOR {
		head, str = 0x80, 0x60 // array, text; lengths in the head
	} else {
		head, str = 0x90, 0xa0 // fixarray, fixstr
	}
	if prefix[0] != head+unchangedItems && prefix[0] != head+deltaItems {
		return 0
	}
	if prefix[1] != str+byte(len(deltaTag)) || string(prefix[2:2+len(deltaTag)]) != deltaTag {
		return 0
	}
	return 0.99
}

// deltaDecoder reads a delta record with the decoder of a response,
// charging what it builds to dm (the decoder's meter is dm's Response).
type deltaDecoder struct {
	*decoder
	dm *delta.Meter
}

// add appends x to *list, charged to d.dm (delta.Append), unless the
// charge does not fit: then it records the refusal.
func add[T any](d *deltaDecoder, list *[]T, x T) {
	if d.err != nil {
		return
	}
	l, ok := delta.Append(d.dm, *list, x)
	if !ok {
		d.failLimit(d.dm.LimitName(), "%s", d.dm.Msg())
		return
	}
	*list = l
}

// fits records a refusal when what was charged to d.dm's Response does
// not fit beside the delta's own lists.
func (d *deltaDecoder) fits() {
	if d.err == nil && !d.dm.Fits() {
		d.failLimit(d.dm.LimitName(), "%s", d.dm.Msg())
	}
}

func (d *deltaDecoder) deltaRecord() (*delta.Delta, error) {
	n := d.array("delta", unchangedItems, deltaItems)
	if d.err == nil && n != unchangedItems && n != deltaItems {
		d.failf("delta: %d elements, expected %d (unchanged) or %d", n, unchangedItems, deltaItems)
	}
	if tag := d.str("delta tag"); d.err == nil && tag != deltaTag {
		d.failf("expected the delta tag %q, found %q", deltaTag, clip(tag))
	}
	if v := d.int("delta version"); d.err == nil && v != deltaVersion {
		d.failf("unsupported delta version %d (this decoder reads %d)", v, deltaVersion)
	}
	dl := &delta.Delta{}
	dl.Base = d.hash("base")
	dl.Result = d.hash("result")
	if d.err == nil && (n == unchangedItems) != dl.Unchanged() {
		if n == unchangedItems {
			d.failf("an unchanged delta whose base and result differ")
		} else {
			d.failf("base and result are equal: such a delta is the unchanged record of %d items", unchangedItems)
		}
	}
	if n == deltaItems {
		dl.FormatVersion = d.str("format_version")
		dl.QueryType = wire.QueryType(d.enum("query_type"))
		if d.err == nil && !dl.QueryType.Valid() {
			d.failf("unknown query type %q", clip(string(dl.QueryType)))
		}
		d.deltaNodes(&dl.Nodes)
		d.deltaEdges(&dl.Edges)
		d.deltaRows(&dl.Rows)
		d.deltaFields(dl)
	}
	d.leave()
	if d.err != nil {
		return nil, d.err
	}
	return dl, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func (d *deltaDecoder) hash(what string) delta.Hash {
	s := d.str(what)
	if d.err != nil {
		return delta.Hash{}
	}
	h, err := delta.ParseHash(s)
	if err != nil {
		d.failf("%s: %s", what, err.Error())
	}
	return h
}

// position reads a position or occurrence number: 0 to MaxInt32.
func (d *deltaDecoder) position(what string) int {
	v := d.int(what)
	if d.err == nil && (v < 0 || v > math.MaxInt32) {
		d.failf("%s: %d, expected 0 to %d", what, v, math.MaxInt32)
		return 0
	}
	return int(v)
}

// list reads the head of one of the delta's lists, checked against
// MaxElements.
func (d *deltaDecoder) list(what string) int {
	n := d.array(what, 0, math.MaxInt)
	d.count(what, n)
	if d.err != nil {
		return 0
	}
	return n
}

// meteredNode reads a node record, its head included, and meters it.
func (d *deltaDecoder) meteredNode(nd *wire.Node) {
	m := d.array("node", 2, math.MaxInt)
	if d.err == nil && m%2 != 0 {
		d.failf("node: %d elements, expected an even number", m)
	}
	d.node(nd, m-2)
	if d.err == nil {
		d.metered(d.m.Node(nd))
		d.fits()
	}
	d.leave()
}

func (d *deltaDecoder) nodeKey(what string, items int) delta.NodeKey {
	d.array(what, items, items)
	var k delta.NodeKey
	k.Type = d.name(what + " type")
	k.ID = d.int(what + " id")
	k.N = d.position(what + " n")
	return k
}

func (d *deltaDecoder) deltaNodes(o *delta.NodeOps) {
	d.array("nodes", 4, 4)
	n := d.list("nodes removed")
	for i := 0; i < n && d.err == nil; i++ {
		add(d, &o.Removed, d.nodeKey("removed node", 3))
		d.leave()
	}
	d.leave()
	n = d.list("nodes moved")
	for i := 0; i < n && d.err == nil; i++ {
		k := d.nodeKey("moved node", 4)
		add(d, &o.Moved, delta.Move[delta.NodeKey]{Key: k, At: d.position("moved node at")})
		d.leave()
	}
	d.leave()
	n = d.list("nodes changed")
	for i := 0; i < n && d.err == nil; i++ {
		d.array("changed node", 2, 2)
		ch := delta.Changed{N: d.position("changed node n")}
		d.meteredNode(&ch.Node)
		add(d, &o.Changed, ch)
		d.leave()
	}
	d.leave()
	n = d.list("nodes added")
	for i := 0; i < n && d.err == nil; i++ {
		d.array("added node", 2, 2)
		a := delta.Placed[wire.Node]{At: d.position("added node at")}
		d.meteredNode(&a.Item)
		add(d, &o.Added, a)
		d.leave()
	}
	d.leave()
	d.leave()
}

func (d *deltaDecoder) edgeRecord(e *wire.Edge) {
	d.edge(e)
	if d.err == nil {
		d.metered(d.m.Edge(e))
		d.fits()
	}
}

func (d *deltaDecoder) deltaEdges(o *delta.EdgeOps) {
	d.array("edges", 3, 3)
	n := d.list("edges removed")
	for i := 0; i < n && d.err == nil; i++ {
		d.array("removed edge", 2, 2)
		k := delta.EdgeKey{N: d.position("removed edge n")}
		d.edgeRecord(&k.Edge)
		add(d, &o.Removed, k)
		d.leave()
	}
	d.leave()
	n = d.list("edges moved")
	for i := 0; i < n && d.err == nil; i++ {
		d.array("moved edge", 3, 3)
		m := delta.Move[delta.EdgeKey]{Key: delta.EdgeKey{N: d.position("moved edge n")}, At: d.position("moved edge at")}
		d.edgeRecord(&m.Key.Edge)
		add(d, &o.Moved, m)
		d.leave()
	}
	d.leave()
	n = d.list("edges added")
	for i := 0; i < n && d.err == nil; i++ {
		d.array("added edge", 2, 2)
		a := delta.Placed[wire.Edge]{At: d.position("added edge at")}
		d.edgeRecord(&a.Item)
		add(d, &o.Added, a)
		d.leave()
	}
	d.leave()
	d.leave()
}

func (d *deltaDecoder) deltaRows(o *delta.RowOps) {
	d.array("rows", 4, 4)
	o.Present = d.boolean("rows present")
	n := d.list("rows removed")
	for i := 0; i < n && d.err == nil; i++ {
		add(d, &o.Removed, d.position("removed row"))
	}
	d.leave()
	n = d.list("rows moved")
	for i := 0; i < n && d.err == nil; i++ {
		d.array("moved row", 2, 2)
		add(d, &o.Moved, delta.Move[int]{Key: d.position("moved row from"), At: d.position("moved row at")})
		d.leave()
	}
	d.leave()
	n = d.list("rows added")
	if d.err == nil && n > 0 && !o.Present {
		d.failf("rows added to a result without rows")
	}
	for i := 0; i < n && d.err == nil; i++ {
		d.array("added row", 2, 2)
		a := delta.Placed[wire.Row]{At: d.position("added row at")}
		a.Item = d.row()
		d.fits()
		add(d, &o.Added, a)
		d.leave()
	}
	d.leave()
	d.leave()
}

// deltaFields reads set and the three header fields, each null when not
// set.
func (d *deltaDecoder) deltaFields(dl *delta.Delta) {
	set := d.int("set")
	if d.err == nil && (set < 0 || set > int64(delta.SetColumns|delta.SetGroupColumns|delta.SetPagination)) {
		d.failf("set: %d is not a set of header fields (0 to 7)", set)
	}
	dl.Set = delta.Fields(set)
	notSet := func(what string) {
		if d.err == nil {
			d.failf("%s: a value for a field the delta does not set", what)
		}
	}
	if cnt := d.optArray("columns"); cnt >= 0 {
		if !dl.Set.Has(delta.SetColumns) {
			notSet("columns")
		}
		d.count("columns", cnt)
		dl.Columns = make([]wire.Column, 0, prealloc(cnt))
		for i := 0; i < cnt && d.err == nil; i++ {
			dl.Columns = append(dl.Columns, wire.Column{})
			d.column(&dl.Columns[i])
			if d.err == nil {
				d.metered(d.m.Column(&dl.Columns[i]))
				d.fits()
			}
		}
		d.leave()
	}
	if cnt := d.optArray("group_columns"); cnt >= 0 {
		if !dl.Set.Has(delta.SetGroupColumns) {
			notSet("group_columns")
		}
		d.count("group_columns", cnt)
		dl.GroupColumns = make([]wire.GroupColumn, 0, prealloc(cnt))
		for i := 0; i < cnt && d.err == nil; i++ {
			dl.GroupColumns = append(dl.GroupColumns, wire.GroupColumn{})
			d.groupColumn(&dl.GroupColumns[i])
			if d.err == nil {
				d.metered(d.m.GroupColumn(&dl.GroupColumns[i]))
				d.fits()
			}
		}
		d.leave()
	}
	t := d.read()
	switch {
	case t == nil:
	case t.kind == kArray:
		if !dl.Set.Has(delta.SetPagination) {
			notSet("pagination")
		}
		dl.Pagination = d.pagination(int(t.i), layoutVersion)
		d.fits()
	case t.kind != kNull:
		d.wrongKind("pagination", "array or null", t)
	}
}
