package json

// The rules of canonical JSON are each written once, in textwire (strings,
// numbers) and in the schema tables below, which the reader checks keys
// against.

// A schema is an object of the response's schema, named what in errors,
// whose keys are among names (at most 8), each at most once, the first
// required of them required.
type schema struct {
	what     string
	names    []string
	labels   []string // how errors name each key's value
	required int
}

func newSchema(what string, required int, names ...string) *schema {
	s := &schema{what: what, names: names, required: required}
	for _, n := range names {
		s.labels = append(s.labels, what+" "+n)
	}
	return s
}

var (
	responseSchema    = newSchema("response", 4, "format_version", "query_type", "nodes", "edges", "columns", "group_columns", "rows", "pagination")
	edgeSchema        = newSchema("edge", 5, "from", "from_id", "to", "to_id", "type", "depth", "path_id", "step")
	columnSchema      = newSchema("column", 2, "name", "function", "target", "property")
	groupColumnSchema = newSchema("group column", 3, "name", "kind", "node", "property", "entity")
	nodeRefSchema     = newSchema("node reference", 3, "type", "id", "properties")
	paginationSchema  = newSchema("pagination", 1, "has_more", "total_rows", "truncated", "next_cursor")
)

func init() { copy(responseSchema.labels, responseSchema.names) } // "query_type", not "response query_type"
