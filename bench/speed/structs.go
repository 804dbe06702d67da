package speed

import (
	"encoding/json"
	"fmt"

	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"
)

// response mirrors the canonical JSON of a wire.GraphResponse as the
// typed structs a Go service would declare for it. Every part whose keys
// are fixed is a struct; a node, and a row, whose keys are its properties
// (or cells) next to "type" and "id", is a map[string]any — the one part
// of a graph response no struct can name in advance. Optional members are
// pointers with omitempty, as the canonical JSON leaves them out.
type response struct {
	FormatVersion string            `json:"format_version"`
	QueryType     string            `json:"query_type"`
	Nodes         []map[string]any  `json:"nodes"`
	Edges         []edge            `json:"edges"`
	Columns       *[]column         `json:"columns,omitempty"`
	GroupColumns  *[]groupColumn    `json:"group_columns,omitempty"`
	Rows          *[]map[string]any `json:"rows,omitempty"`
	Pagination    *pagination       `json:"pagination,omitempty"`
}

type edge struct {
	From   string `json:"from"`
	FromID string `json:"from_id"`
	To     string `json:"to"`
	ToID   string `json:"to_id"`
	Type   string `json:"type"`
	Depth  *int64 `json:"depth,omitempty"`
	PathID *int64 `json:"path_id,omitempty"`
	Step   *int64 `json:"step,omitempty"`
}

type column struct {
	Name     string  `json:"name"`
	Function string  `json:"function"`
	Target   *string `json:"target,omitempty"`
	Property *string `json:"property,omitempty"`
}

type groupColumn struct {
	Name     string  `json:"name"`
	Kind     string  `json:"kind"`
	Node     string  `json:"node"`
	Property *string `json:"property,omitempty"`
	Entity   *string `json:"entity,omitempty"`
}

type pagination struct {
	HasMore    bool    `json:"has_more"`
	TotalRows  *int64  `json:"total_rows,omitempty"`
	Truncated  *bool   `json:"truncated,omitempty"`
	NextCursor *string `json:"next_cursor,omitempty"`
}

// A jsonLib is a JSON library measured on the typed structs (or, for the
// generic baseline, on map[string]any).
type jsonLib struct {
	name      string
	marshal   func(v any) ([]byte, error)
	unmarshal func(data []byte, v any) error
	generic   bool // decode into any, not into response
}

// The JSON rows of the report, besides the codecs. The reference is
// encoding/json on the typed structs; each library is used with its
// default configuration, as a user who picks it for speed would.
const (
	// Reference: encoding/json on the typed structs.
	Reference = "encoding/json"
	// ReferenceGeneric: encoding/json on a generic map[string]any.
	ReferenceGeneric = "encoding/json-any"
	// GoJSON: github.com/goccy/go-json on the typed structs.
	GoJSON = "goccy/go-json"
	// Sonic: github.com/bytedance/sonic (sonic.ConfigDefault) on the typed
	// structs.
	Sonic = "bytedance/sonic"
)

var jsonLibs = []jsonLib{
	{name: Reference, marshal: json.Marshal, unmarshal: json.Unmarshal},
	{name: ReferenceGeneric, marshal: json.Marshal, unmarshal: json.Unmarshal, generic: true},
	{name: GoJSON, marshal: gojson.Marshal, unmarshal: gojson.Unmarshal},
	{name: Sonic, marshal: sonic.Marshal, unmarshal: sonic.Unmarshal},
}

// value decodes canonical JSON into the value lib encodes: the typed
// structs, or a generic value.
func (lib jsonLib) value(canonical []byte) (any, error) {
	if lib.generic {
		var v any
		err := json.Unmarshal(canonical, &v)
		return v, err
	}
	var r response
	if err := json.Unmarshal(canonical, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// subject binds lib to one case's canonical JSON.
func (lib jsonLib) subject(canonical []byte) (subject, error) {
	v, err := lib.value(canonical)
	if err != nil {
		return subject{}, fmt.Errorf("%s cannot read the canonical JSON: %w", lib.name, err)
	}
	return subject{
		name:   lib.name,
		encode: func() ([]byte, error) { return lib.marshal(v) },
		decode: func(data []byte) error {
			if lib.generic {
				var x any
				return lib.unmarshal(data, &x)
			}
			var r response
			return lib.unmarshal(data, &r)
		},
	}, nil
}
