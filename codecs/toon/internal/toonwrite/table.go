package toonwrite

import (
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// Field is one entry of a tabular header's field list.
type Field struct {
	Name     string
	Children []Field // nil for a leaf field
}

// lookup returns the value of key in o, trying position hint first.
func lookup(o *jsonvalue.Object, key string, hint int) (jsonvalue.Value, bool) {
	if hint < len(o.Members) {
		m := &o.Members[hint]
		if len(m.Key) == len(key) && (unsafe.StringData(m.Key) == unsafe.StringData(key) || m.Key == key) {
			return m.Value, true
		}
	}
	for i := range o.Members {
		if o.Members[i].Key == key {
			return o.Members[i].Value, true
		}
	}
	return nil, false
}

// Column classes for tabular detection.
const (
	colPrimitive = 1 << iota
	colObject    // a non-empty object
	colOther     // an array, an empty object, or an unsupported value
)

func classify(v jsonvalue.Value) uint8 {
	switch x := v.(type) {
	case nil, bool, string, jsonvalue.Number, int, int64, float64:
		return colPrimitive
	case *jsonvalue.Object:
		switch {
		case x == nil:
			return colPrimitive
		case len(x.Members) > 0:
			return colObject
		}
	}
	return colOther
}

// Tabular reports whether rows are written as a table (spec §9.3, nested
// objects as field groups).
func Tabular(rows []*jsonvalue.Object) bool {
	var e Writer
	return e.tabularFields(rows) != nil
}

// tabularFields returns the field list under which rows encode in tabular
// form (spec §9.3), or nil when they do not qualify.
func (e *Writer) tabularFields(rows []*jsonvalue.Object) []Field {
	if len(rows) == 0 {
		return nil
	}
	first := rows[0].Members
	if len(first) == 0 || !e.checkKeys(rows[0]) {
		return nil
	}
	var kindBuf [32]uint8
	var kinds []uint8
	if len(first) <= len(kindBuf) {
		kinds = kindBuf[:len(first)]
	} else {
		kinds = make([]uint8, len(first))
	}
	// The first row's keys in every row; each column all primitives or
	// all non-empty objects.
	for _, r := range rows {
		if len(r.Members) != len(first) {
			return nil
		}
		for i := range first {
			v, ok := lookup(r, first[i].Key, i)
			if !ok {
				return nil
			}
			k := kinds[i] | classify(v)
			if k != colPrimitive && k != colObject {
				return nil
			}
			kinds[i] = k
		}
	}
	fields := make([]Field, len(first))
	var sub []*jsonvalue.Object
	for i := range first {
		key := first[i].Key
		fields[i].Name = key
		if kinds[i] == colPrimitive {
			continue
		}
		if !e.Enter() {
			return nil
		}
		if sub == nil {
			sub = make([]*jsonvalue.Object, 0, len(rows))
		}
		sub = sub[:0]
		for _, r := range rows {
			v, _ := lookup(r, key, i)
			sub = append(sub, v.(*jsonvalue.Object))
		}
		children := e.tabularFields(sub)
		e.Leave()
		if children == nil {
			return nil
		}
		fields[i].Children = children
	}
	return fields
}

// keyedFields returns the field list under which o encodes in keyed tabular
// form (spec §9.5), or nil when it does not qualify.
func (e *Writer) keyedFields(o *jsonvalue.Object) []Field {
	if len(o.Members) < 2 {
		return nil
	}
	for _, m := range o.Members {
		if x, ok := m.Value.(*jsonvalue.Object); !ok || x == nil || len(x.Members) == 0 {
			return nil
		}
	}
	rows := make([]*jsonvalue.Object, len(o.Members))
	for i, m := range o.Members {
		rows[i] = m.Value.(*jsonvalue.Object)
	}
	return e.tabularFields(rows)
}

// cells appends the leaf values of row in field order, joined by the
// delimiter.
func (e *Writer) cells(row *jsonvalue.Object, fields []Field, n int) int {
	for i, f := range fields {
		v, _ := lookup(row, f.Name, i)
		if f.Children != nil {
			n = e.cells(v.(*jsonvalue.Object), f.Children, n)
			continue
		}
		if n > 0 {
			e.Buf = append(e.Buf, e.delim)
		}
		e.Primitive(v)
		n++
	}
	return n
}

// keyedObject writes o in keyed tabular form as a field named *key (or at
// the root when key is nil).
func (e *Writer) keyedObject(key *string, o *jsonvalue.Object, fields []Field, depth int) {
	e.Line(depth)
	e.Header(key, len(o.Members), fields, true)
	for _, m := range o.Members {
		e.Line(depth + 1)
		e.Buf = AppendKey(e.Buf, m.Key)
		e.Buf = append(e.Buf, ':', ' ')
		e.cells(m.Value.(*jsonvalue.Object), fields, 0)
	}
}
