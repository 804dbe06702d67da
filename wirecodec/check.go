package wirecodec

import (
	"math"
	"strconv"

	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/wire"
)

// Check reports whether a decoder configured with l would accept r, so that
// an encoder can refuse what its own decoder would refuse. It returns nil,
// or an *EncodeError for codec naming the first place that breaks a rule
// of the model or a limit (Path "nodes[3].properties.tags[0]", Limit
// "MaxDepth"); an error for a limit matches errors.Is(err, ErrLimit).
//
// It is the one place that holds the rules every built-in decoder
// enforces, whatever its format, and every built-in encoder runs it before
// writing: the query type and the group kinds within their enumerations, a
// Pagination in schema v2 or v5 (Pagination.Check), no property named
// "type" or "id" and no property key twice in one node (Path "nodes[3]",
// or "rows[2].owner" for a node cell), and no cell name twice in one row
// (Path "rows[2]"). What one format alone cannot carry stays with its
// codec; Validate asks every codec of a registry.
//
// It checks, in the same walk of r: list nesting against MaxDepth; the length
// of every sequence (nodes, edges, columns, group columns, rows, the cells
// of a row, the properties of a node, the items of a list) against
// MaxElements; every string, name and key against MaxStringBytes, measured
// as a decoder returns it (an invalid UTF-8 byte counts as the three bytes
// of U+FFFD, which canonical JSON writes for it); and MaterializedSize(r)
// against MaxMaterializedBytes. MaxInputBytes bounds an encoding, not a
// response: each encoder compares its own output with it.
//
// Zero fields of l select their defaults; a negative field gives an
// *EncodeError. Check does not allocate unless it fails or a node or row
// holds more than 32 properties or cells (whose repeats it finds through a
// hash of their keys).
//
// MaxExpansion too bounds an encoding rather than a response: an encoder
// whose output can be much smaller than the response compares the size
// CheckSize returns with its output's length (CheckExpansion).
func Check(l wire.Limits, codec string, r *wire.GraphResponse) error {
	_, err := CheckSize(l, codec, r)
	return err
}

// CheckSize is Check, and on success also returns the measure that
// CheckExpansion compares with an encoding's length: the larger of
// MaterializedSize(r) and the in-memory size of r (InMemorySize, except
// that a long string shared by several places is counted at each), both
// counted by the walk. For the codec named "json", whose encoding is the
// canonical JSON and so MaterializedSize(r) bytes long, it applies
// CheckExpansion itself.
func CheckSize(l wire.Limits, codec string, r *wire.GraphResponse) (int64, error) {
	_, size, err := checkSizes(l, codec, r)
	return size, err
}

// checkSizes is CheckSize, also returning MaterializedSize(r), which the
// walk counts: the exact length of r's canonical JSON.
func checkSizes(l wire.Limits, codec string, r *wire.GraphResponse) (n, size int64, err error) {
	l, err = l.WithDefaults()
	if err != nil {
		return 0, 0, &wire.EncodeError{Codec: codec, Msg: err.Error()}
	}
	if r == nil {
		return 0, 0, nil
	}
	c := checker{l: l, m: Meter{limit: l.MaxMaterializedBytes, memLimit: math.MaxInt64, name: "MaxMaterializedBytes"}}
	if err := c.response(codec, r); err != nil {
		return 0, 0, err
	}
	size = max(c.m.n, c.m.mem)
	if codec == "json" {
		// The encoding is the canonical JSON: its length is known.
		if err := CheckExpansion(l, codec, size, c.m.n); err != nil {
			return 0, 0, err
		}
	}
	return c.m.n, size, nil
}

// CheckExpansion reports whether a decoder configured with l accepts, from
// an encoding of n bytes, a response whose size is size, the larger of
// its materialised and its in-memory size that CheckSize returns: nil,
// or an *EncodeError for codec naming MaxExpansion when size is past
// MaxExpansion times n plus ExpansionAllowance (MaxMaterializedBytes
// CheckSize has checked). An encoder that writes a format whose output
// can be much smaller than the response (a name table, a table header
// shared by its rows, a digit per element) calls it with its output's
// length, so that it refuses what its decoder would.
func CheckExpansion(l wire.Limits, codec string, size, n int64) error {
	ratio := int64(l.MaxExpansion)
	if ratio <= 0 {
		ratio = int64(wire.DefaultLimits().MaxExpansion)
	}
	limit, name := expansionLimit(ratio, n), "MaxExpansion"
	if size <= limit {
		return nil
	}
	return &wire.EncodeError{Codec: codec, Limit: name, Msg: "the response takes " + strconv.FormatInt(size, 10) +
		" bytes as canonical JSON or in memory, more than the " + strconv.FormatInt(limit, 10) + " a decoder accepts from an encoding of " +
		strconv.FormatInt(n, 10) + " bytes (" + name + ")"}
}

