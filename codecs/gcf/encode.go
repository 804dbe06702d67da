package gcf

import (
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// AppendEncode appends the GCF text of r to dst (see the package
// documentation for the layout and what the encoder refuses); on error
// dst comes back unchanged.
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return c.appendEncode(dst, r, false)
}

// appendEncode is AppendEncode; with fragment, it writes r as the content
// of a document with a header (see the package documentation).
func (c *Codec) appendEncode(dst []byte, r *wire.GraphResponse, fragment bool) ([]byte, error) {
	if r == nil {
		return dst, &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	m, err := wirecodec.Measure(c.core.Limits, Name, delta.Checkable(r, fragment))
	if err != nil {
		return dst, err
	}
	n := len(dst)
	out, ok := c.appendFast(dst, r, int64(m.SizeHint()), fragment)
	if !ok {
		if err := c.refusal(delta.Checkable(r, fragment)); err != nil {
			return dst, err
		}
		return dst, &wire.EncodeError{Codec: Name, Limit: "MaxDepth",
			Msg: "the document nests deeper than the limit of " + strconv.Itoa(min(c.core.Limits.MaxDepth+layoutDepth, wirecodec.HardMaxDepth)) + " (MaxDepth and the layout's " + strconv.Itoa(layoutDepth) + " levels)"}
	}
	if err := c.core.CheckOutput(int64(len(out)-n), "text"); err != nil {
		return out[:n], err
	}
	return out, nil
}

// writeChunk is the most EncodeTo hands w in one Write.
const writeChunk = 32 << 10

// EncodeTo writes the GCF text of r to w, in writes of at most 32 KiB. It
// builds the text in memory first (GCF's tables need their field union
// before their first row), so an *wire.EncodeError means nothing was
// written.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	out, err := c.AppendEncode(nil, r)
	if err != nil {
		return err
	}
	for len(out) > 0 {
		n := min(len(out), writeChunk)
		if _, err := w.Write(out[:n]); err != nil {
			return err
		}
		out = out[n:]
	}
	return nil
}

// The writer writes the bytes gcfvalue.AppendEncode writes for the
// document's generic value, without building it; where the layout cannot
// carry the response it stops and reports false, and refusal names the
// place.

// writer is the scratch of one encode, pooled.
type writer struct {
	b        []byte
	maxStr   int
	maxDepth int
	fail     bool
	cols     []string       // the union of the table being planned or written
	pos      map[string]int // key -> column over cols[colBase:], when the union is long
	colBase  int
	runs     []span
	opt      [3]uint8  // the optional edge (or column) fields in first-seen order
	nodeCols []int     // per column of a rows table: the flattened node cell's width, 0 for a plain column
	types    [4]string // the last types and relationships name wrote bare
	nextType uint8
}

// span is a run of consecutive objects one table carries: objects
// [start,end), its columns cols[c0:c1].
type span struct{ start, end, c0, c1 int }

var writers = sync.Pool{New: func() any { return &writer{pos: make(map[string]int)} }}

// maxPooled is the largest buffer a writer keeps between encodes.
const maxPooled = 8 << 20

// appendFast appends the document of r to dst, or reports false when the
// writer stopped at what the layout cannot carry (dst is then unchanged). size is r's size as
// wirecodec.Measurement.SizeHint gives it (the larger of its canonical JSON and
// its memory), within the limits. The writer writes into dst's spare room
// when dst has at least a quarter of size to spare (a caller's reused buffer),
// and otherwise into its pooled buffer, made size long at once when too
// short, then appends that to dst: one allocation, or none.
func (c *Codec) appendFast(dst []byte, r *wire.GraphResponse, size int64, fragment bool) ([]byte, bool) {
	w := writers.Get().(*writer)
	pooled := w.b
	room := int64(cap(dst) - len(dst))
	direct := room > 0 && room >= size/4
	switch {
	case direct:
		w.b = dst[len(dst):]
	case int64(cap(pooled)) < size:
		pooled = make([]byte, 0, size)
		w.b = pooled
	default:
		w.b = pooled[:0]
	}
	w.fail = false
	w.maxStr = c.core.Limits.MaxStringBytes
	w.maxDepth = min(c.core.Limits.MaxDepth+layoutDepth, wirecodec.HardMaxDepth)
	w.document(r, fragment)
	ok := !w.fail
	switch {
	case !ok:
	case direct && int64(cap(w.b)) == room:
		dst = dst[:len(dst)+len(w.b)] // written in place
	default:
		dst = append(dst, w.b...)
	}
	if !direct {
		pooled = w.b
	}
	if cap(pooled) > maxPooled {
		pooled = nil
	}
	w.b = pooled[:0]
	clear(w.cols)
	w.cols, w.types = w.cols[:0], [4]string{}
	writers.Put(w)
	return dst, ok
}

