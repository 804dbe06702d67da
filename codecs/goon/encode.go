package goon

import (
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Encode returns the GOON text of r under the default wire.Limits.
func Encode(r *wire.GraphResponse) ([]byte, error) { return AppendEncode(nil, r) }

// AppendEncode appends the GOON text of r to dst under the default
// wire.Limits; on error, a *wire.EncodeError, it returns dst unchanged.
func AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) { return std.AppendEncode(dst, r) }

// EncodeTo writes the GOON text of r to w under the default wire.Limits.
func EncodeTo(w io.Writer, r *wire.GraphResponse) error { return std.EncodeTo(w, r) }

// AppendEncode appends the GOON text of r to dst under the codec's limits
// (see the package-level AppendEncode).
func (c *Codec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	e := encoderPool.Get().(*encoder)
	err := c.encode(e, r)
	if err == nil {
		dst = append(dst, e.b...)
	}
	e.release()
	return dst, err
}

// EncodeTo writes the GOON text of r to w under the codec's limits, in
// writes of about 32 KiB, never holding it whole; a first pass checks it,
// so only an error from w can leave partial output.
func (c *Codec) EncodeTo(w io.Writer, r *wire.GraphResponse) error {
	e := encoderPool.Get().(*encoder)
	defer e.release()
	e.out = io.Discard
	if err := c.encode(e, r); err != nil {
		return err
	}
	e.reset()
	e.out = w
	if err := e.encode(r, c.version); err != nil {
		return err
	}
	if len(e.b) > 0 {
		if _, err := w.Write(e.b); err != nil {
			return err
		}
	}
	return nil
}

// streamChunk is how much text EncodeTo gathers before writing it.
const streamChunk = 32 << 10

// spill writes b to e.out once it holds streamChunk bytes and returns it
// emptied; without e.out it returns b.
func (e *encoder) spill(b []byte) ([]byte, error) {
	if e.out == nil || len(b) < streamChunk {
		return b, nil
	}
	if _, err := e.out.Write(b); err != nil {
		return b, err
	}
	e.written += int64(len(b))
	return b[:0], nil
}

// encode writes r into e.b, or refuses what the limits refuse, what GOON
// cannot carry, and text Decode would refuse: where a list's JSON text
// (escaped again as a string) or MaxExpansion could make Decode refuse
// it, the text is decoded to make sure.
func (c *Codec) encode(e *encoder, r *wire.GraphResponse) error {
	if r == nil {
		return &wire.EncodeError{Codec: Name, Msg: "nil response"}
	}
	l := c.core.Limits
	// Checked against half the materialised limit, in full only past it.
	half := l
	half.MaxMaterializedBytes = max(l.MaxMaterializedBytes/2, 1)
	nearLimit := false
	checked := delta.Checkable(r, e.fragment)
	size, err := wirecodec.Measure(half, Name, checked)
	if err != nil {
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || ee.Limit != "MaxMaterializedBytes" {
			return err
		}
		if size, err = wirecodec.Measure(l, Name, checked); err != nil {
			return err
		}
		nearLimit = true
	}
	if err := e.encode(r, c.version); err != nil {
		return err
	}
	if n := len(e.nodes); n > l.MaxElements {
		return &wire.EncodeError{Codec: Name, Path: "nodes", Limit: "MaxElements",
			Msg: strconv.Itoa(n) + " node lines with the nodes lifted from rows, more than the limit of " + strconv.Itoa(l.MaxElements)}
	}
	if err := c.core.CheckOutput(e.written+int64(len(e.b)), "text"); err != nil {
		return err
	}
	if e.maxList > 0 && (nearLimit || e.maxList > l.MaxStringBytes/2) || e.mayExpand(&size, l) {
		text := e.b
		if e.out != nil {
			// Streaming has handed the text on; make it again whole.
			whole := encoderPool.Get().(*encoder)
			defer whole.release()
			whole.fragment = e.fragment
			if err := whole.encode(r, c.version); err != nil {
				return err
			}
			text = whole.b
		}
		if _, _, err := c.read(text, e.fragment, false); err != nil {
			var de *wire.DecodeError
			if errors.As(err, &de) {
				return &wire.EncodeError{Codec: Name, Limit: de.Limit, Msg: "Decode would refuse the text: " + de.Msg}
			}
			return err
		}
	}
	return nil
}

const maxPooledBuffer = 64 << 20 // the largest scratch buffer kept

var encoderPool = sync.Pool{New: func() any { return &encoder{lifted: map[nodeKey]struct{}{}} }}