// checker walks a response for Check.
type checker struct {
	l wire.Limits
	m Meter
	// keysOK holds the last property lists whose keys passed propKeys,
	// one a slot: the nodes of one type usually share their keys, in the
	// same order, so a list with the keys of one of them passes at the
	// cost of comparing them. keysNext is the slot written next.
	keysOK   [keySlots][]wire.Property
	keysNext int
	// cellsOK is the last row whose cell names passed cellNames, for the
	// same reason.
	cellsOK wire.Row
}

// A path names a place in a response for an *EncodeError. The walk keeps
// it on the stack, each step pointing to its parent; the string is built
// only on failure.
type path struct {
	parent *path
	key    string // a field, cell or property key; when "" the step is index
	index  int
}

func (p *path) key1(k string) path { return path{parent: p, key: k} }
func (p *path) idx(i int) path     { return path{parent: p, index: i} }

func (p *path) append(b []byte) []byte {
	if p == nil {
		return b
	}
	b = p.parent.append(b)
	if p.key == "" {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p.index), 10)
		return append(b, ']')
	}
	if len(b) > 0 {
		b = append(b, '.')
	}
	return append(b, p.key...)
}

func (c *checker) fail(codec, limit, msg string, p *path) error {
	return &wire.EncodeError{Codec: codec, Path: string(p.append(nil)), Msg: msg, Limit: limit}
}

func (c *checker) tooMany(codec string, n int, p *path) error {
	return c.fail(codec, "MaxElements", strconv.Itoa(n)+" elements, more than the limit of "+strconv.Itoa(c.l.MaxElements), p)
}

func (c *checker) tooLong(codec string, s string, p *path) error {
	return c.fail(codec, "MaxStringBytes", "a string of "+strconv.Itoa(DecodedLen(s))+" bytes, longer than the limit of "+strconv.Itoa(c.l.MaxStringBytes), p)
}

func (c *checker) tooBig(codec string, p *path) error {
	return c.fail(codec, "MaxMaterializedBytes", "the response would take more than "+strconv.FormatInt(c.l.MaxMaterializedBytes, 10)+" bytes as canonical JSON", p)
}

// strOK reports whether s is within MaxStringBytes, without scanning it
// when even three bytes for each of its bytes would be.
func (c *checker) strOK(s string) bool {
	return len(s) <= c.l.MaxStringBytes/3 || DecodedLen(s) <= c.l.MaxStringBytes
}

// field is a named string field, for checking several in a loop.
type field struct {
	name string
	v    string
}

func (c *checker) fields(codec string, p *path, fs ...field) error {
	for _, f := range fs {
		if !c.strOK(f.v) {
			fp := p.key1(f.name)
			return c.tooLong(codec, f.v, &fp)
		}
	}
	return nil
}