// document writes r's document; a fragment leaves out an empty
// format_version, query_type, nodes and edges, but writes "## nodes [0]"
// when it would otherwise write nothing after its GCF line.
func (w *writer) document(r *wire.GraphResponse, fragment bool) {
	if !r.QueryType.Valid() && (!fragment || r.QueryType != "") {
		w.fail = true
		return
	}
	w.b = append(w.b, gcfLine...)
	for _, f := range [...]struct{ name, v string }{{"format_version=", r.FormatVersion}, {"query_type=", string(r.QueryType)}} {
		if !fragment || f.v != "" {
			w.b = append(w.b, f.name...)
			w.str(f.v)
			w.b = append(w.b, '\n')
		}
	}
	if !fragment || len(r.Nodes) > 0 || onlyNodes(r) {
		w.nodes(r.Nodes)
	}
	if !fragment || len(r.Edges) > 0 {
		w.edges(r.Edges)
	}
	if r.Columns != nil {
		w.columns(r.Columns)
	}
	if r.GroupColumns != nil {
		w.groupColumns(r.GroupColumns)
	}
	if r.Rows != nil {
		w.rows(r.Rows)
	}
	if p := r.Pagination; p != nil {
		w.pagination(p)
	}
}

// onlyNodes reports whether r holds nothing a fragment writes but its
// nodes: a fragment of r writes its nodes, even none, so that a content
// is never an empty text (which a document reads as no content).
func onlyNodes(r *wire.GraphResponse) bool {
	return r.FormatVersion == "" && r.QueryType == "" && len(r.Edges) == 0 &&
		r.Columns == nil && r.GroupColumns == nil && r.Rows == nil && r.Pagination == nil
}

// str writes a string value.
func (w *writer) str(s string) {
	if len(s) > w.maxStr {
		w.fail = true
		return
	}
	var ok bool
	if w.b, ok = gcfvalue.AppendValidString(w.b, s); !ok {
		w.fail = true
	}
}

// name writes a node type or relationship as str does: the few a
// response has repeat row after row, and one written bare lately is
// written again without a check.
func (w *writer) name(s string) {
	if s != "" && slices.Contains(w.types[:], s) {
		w.b = append(w.b, s...)
		return
	}
	n := len(w.b)
	if w.str(s); !w.fail && len(w.b)-n == len(s) {
		w.types[w.nextType%4], w.nextType = s, w.nextType+1
	}
}

func (w *writer) indent(depth int) {
	for range depth {
		w.b = append(w.b, ' ', ' ')
	}
}

// scalar writes a scalar value; a list is the caller's.
func (w *writer) scalar(v wire.Value) {
	switch v.Kind() {
	case wire.KindNull:
		w.b = append(w.b, '-')
	case wire.KindBool:
		w.b = strconv.AppendBool(w.b, v.Bool())
	case wire.KindInt:
		w.b = textwire.AppendInt(w.b, v.Int())
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			w.fail = true
			return
		}
		w.b = gcfvalue.AppendFloat(w.b, f)
	case wire.KindString:
		w.str(v.Text())
	default:
		w.fail = true
	}
}

// lookup returns the column of k in the union of the run being planned
// (cols[colBase:]), and whether it is there; hint is the column the
// caller expects.
func (w *writer) lookup(k string, hint int) (int, bool) {
	u := w.cols[w.colBase:]
	if hint < len(u) && u[hint] == k {
		return hint, true
	}
	if len(u) > 16 {
		p, ok := w.pos[k]
		return p, ok
	}
	for i, c := range u {
		if c == k {
			return i, true
		}
	}
	return 0, false
}

// startRun begins the union of a new run at the end of cols.
func (w *writer) startRun() {
	w.colBase = len(w.cols)
	if len(w.pos) > 0 {
		clear(w.pos)
	}
}