// encoder holds the scratch space of one encode; it is pooled.
type encoder struct {
	b       []byte
	nodes   []*wire.Node // server nodes, then nodes lifted from rows, in output order
	edges   []*wire.Edge // de-duplicated, in output order
	props   []propRef
	keys    []string // the keys, in input order, whose order props holds
	keysOK  bool     // keys and props are set (the keys passed propOrder's checks)
	cols    []rowCol
	lifted  map[nodeKey]struct{}
	r       *wire.GraphResponse // the response being encoded, for error paths
	tmpA    []byte
	tmpB    []byte
	list    []byte
	maxList int       // the longest JSON text of a list value written
	ends    [2]string // the endpoint types of the last edge written, names
	fills   bool      // a truncated value's kept prefix lost control characters to quoting
	err     error     // set by a sort comparator that had to encode a node row
	out     io.Writer // EncodeTo's writer; nil when appending to a slice
	written int64     // bytes handed to out so far
	// fragment: a document's content; agg and paths: the layout written.
	fragment, agg, paths bool
}

func (e *encoder) release() {
	e.reset()
	e.out = nil
	if cap(e.b) > maxPooledBuffer {
		e.b = nil
	}
	if cap(e.list) > maxPooledBuffer {
		e.list = nil
	}
	encoderPool.Put(e)
}

// reset empties the encoder's scratch space for another encode, keeping
// its buffers and writer.
func (e *encoder) reset() {
	clear(e.nodes)
	clear(e.edges)
	clear(e.props)
	clear(e.keys)
	clear(e.cols)
	clear(e.lifted)
	*e = encoder{b: e.b[:0], nodes: e.nodes[:0], edges: e.edges[:0], props: e.props[:0], keys: e.keys[:0], cols: e.cols[:0],
		lifted: e.lifted, tmpA: e.tmpA, tmpB: e.tmpB, list: e.list, out: e.out}
}

func (e *encoder) encode(r *wire.GraphResponse, version string) error {
	// r has passed wirecodec.Measure: its query type, group kinds and
	// pagination are valid, its property keys neither reserved nor
	// repeated.
	e.layout(r)
	agg, paths := e.agg, e.paths
	e.r = r

	// Nodes sorted by (type, id), except in aggregation (lifted from rows).
	e.nodes = slices.Grow(e.nodes, len(r.Nodes))
	for i := range r.Nodes {
		e.nodes = append(e.nodes, &r.Nodes[i])
	}
	if agg {
		if err := e.liftNodes(r); err != nil {
			return err
		}
	} else {
		slices.SortFunc(e.nodes, e.cmpNodes)
		if e.err != nil {
			return e.err
		}
	}

	// Edges sorted and de-duplicated by the full key; path_finding keeps
	// only the edges of a path.
	e.edges = slices.Grow(e.edges, len(r.Edges))
	for i := range r.Edges {
		if paths && !r.Edges[i].PathID.Valid {
			continue
		}
		e.edges = append(e.edges, &r.Edges[i])
	}
	slices.SortFunc(e.edges, cmpEdges)
	e.edges = slices.CompactFunc(e.edges, func(a, b *wire.Edge) bool { return cmpEdges(a, b) == 0 })

	if agg {
		if err := e.rowColumns(r); err != nil {
			return err
		}
	}

	b, err := e.writeHeader(e.b[:0], r, version)
	if err != nil {
		return err
	}
	// A fragment leaves out empty sections, but writes @nodes when it
	// has nothing else, so that an empty content is told from none.
	if !e.fragment || len(e.nodes) > 0 || len(e.edges) == 0 && r.Rows == nil {
		b = append(b, "@nodes\n"...)
		if b, err = e.writeNodes(b); err != nil {
			return err
		}
	}
	switch {
	case e.fragment && len(e.edges) == 0:
	case paths:
		b = append(b, "@paths\n"...)
		b, err = e.writePaths(b)
	default:
		b = append(b, "@edges\n"...)
		b, err = e.writeEdges(b)
	}
	if err != nil {
		return err
	}
	if r.Rows != nil {
		b = append(b, "@rows\n"...)
		if b, err = e.writeRows(b, r); err != nil {
			return err
		}
	}
	e.b = b
	return nil
}

// layout chooses whether r is written as an aggregation and with @paths,
// by its query type, or for a fragment without one by what it holds (see
// the package documentation, Deltas and references).
func (e *encoder) layout(r *wire.GraphResponse) {
	e.agg, e.paths = r.QueryType == wire.Aggregation, r.QueryType == wire.PathFinding
	if e.fragment && r.QueryType == "" {
		e.agg = r.Rows != nil || len(r.Columns) > 0 || len(r.GroupColumns) > 0
		e.paths = !e.agg && len(r.Edges) > 0 && !slices.ContainsFunc(r.Edges, func(x wire.Edge) bool { return !x.PathID.Valid || x.Depth.Valid })
	}
}