func (c *checker) response(codec string, r *wire.GraphResponse) error {
	// The query type and group kinds are enumerations, short whatever
	// the limit; decoders compare them with their values, not a length.
	if err := c.header(codec, r); err != nil {
		return err
	}
	if err := c.fields(codec, nil, field{"format_version", r.FormatVersion}); err != nil {
		return err
	}
	if pg := r.Pagination; pg != nil && pg.NextCursor.Valid && !c.strOK(pg.NextCursor.V) {
		p := path{key: "pagination"}
		fp := p.key1("next_cursor")
		return c.tooLong(codec, pg.NextCursor.V, &fp)
	}
	p := path{key: "nodes"}
	if len(r.Nodes) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Nodes), &p)
	}
	for i := range r.Nodes {
		n := &r.Nodes[i]
		if c.m.loose {
			if !c.looseNode(n) {
				return errLoose
			}
			continue
		}
		np := p.idx(i)
		if err := c.node(codec, n, &np); err != nil {
			return err
		}
		if !c.m.Node(n) {
			return c.tooBig(codec, &np)
		}
	}
	p = path{key: "edges"}
	if len(r.Edges) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Edges), &p)
	}
	for i := range r.Edges {
		e := &r.Edges[i]
		if c.m.loose {
			if !c.strOK(e.From) || !c.strOK(e.To) || !c.strOK(e.Type) || !c.m.Edge(e) {
				return errLoose
			}
			continue
		}
		ep := p.idx(i)
		if err := c.fields(codec, &ep, field{"from", e.From}, field{"to", e.To}, field{"type", e.Type}); err != nil {
			return err
		}
		if !c.m.Edge(e) {
			return c.tooBig(codec, &ep)
		}
	}
	p = path{key: "columns"}
	if len(r.Columns) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Columns), &p)
	}
	for i := range r.Columns {
		col := &r.Columns[i]
		cp := p.idx(i)
		if err := c.fields(codec, &cp, field{"name", col.Name}, field{"function", col.Function},
			field{"target", col.Target.V}, field{"property", col.Property.V}); err != nil {
			return err
		}
		if !c.m.Column(col) {
			return c.tooBig(codec, &cp)
		}
	}
	p = path{key: "group_columns"}
	if len(r.GroupColumns) > c.l.MaxElements {
		return c.tooMany(codec, len(r.GroupColumns), &p)
	}
	for i := range r.GroupColumns {
		g := &r.GroupColumns[i]
		gp := p.idx(i)
		if err := c.groupKind(codec, g.Kind, &gp); err != nil {
			return err
		}
		if err := c.fields(codec, &gp, field{"name", g.Name}, field{"node", g.Node},
			field{"property", g.Property.V}, field{"entity", g.Entity.V}); err != nil {
			return err
		}
		if !c.m.GroupColumn(g) {
			return c.tooBig(codec, &gp)
		}
	}
	p = path{key: "rows"}
	if len(r.Rows) > c.l.MaxElements {
		return c.tooMany(codec, len(r.Rows), &p)
	}
	for i, row := range r.Rows {
		rp := p.idx(i)
		if len(row) > c.l.MaxElements {
			return c.tooMany(codec, len(row), &rp)
		}
		if err := c.cellNames(codec, row, &rp); err != nil {
			return err
		}
		for j := range row {
			cell := &row[j]
			if !c.strOK(cell.Name) {
				cp := rp.idx(j)
				return c.tooLong(codec, cell.Name, &cp)
			}
			cp := rp.key1(cell.Name)
			if n := cell.Node; n != nil {
				if err := c.node(codec, n, &cp); err != nil {
					return err
				}
			} else if err := c.value(codec, cell.Value, &cp); err != nil {
				return err
			}
			if !c.m.Cell(cell) {
				return c.tooBig(codec, &cp)
			}
		}
		if !c.m.EndRow(len(row)) {
			return c.tooBig(codec, &rp)
		}
	}
	if !c.m.Finish(r) {
		return c.tooBig(codec, nil)
	}
	return nil
}

// node checks the type and the properties of the node at p, an element of
// nodes or a row cell.
func (c *checker) node(codec string, n *wire.Node, p *path) error {
	if err := c.fields(codec, p, field{"type", n.Type}); err != nil {
		return err
	}
	return c.props(codec, n.Properties, p)
}

// props checks the properties of the node at p.
func (c *checker) props(codec string, ps []wire.Property, p *path) error {
	pp := p.key1("properties")
	if len(ps) > c.l.MaxElements {
		return c.tooMany(codec, len(ps), &pp)
	}
	if err := c.propKeys(codec, ps, p); err != nil {
		return err
	}
	for j := range ps {
		pr := &ps[j]
		if !c.strOK(pr.Key) {
			kp := pp.idx(j)
			return c.tooLong(codec, pr.Key, &kp)
		}
		if pr.Value.Kind() == wire.KindString || pr.Value.Kind() == wire.KindList {
			kp := pp.key1(pr.Key)
			if err := c.value(codec, pr.Value, &kp); err != nil {
				return err
			}
		}
	}
	return nil
}

// value checks v at p.
func (c *checker) value(codec string, v wire.Value, p *path) error {
	f := c.value1(v, 0)
	if f == nil {
		return nil
	}
	b := p.append(nil)
	for i := len(f.at) - 1; i >= 0; i-- {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(f.at[i]), 10)
		b = append(b, ']')
	}
	return &wire.EncodeError{Codec: codec, Path: string(b), Msg: f.msg, Limit: f.limit}
}

// valueFail is a failure inside a value: at holds the list indices leading
// to it, innermost first, collected as the walk unwinds.
type valueFail struct {
	limit, msg string
	at         []int
}

