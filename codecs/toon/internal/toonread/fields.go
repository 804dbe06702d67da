package toonread

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
)

// hfield is one name of a header's field list (spec §6), flattened: a
// group's members follow it, up to its end; 24 bytes however deep.
type hfield struct {
	name   string
	end    int32 // index just past the field and, for a group, its members
	parent int32 // index of the group holding the field, -1 at the top
}

// group reports whether f, at index i, is a group.
func (f *hfield) group(i int) bool { return int(f.end) > i+1 }

// countLeaves is the number of values a row of the header holds.
func countLeaves(fields []hfield) int {
	n := 0
	for i := range fields {
		if !fields[i].group(i) {
			n++
		}
	}
	return n
}

// namesBytes is the bytes of the names of fields, nested groups included.
func namesBytes(fields []hfield) int {
	n := 0
	for i := range fields {
		n += len(fields[i].name)
	}
	return n
}

// fieldList gathers a header's fields as they are read. Past presizeAt
// fields it is sized once by the fields left on the line (fieldsAhead);
// in strict mode a repeated name is found as it is read, pairwise among
// the first pairwiseFields, then through a nameIndex by group and name.
type fieldList struct {
	fields []hfield
	sized  bool
	strict bool
	index  nameIndex // strict, past pairwiseFields
}

const (
	presizeAt      = 64
	pairwiseFields = 16
)

// add appends f, which the character at c[j] ends, and reports the index
// of an earlier field of its group with the same name, or -1.
func (fl *fieldList) add(f hfield, c string, j int, delim byte, level int, maxFields int) int {
	if len(fl.fields) == cap(fl.fields) && !fl.sized && len(fl.fields) >= presizeAt {
		n := len(fl.fields) + fieldsAhead(c, j, delim, level, math.MaxInt)
		if maxFields > 0 {
			n = min(n, maxFields)
		}
		if n > cap(fl.fields) {
			grown := make([]hfield, len(fl.fields), n)
			copy(grown, fl.fields)
			fl.fields = grown
			if fl.index.slots != nil {
				fl.index.resize(n)
			}
		}
		fl.sized = true
	}
	k := len(fl.fields)
	if fl.strict {
		if fl.index.slots != nil {
			fields := fl.fields
			if r := fl.index.add(fl.index.hash(f.name, uint64(uint32(f.parent))), k, func(i int) bool {
				return fields[i].parent == f.parent && fields[i].name == f.name
			}); r >= 0 {
				return r
			}
		} else {
			for i := range k {
				if fl.fields[i].parent == f.parent && fl.fields[i].name == f.name {
					return i
				}
			}
		}
	}
	fl.fields = append(fl.fields, f)
	if fl.strict && fl.index.slots == nil && len(fl.fields) > pairwiseFields {
		fl.index.start(cap(fl.fields), len(fl.fields), func(i int) uint64 {
			return fl.index.hash(fl.fields[i].name, uint64(uint32(fl.fields[i].parent)))
		})
	}
	return -1
}

// fieldsAhead returns an upper bound of the fields from c[j] to the
// list's closing brace (level 1 the outermost group), at most limit.
func fieldsAhead(c string, j int, delim byte, level, limit int) int {
	n := 0
	inQuotes := false
	for ; j < len(c) && n < limit; j++ {
		ch := c[j]
		if inQuotes {
			if ch == '\\' {
				j++
			} else if ch == '"' {
				inQuotes = false
			}
			continue
		}
		switch ch {
		case '"':
			inQuotes = true
		case '{':
			n++
			level++
		case '}':
			n++
			level--
			if level == 0 {
				return n
			}
		case delim:
			n++
		}
	}
	return n + 1
}

// fields parses the field list of a header whose '{' is at c[brace]. It
// returns the fields and the index after the '}', or an error message and
// its offset in c.
func (d *decoder) fields(l *textwire.Line, c string, brace int, delim byte) ([]hfield, int, string, int) {
	fl := fieldList{strict: d.strict, fields: make([]hfield, 0, fieldsAhead(c, brace+1, delim, 1, presizeAt))}
	end, msg, moff := d.parseFields(l, c, brace+1, delim, 1, -1, &fl)
	return fl.fields, end, msg, moff
}

// parseFields parses one brace group of c from i (after its '{') into fl,
// parent the group's own field (-1 for the outermost), and returns the
// index after its '}', or an error message and its offset.
func (d *decoder) parseFields(l *textwire.Line, c string, i int, delim byte, level int, parent int32, fl *fieldList) (int, string, int) {
	if level > d.opts.MaxDepth {
		return 0, "field groups nested deeper than " + strconv.Itoa(d.opts.MaxDepth) + " levels", i
	}
	maxFields := 0
	if d.lim.Set {
		maxFields = d.lim.MaxFields + 1
	}
	members := 0
	for {
		start, j := i, i
		for j < len(c) && c[j] != delim && c[j] != '{' && c[j] != '}' {
			if c[j] == '"' {
				if j = closingQuote(c, j); j < 0 {
					j = len(c)
					break
				}
			}
			j++
		}
		tok := c[start:j]
		var name string
		var fOff int
		group := j < len(c) && c[j] == '{'
		if group {
			name = strings.TrimLeft(tok, " ")
			if name == "" {
				return 0, "missing field name before nested field group", j
			}
			if name[len(name)-1] == ' ' {
				return 0, "unexpected whitespace before nested field group", j
			}
			fOff = j - len(name)
		} else {
			var noff int
			name, noff = trimSpacesOff(tok, 0)
			if name == "" {
				return 0, "empty field name in field list", start
			}
			fOff = start + noff
		}
		members++
		if d.lim.Set && members > d.lim.MaxFields {
			d.failLimit(l, d.offsetOf(c)+fOff, "MaxElements", "a field group of more than "+strconv.Itoa(d.lim.MaxFields)+" fields, past the limit of "+strconv.Itoa(d.lim.MaxElements)+" properties or cells")
		}
		k := len(fl.fields)
		if k >= math.MaxInt32-1 {
			return 0, "field list of more than " + strconv.Itoa(math.MaxInt32-2) + " names", fOff
		}
		if r := fl.add(hfield{name: d.fieldName(l, name, fOff, c), end: int32(k + 1), parent: parent}, c, j, delim, level, maxFields); r >= 0 {
			return 0, "duplicate field name " + textwire.Excerpt(fl.fields[r].name) + " in field list", fOff
		}
		if group {
			end, msg, moff := d.parseFields(l, c, j+1, delim, level+1, int32(k), fl)
			if msg != "" {
				return 0, msg, moff
			}
			fl.fields[k].end = int32(len(fl.fields))
			for end < len(c) && c[end] == ' ' {
				end++
			}
			j = end
			if j < len(c) && c[j] != delim && c[j] != '}' {
				return 0, "unexpected content after nested field group", j
			}
		}
		if j >= len(c) {
			return 0, "unmatched brace in field list", len(c)
		}
		if c[j] == '}' {
			return j + 1, "", 0
		}
		i = j + 1 // past the delimiter
	}
}

// fieldName decodes a field name at offset off of c.
func (d *decoder) fieldName(l *textwire.Line, name string, off int, c string) string {
	if name[0] == '"' {
		// c is a substring of d.src; find its offset to report columns.
		return d.quoted(l, name, d.offsetOf(c)+off)
	}
	return name
}

// offsetOf returns the offset in d.src of s, a substring of it.
func (d *decoder) offsetOf(s string) int {
	if len(s) == 0 || len(d.src) == 0 {
		return 0
	}
	return int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(d.src))))
}