// mayExpand reports whether the response, of materialised size size, may
// decode from the text in e past the limit Decode applies to it. Decode
// builds at most twice size (a list's JSON escaped again, a path edge's
// source, a group column's property), six times where a truncated value's
// kept prefix lost control characters (each a six-byte fillRune in JSON).
func (e *encoder) mayExpand(size *wirecodec.Measurement, l wire.Limits) bool {
	limit := wirecodec.MaterializedLimit(l, e.written+int64(len(e.b)))
	factor := int64(2)
	if e.fills {
		factor = 6
	}
	return size.Exceeds(limit / factor)
}

// writeHeader appends the @header section.
func (e *encoder) writeHeader(b []byte, r *wire.GraphResponse, version string) ([]byte, error) {
	b = append(b, headerMarker...)
	if !e.fragment || r.QueryType != "" {
		b = append(append(append(b, "query_type:"...), r.QueryType...), '\n')
	}
	if !e.fragment {
		b = append(append(append(b, "goon_version:"...), version...), '\n')
		b = intField(b, "nodes:", int64(len(e.nodes)))
		b = intField(b, "edges:", int64(len(e.edges)))
	}
	if p := r.Pagination; p != nil {
		if p.HasMore {
			b = append(b, "has_more:true\n"...)
		}
		if p.TotalRows.Valid {
			b = intField(b, "total_rows:", p.TotalRows.V)
		}
		if p.Truncated.V {
			b = append(b, "truncated:true\n"...)
		}
		if p.NextCursor.Valid {
			b = append(appendCursor(append(b, "next_cursor:"...), p.NextCursor.V), '\n')
		}
	}
	if !e.agg {
		return b, nil
	}
	if r.Rows != nil {
		n := 0
		for _, row := range r.Rows {
			if e.rowWrites(row) {
				n++
			}
		}
		b = intField(b, "rows:", int64(n))
	}
	b, err := descriptors(b, "group_by:", len(r.GroupColumns), func(b []byte, i int) ([]byte, error) {
		g := &r.GroupColumns[i]
		b = append(b, g.Name...)
		switch g.Kind {
		case wire.GroupByNode:
			b = append(b, "(node"...)
			if g.Entity.Valid {
				return appendPart(b, ':', g.Entity.V, wirecodec.GroupColumnPath, i, "entity")
			}
		case wire.GroupByProperty:
			b = append(b, "(property"...)
			if g.Property.Valid && g.Property.V != g.Name {
				return appendPart(b, ':', g.Property.V, wirecodec.GroupColumnPath, i, "property")
			}
		}
		return b, nil
	})
	if err != nil {
		return b, err
	}
	return descriptors(b, "aggregations:", len(r.Columns), func(b []byte, i int) ([]byte, error) {
		c := &r.Columns[i]
		if !isName(c.Function) {
			return b, notName(wirecodec.ColumnPath(i).Field("function").String(), "function", c.Function)
		}
		b = append(append(append(b, c.Name...), '('), c.Function...)
		var err error
		if c.Target.Valid {
			if b, err = appendPart(b, ':', c.Target.V, wirecodec.ColumnPath, i, "target"); err == nil && c.Property.Valid {
				b, err = appendPart(b, '.', c.Property.V, wirecodec.ColumnPath, i, "property")
			}
		}
		return b, err
	})
}

// intField appends the header line of an integer field.
func intField(b []byte, field string, n int64) []byte {
	return append(textwire.AppendInt(append(b, field...), n), '\n')
}

// descriptors appends the header line field of n descriptors, written by
// each without its closing parenthesis, separated by commas; nothing when
// n is 0.
func descriptors(b []byte, field string, n int, each func([]byte, int) ([]byte, error)) ([]byte, error) {
	if n == 0 {
		return b, nil
	}
	b = append(b, field...)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = each(b, i); err != nil {
			return b, err
		}
		b = append(b, ')')
	}
	return append(b, '\n'), nil
}

// appendPart appends sep and the name s, a part of column i's descriptor;
// s that is not a name is an error at the column's field what.
func appendPart(b []byte, sep byte, s string, path func(int) wirecodec.Path, i int, what string) ([]byte, error) {
	if !isName(s) {
		return b, notName(path(i).Field(what).String(), what, s)
	}
	return append(append(b, sep), s...), nil
}

// appendFields appends the header's field lines; a text GOON's quoting
// does not carry is refused.
func (c *Codec) appendFields(b []byte, header []delta.Field) ([]byte, error) {
	for _, f := range header {
		b = append(b, f.Name...)
		b = append(b, ':')
		switch kind, _ := delta.FieldKind(f.Name); kind {
		case delta.IntList:
			b = delta.AppendInts(b, f.Ints)
		case delta.Text:
			if !quotable(f.Text) {
				return b, fieldError(f.Name, "holds a control character, which GOON's quoting does not carry")
			}
			b = appendCursor(b, f.Text)
		}
		b = append(b, '\n')
	}
	return b, nil
}

func fieldError(name, msg string) error {
	return &wire.EncodeError{Codec: Name, Msg: "header field " + textwire.Excerpt(name) + " " + msg}
}
