package gcfvalue

import (
	"iter"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// column is one column of a table: a plain field, or a leaf of a flattened
// nested object (spec §7.4.6) whose path below field is path.
type column struct {
	name  string   // the declared name: field, or field>k1>k2
	field string   // the row member it reads
	path  []string // keys below field to the leaf; nil for a plain column
}

// tablePlan is the header of a table: its columns, and the fields whose
// names contain '>' and so travel as bare per-row attachments (spec
// §7.4.6.1 rule 4).
type tablePlan struct {
	cols     []column
	gtFields []string
}

// sharedSchema is the shared array schema of one field of one table (spec
// §7.4.5.3): the field declaration its first tabular attachment wrote.
type sharedSchema struct {
	set  bool
	decl string
}

// union returns the ordered field union of rows (spec §7.4.3), starting
// with initial.
func union(rows []*jsonvalue.Object, initial []string) []string {
	var names []string
	seen := make(map[string]struct{})
	add := func(k string) {
		if _, ok := seen[k]; !ok {
			seen[k] = struct{}{}
			names = append(names, k)
		}
	}
	for _, k := range initial {
		add(k)
	}
	for _, r := range rows {
		for i := range r.Members {
			add(r.Members[i].Key)
		}
	}
	return names
}

// plan computes the columns of a table of rows.
func (e *encoder) plan(rows []*jsonvalue.Object, initial []string) tablePlan {
	var p tablePlan
	for _, f := range union(rows, initial) {
		if strings.Contains(f, ">") {
			p.gtFields = append(p.gtFields, f)
			continue
		}
		if paths := flattenPaths(rows, f); paths != nil {
			for _, path := range paths {
				p.cols = append(p.cols, column{name: f + ">" + strings.Join(path, ">"), field: f, path: path})
			}
			continue
		}
		p.cols = append(p.cols, column{name: f, field: f})
	}
	e.checkCount("a table", len(p.cols), "columns", e.lim.maxFields)
	return p
}

// flattenPaths returns the leaf paths of field f when every present,
// non-null value of f among rows is an object that can be flattened into
// path columns without loss (spec §7.4.6.1), or nil. Beyond the spec's
// rules (same ordered keys, scalar leaves, no empty or '>' key, no null
// intermediate object), a field is not flattened when some object or
// nested object in it has only null leaves or no members: its cells would
// all be "-" (or none), which decode as null, not as that object.
func flattenPaths(rows []*jsonvalue.Object, f string) [][]string {
	if f == "" {
		return nil
	}
	var objs []*jsonvalue.Object
	for _, r := range rows {
		v, ok := r.Get(f)
		if !ok || isNull(v) {
			continue
		}
		o, ok := asObject(v)
		if !ok {
			return nil
		}
		objs = append(objs, o)
	}
	if len(objs) == 0 {
		return nil
	}
	return shapePaths(objs)
}

func isNull(v Value) bool {
	if v == nil {
		return true
	}
	o, ok := v.(*jsonvalue.Object)
	return ok && o == nil
}

// shapePaths returns the leaf paths shared by objs, or nil.
func shapePaths(objs []*jsonvalue.Object) [][]string {
	first := objs[0]
	if len(first.Members) == 0 {
		return nil
	}
	for _, o := range objs[1:] {
		if len(o.Members) != len(first.Members) {
			return nil
		}
		for i := range o.Members {
			if o.Members[i].Key != first.Members[i].Key {
				return nil
			}
		}
	}
	for _, o := range objs {
		if allLeavesNull(o) {
			return nil
		}
	}
	var paths [][]string
	for i := range first.Members {
		k := first.Members[i].Key
		if k == "" || strings.Contains(k, ">") {
			return nil
		}
		if isScalar(first.Members[i].Value) {
			for _, o := range objs[1:] {
				if !isScalar(o.Members[i].Value) {
					return nil
				}
			}
			paths = append(paths, []string{k})
			continue
		}
		subs := make([]*jsonvalue.Object, len(objs))
		for j, o := range objs {
			s, ok := asObject(o.Members[i].Value)
			if !ok {
				return nil
			}
			subs[j] = s
		}
		sub := shapePaths(subs)
		if sub == nil {
			return nil
		}
		for _, p := range sub {
			paths = append(paths, append([]string{k}, p...))
		}
	}
	return paths
}

// allLeavesNull reports whether every leaf of o, through nested objects,
// is null.
func allLeavesNull(o *jsonvalue.Object) bool {
	for i := range o.Members {
		v := o.Members[i].Value
		if sub, ok := asObject(v); ok {
			if !allLeavesNull(sub) {
				return false
			}
			continue
		}
		if !isNull(v) {
			return false
		}
	}
	return true
}

// keyedEligible reports whether o is written as a keyed table (spec
// §7.2a.1): two members or more, every value an object, and at least one
// value field that can be a column (a name without '>').
func keyedEligible(o *jsonvalue.Object) bool {
	if len(o.Members) < 2 {
		return false
	}
	column := false
	for i := range o.Members {
		v, ok := asObject(o.Members[i].Value)
		if !ok {
			return false
		}
		for j := range v.Members {
			if !strings.Contains(v.Members[j].Key, ">") {
				column = true
			}
		}
	}
	return column
}

// keyLabel is the label of the key column: "key", with '_' prepended
// until no value field has that name (spec §7.2a.2).
func keyLabel(rows []*jsonvalue.Object) string {
	label := "key"
	for {
		clash := false
		for _, r := range rows {
			if _, ok := r.Get(label); ok {
				clash = true
				break
			}
		}
		if !clash {
			return label
		}
		label = "_" + label
	}
}

// keyedBody writes "[N:]{label,...}" and the rows of the keyed table of o
// at rowDepth.
func (e *encoder) keyedBody(o *jsonvalue.Object, rowDepth int) {
	rows := make([]*jsonvalue.Object, len(o.Members))
	keys := make([]string, len(o.Members))
	for i := range o.Members {
		rows[i], _ = asObject(o.Members[i].Value)
		keys[i] = o.Members[i].Key
	}
	e.table(e.plan(rows, nil), rows, keys, rowDepth, nil)
}

// table writes, after a header prefix, "[N]{decl}" ("[N:]" with keys, for
// a keyed table) and the rows at rowDepth. With shared (an array
// attachment), the declaration is left out when it repeats the field's
// shared schema, and establishes the schema when there is none.
func (e *encoder) table(p tablePlan, rows []*jsonvalue.Object, keys []string, rowDepth int, shared *sharedSchema) {
	mark := ""
	if e.depth == 2 {
		mark = e.mark
	}
	var decl []byte
	if keys != nil {
		decl = AppendKey(decl, keyLabel(rows))
	}
	for i, c := range p.cols {
		if i > 0 || keys != nil {
			decl = append(decl, ',')
		}
		if mark != "" && c.path == nil && c.field == mark {
			decl = append(decl, '@')
		}
		decl = AppendKey(decl, c.name)
	}
	e.buf = append(e.buf, '[')
	e.buf = strconv.AppendInt(e.buf, int64(len(rows)), 10)
	if keys != nil {
		e.buf = append(e.buf, ':')
	}
	e.buf = append(e.buf, ']')
	if shared == nil || !shared.set || shared.decl != string(decl) {
		if shared != nil && !shared.set {
			shared.set, shared.decl = true, string(decl)
		}
		e.buf = append(e.buf, '{')
		e.buf = append(e.buf, decl...)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, '\n')
	schemas := make(map[string]*sharedSchema)
	for i, r := range rows {
		e.pushIndex(i)
		if keys != nil {
			e.path[len(e.path)-1] = "[" + strconv.Quote(keys[i]) + "]"
		}
		e.enter()
		e.checkObject(r, e.lim.maxFields)
		e.row(p, r, i, keys, rowDepth, schemas)
		e.leave()
		e.pop()
	}
}

// row writes one row of a table and its attachments.
func (e *encoder) row(p tablePlan, r *jsonvalue.Object, i int, keys []string, depth int, schemas map[string]*sharedSchema) {
	e.indent(depth)
	for range p.attachments(r) {
		e.buf = append(e.buf, '@')
		e.buf = strconv.AppendInt(e.buf, int64(i), 10)
		e.buf = append(e.buf, ' ')
		break
	}
	if keys != nil {
		e.str(keys[i])
	}
	for j, c := range p.cols {
		if j > 0 || keys != nil {
			e.buf = append(e.buf, '|')
		}
		v, ok := r.Get(c.field)
		switch {
		case !ok:
			e.buf = append(e.buf, '~')
		case c.path != nil && isNull(v):
			e.buf = append(e.buf, '-')
		case c.path == nil && !isScalar(v):
			e.buf = append(e.buf, '^')
		default:
			for _, k := range c.path {
				o, _ := asObject(v)
				v, _ = o.Get(k)
			}
			e.pushKey(c.field)
			e.scalar(v)
			e.pop()
		}
	}
	e.buf = append(e.buf, '\n')
	for f, v := range p.attachments(r) {
		s := schemas[f]
		if s == nil {
			s = &sharedSchema{}
			schemas[f] = s
		}
		e.pushKey(f)
		e.indent(depth)
		e.buf = append(e.buf, '.')
		e.key(f)
		e.buf = append(e.buf, ' ')
		e.headed(e.normalize(v), depth+2, s)
		e.pop()
	}
}

// attachments yields the members of r written as attachments after its
// row (spec §7.4.5): the nested values of its plain columns, then its
// fields whose names hold '>', scalars included; bodies go two levels
// beneath the row.
func (p tablePlan) attachments(r *jsonvalue.Object) iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		for _, c := range p.cols {
			if v, ok := r.Get(c.field); ok && c.path == nil && !isScalar(v) && !yield(c.field, v) {
				return
			}
		}
		for _, f := range p.gtFields {
			if v, ok := r.Get(f); ok && !yield(f, v) {
				return
			}
		}
	}
}