// value1 checks v, inside depth lists.
func (c *checker) value1(v wire.Value, depth int) *valueFail {
	switch v.Kind() {
	case wire.KindString:
		if !c.strOK(v.Text()) {
			return &valueFail{limit: "MaxStringBytes", msg: "a string of " + strconv.Itoa(DecodedLen(v.Text())) +
				" bytes, longer than the limit of " + strconv.Itoa(c.l.MaxStringBytes)}
		}
	case wire.KindList:
		depth++
		if depth > c.l.MaxDepth {
			return &valueFail{limit: "MaxDepth", msg: "lists nested more than " + strconv.Itoa(c.l.MaxDepth) + " deep"}
		}
		if len(v.List()) > c.l.MaxElements {
			return &valueFail{limit: "MaxElements", msg: strconv.Itoa(len(v.List())) + " elements, more than the limit of " + strconv.Itoa(c.l.MaxElements)}
		}
		for i, x := range v.List() {
			if x.Kind() != wire.KindString && x.Kind() != wire.KindList {
				continue
			}
			if f := c.value1(x, depth); f != nil {
				f.at = append(f.at, i)
				return f
			}
		}
	}
	return nil
}

// The model's own rules, which every built-in decoder enforces whatever
// the format, and which Check therefore checks for every encoder
// (see Check):
//
//   - the query type is one of QueryTypes;
//   - a group column's kind is GroupByNode or GroupByProperty;
//   - a Pagination follows schema v2 or v5 (Pagination.Check);
//   - no property of a node, or of a row's node reference, is named
//     "type" or "id", and no two properties of one node share a key;
//   - no two cells of one row share a name.
//
// What a single format cannot carry (a NaN in JSON, a type name with a
// space in GOON, a string that is not UTF-8 in msgpack and cbor) is the
// codec's own rule: Validate reaches it through CheckEncode.

// header checks the enumerations and the pagination of r.
func (c *checker) header(codec string, r *wire.GraphResponse) error {
	if !r.QueryType.Valid() {
		return c.fail(codec, "", "invalid query type "+strconv.Quote(string(r.QueryType)), &path{key: "query_type"})
	}
	if pg := r.Pagination; pg != nil {
		if err := pg.Check(); err != nil {
			return c.fail(codec, "", err.Error(), &path{key: "pagination"})
		}
	}
	return nil
}

// groupKind checks the kind of the group column at p.
func (c *checker) groupKind(codec string, k wire.GroupKind, p *path) error {
	if k.Valid() {
		return nil
	}
	kp := p.key1("kind")
	return c.fail(codec, "", "invalid group kind "+strconv.Quote(string(k)), &kp)
}

// propKeys checks the keys of the properties of the node at p: none
// reserved, none twice.
func (c *checker) propKeys(codec string, ps []wire.Property, p *path) error {
	if c.keysPassed(ps) {
		return nil
	}
	for j := range ps {
		if k := ps[j].Key; k == "type" || k == "id" {
			props := p.key1("properties")
			at := props.key1(k)
			return c.fail(codec, "", "property named "+strconv.Quote(k), &at)
		}
	}
	if j := firstRepeat(len(ps), func(i int) string { return ps[i].Key }); j >= 0 {
		props := p.key1("properties")
		at := props.key1(ps[j].Key)
		return c.fail(codec, "", "duplicate property "+strconv.Quote(ps[j].Key), &at)
	}
	c.keysOK[c.keysNext] = ps
	c.keysNext = (c.keysNext + 1) % keySlots
	return nil
}

// keySlots is how many property lists that passed propKeys the checker
// remembers: as many as the node types a response usually interleaves.
const keySlots = 8

// keysPassed reports whether ps has the keys of a property list that
// passed propKeys.
func (c *checker) keysPassed(ps []wire.Property) bool {
	for i := range c.keysOK {
		if SameKeys(ps, c.keysOK[i]) {
			return true
		}
	}
	return false
}

// SameKeys reports whether a and b hold properties of the same keys in
// the same order: whether two nodes can share a table's header (TOON,
// GCF), or a property list can pass the model's check of keys as one
// that passed before.
func SameKeys(a, b []wire.Property) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key {
			return false
		}
	}
	return true
}

// cellNames checks that no two cells of the row at p share a name.
func (c *checker) cellNames(codec string, row wire.Row, p *path) error {
	if sameNames(row, c.cellsOK) {
		return nil
	}
	if j := firstRepeat(len(row), func(i int) string { return row[i].Name }); j >= 0 {
		return c.fail(codec, "", "duplicate cell "+strconv.Quote(row[j].Name), p)
	}
	c.cellsOK = row
	return nil
}

// sameNames reports whether a and b hold cells of the same names in the
// same order.
func sameNames(a, b wire.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// pairwiseKeys is the longest sequence whose repeats Check finds by
// comparing every pair, without allocating.
const pairwiseKeys = 32

// firstRepeat returns the index of the first of n keys that repeats an
// earlier one, or -1.
func firstRepeat(n int, key func(int) string) int {
	if n > pairwiseKeys {
		return keyset.FirstRepeat(n, key)
	}
	return keyset.FirstRepeatPairwise(n, key)
}