// addKey appends k to the run's union.
func (w *writer) addKey(k string) {
	if len(k) > w.maxStr || !textwire.ValidUTF8(k) {
		w.fail = true
	}
	w.cols = append(w.cols, k)
	n := len(w.cols) - w.colBase
	switch {
	case n == 17:
		for i, c := range w.cols[w.colBase:] {
			w.pos[c] = i
		}
	case n > 17:
		w.pos[k] = n - 1
	}
}

// fit reports whether the n keys key(0..n-1), after first columns the
// union always starts with, keep their order in the run's union extended
// by their new keys (see addToRun), and whether there are new keys; with
// add, it appends those to the union (for keys that fit).
func (w *writer) fit(n int, key func(int) string, first int, add bool) (fits, grows bool) {
	last, next := first-1, len(w.cols)-w.colBase
	for i := range n {
		k := key(i)
		p, ok := w.lookup(k, last+1)
		if !ok {
			p = next
			next++
			if add {
				w.addKey(k)
			}
		}
		if p < last {
			return false, false
		}
		last = p
	}
	return true, next > len(w.cols)-w.colBase
}

// nodeColumns are the columns a node table has before its properties'.
var nodeColumns = []string{"type", "id"}

// addToRun puts element i, whose n keys key gives, in the last run when
// joinable and its keys fit the run's columns (growing them if need be),
// and otherwise in a run of its own, whose columns are fixed, then its
// keys. A table's columns are the union of its rows' keys in first-seen
// order, and a row reads back with its members in column order: an element
// fits a run when its keys, taken in the order of the run's union extended
// by its own new keys, are in its own order.
func (w *writer) addToRun(i, n int, key func(int) string, fixed []string, joinable bool) {
	if joinable && len(w.runs) > 0 {
		if fits, grows := w.fit(n, key, len(fixed), false); fits {
			if grows {
				w.fit(n, key, len(fixed), true)
			}
			cur := &w.runs[len(w.runs)-1]
			cur.end, cur.c1 = i+1, len(w.cols)
			return
		}
	}
	w.startRun()
	for _, k := range fixed {
		w.addKey(k)
	}
	w.fit(n, key, len(fixed), true)
	w.runs = append(w.runs, span{start: i, end: i + 1, c0: w.colBase, c1: len(w.cols)})
}

// nodes writes the nodes: one table, or a list of tables (see addToRun).
func (w *writer) nodes(nodes []wire.Node) {
	w.runTables("nodes", len(nodes), func(i int) {
		ps := nodes[i].Properties
		sameType := len(w.runs) > 0 && nodes[w.runs[len(w.runs)-1].start].Type == nodes[i].Type
		w.addToRun(i, len(ps), func(j int) string { return ps[j].Key }, nodeColumns, sameType)
	}, func(s span, rowDepth, level int) { w.table(run{nodes: nodes}, s, rowDepth, level) })
}

// runTables writes the section name of n elements, which add(i) puts in
// runs: "## name [0]" for none, one table after "## name ", or
// "## name [n]" and each run's table after "@g " (rows one level deeper),
// stopping when the writer fails.
func (w *writer) runTables(name string, n int, add func(i int), table func(s span, rowDepth, level int)) {
	w.b = append(w.b, "## "...)
	w.b = append(w.b, name...)
	if n == 0 {
		w.b = append(w.b, " [0]\n"...)
		return
	}
	w.runs = w.runs[:0]
	for i := range n {
		add(i)
	}
	if w.fail {
		return
	}
	if len(w.runs) == 1 {
		w.b = append(w.b, ' ')
		table(w.runs[0], 0, 3)
		return
	}
	w.b = append(w.b, " ["...)
	w.b = strconv.AppendInt(w.b, int64(len(w.runs)), 10)
	w.b = append(w.b, "]\n"...)
	for g, s := range w.runs {
		w.marker(g)
		table(s, 1, 4)
		if w.fail {
			return
		}
	}
}

// marker writes the marker "@i " of an item or a row with attachments.
func (w *writer) marker(i int) {
	w.b = append(w.b, '@')
	w.b = textwire.AppendInt(w.b, int64(i))
	w.b = append(w.b, ' ')
}

// isPathName reports whether a property or cell name holds '>': it
// cannot be a column (spec §7.4.6.1) and travels as an attachment after
// its row.
func isPathName(k string) bool { return strings.IndexByte(k, '>') >= 0 }
