package wirecodec

import (
	"strconv"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
)

// Path names a place in a GraphResponse, in the one syntax every built-in
// encoder's *EncodeError uses for its Path field, so that the same place
// reads the same whichever codec refuses it (the Path example builds each
// of these):
//
//	nodes[3]                      the fourth node
//	nodes[3].type                 a field, by its canonical JSON name
//	nodes[3].properties.score     a property, by its key
//	nodes[3].properties.tags[1]   an element of a list value
//	nodes[3].properties["a b"]    a key that is not a plain name, quoted
//	nodes[3].properties[5]        a key that cannot be shown, by position
//	rows[0].avg                   a row cell, by its name
//	rows[0].g.properties.name     a property of the node a cell holds
//	group_columns[1].kind         a field of a group column
//	pagination.next_cursor        a field of the pagination
//
// Fields are the names canonical JSON writes (format_version, from_id,
// group_columns), and a node's properties are always under "properties",
// as a row cell's node writes them. A key (a property key or a cell name)
// of at most MaxPathKeyBytes bytes is written after a dot when it is a
// plain name: one or more ASCII letters, digits and '_'. Any other such
// key of valid UTF-8 is written in brackets as a JSON string; a longer
// key, or one that is not valid UTF-8, is written as its position in the
// node's properties or the row's cells, so that an error never quotes
// more than a short excerpt of the response.
//
// The zero Path is the whole response; its String is "". A Path is a
// value: each method returns a longer Path and leaves p as it was, so a
// walk may keep the path of a parent and extend it for each child.
// Encoders build one only when they fail.
type Path struct{ s string }

// MaxPathKeyBytes is the length past which a Path names a key by its
// position rather than by its text.
const MaxPathKeyBytes = 64

// NodePath is the path of the i-th node (from 0): nodes[i].
func NodePath(i int) Path { return Path{}.Field("nodes").Index(i) }

// EdgePath is the path of the i-th edge: edges[i].
func EdgePath(i int) Path { return Path{}.Field("edges").Index(i) }

// ColumnPath is the path of the i-th aggregation metric column: columns[i].
func ColumnPath(i int) Path { return Path{}.Field("columns").Index(i) }

// GroupColumnPath is the path of the i-th group column: group_columns[i].
func GroupColumnPath(i int) Path { return Path{}.Field("group_columns").Index(i) }

// RowPath is the path of the i-th aggregation row: rows[i].
func RowPath(i int) Path { return Path{}.Field("rows").Index(i) }

// Field returns the path of the field named name inside p. name is a
// canonical JSON field name, written as it is.
func (p Path) Field(name string) Path {
	if p.s == "" {
		return Path{name}
	}
	return Path{p.s + "." + name}
}

// Index returns the path of the i-th element (from 0) of the list at p.
func (p Path) Index(i int) Path { return Path{p.s + "[" + strconv.Itoa(i) + "]"} }

// Key returns the path of the member keyed key at p, the i-th of its
// members: a row cell (p a row) or a property (p a node's properties).
// The key is written as the type's documentation says: .key, ["key"],
// or [i] when the key cannot be shown.
func (p Path) Key(i int, key string) Path {
	switch {
	case len(key) > MaxPathKeyBytes:
		return p.Index(i)
	case plainName(key):
		return p.Field(key)
	case utf8.ValidString(key):
		return Path{string(textwire.JSON.AppendQuoted(append([]byte(p.s), '['), key)) + "]"}
	default:
		return p.Index(i)
	}
}

// Property returns the path of the i-th property of the node at p, keyed
// key: p.properties.key.
func (p Path) Property(i int, key string) Path { return p.Field("properties").Key(i, key) }

// String returns the path as an *EncodeError's Path holds it.
func (p Path) String() string { return p.s }

// plainName reports whether s is written after a dot: one or more ASCII
// letters, digits and '_'.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}
