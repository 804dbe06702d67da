package json_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/testsupport"
)

// GKG's published response schemas sit beside its cases: the v2 schema in
// the directory above GOON_REFERENCE_DIR, the v5 one above
// GOON_CURRENT_DIR.
const (
	schemaV2File = "query_response.v2.schema.json"
	schemaV5File = "query_response.v5.schema.json"
)

// compileSchema compiles the JSON Schema (draft 2020-12) in file.
func compileSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	url := "file:///" + filepath.Base(file)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

func schemaV2(t *testing.T) *jsonschema.Schema {
	return compileSchema(t, filepath.Join(testsupport.Dir(t, testsupport.ReferenceEnv), "..", schemaV2File))
}

func schemaV5(t *testing.T) *jsonschema.Schema {
	return compileSchema(t, filepath.Join(testsupport.Dir(t, testsupport.CurrentEnv), "..", schemaV5File))
}

// validate reports the schema's verdict on the JSON text data.
func validate(t *testing.T, s *jsonschema.Schema, data []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return s.Validate(inst)
}

// TestCurrentInputsMatchSchemaV5: every input of GKG's current cases is a
// valid schema v5 response, and so is its canonical JSON.
func TestCurrentInputsMatchSchemaV5(t *testing.T) {
	s := schemaV5(t)
	cases := testsupport.CurrentCases(t)
	for _, c := range validCases(t, s, cases) {
		r, err := decodeJSON(c.JSON)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out, err := encodeJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(t, s, out); err != nil {
			t.Errorf("%s: canonical JSON: %v", c.Name, err)
		}
	}
	t.Logf("%d current inputs valid under schema v5", len(cases))
}

// TestReferenceInputsMatchSchemaV2: every input of the GOON 1.0.0
// reference cases is a valid schema v2 response.
func TestReferenceInputsMatchSchemaV2(t *testing.T) {
	cases := validCases(t, schemaV2(t), testsupport.ReferenceCases(t))
	t.Logf("%d reference inputs valid under schema v2", len(cases))
}

// TestCorpusV5MatchesSchemaV5: the canonical JSON of every corpus case
// whose pagination has truncated (schema v5's) is a valid v5 response.
func TestCorpusV5MatchesSchemaV5(t *testing.T) {
	s := schemaV5(t)
	cases, err := corpus.Load(filepath.Join("..", "..", corpus.Dir))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if c.Response.Pagination == nil || !c.Response.Pagination.Truncated.Valid {
			continue
		}
		n++
		out, err := encodeJSON(c.Response)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if err := validate(t, s, out); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	if n == 0 {
		t.Fatalf("none of the %d corpus cases has a schema v5 pagination", len(cases))
	}
	t.Logf("%d of %d corpus cases have a v5 pagination, all valid under schema v5", n, len(cases))
}

// TestPaginationAcceptedIffSchema: the decoder accepts a pagination object
// exactly when schema v2 or schema v5 accepts it, and reads it as the
// schema it matches (wire.Pagination.Schema). The schemas, not the
// decoder, decide here.
func TestPaginationAcceptedIffSchema(t *testing.T) {
	v2, v5 := schemaV2(t), schemaV5(t)
	objects := []string{
		`{"has_more":true,"total_rows":5}`,
		`{"has_more":false,"total_rows":0}`,
		`{"has_more":true,"truncated":true,"next_cursor":"eyJo"}`,
		`{"has_more":false,"truncated":false}`,
		`{"has_more":true,"truncated":false,"next_cursor":""}`,
		`{"next_cursor":"c","truncated":true,"has_more":true}`,
		`{"has_more":true}`,
		`{"total_rows":5}`,
		`{"truncated":true}`,
		`{"has_more":true,"next_cursor":"c"}`,
		`{"has_more":true,"total_rows":5,"truncated":true}`,
		`{"has_more":true,"total_rows":5,"next_cursor":"c"}`,
		`{"has_more":true,"total_rows":5,"truncated":false,"next_cursor":"c"}`,
		`{"has_more":true,"truncated":true,"next_cursor":null}`,
		`{"has_more":true,"truncated":"yes"}`,
		`{"has_more":true,"truncated":true,"page":2}`,
		`{}`,
	}
	for _, o := range objects {
		doc := []byte(`{"format_version":"5.0.1","query_type":"traversal","nodes":[],"edges":[],"pagination":` + o + `}`)
		inV2, inV5 := validate(t, v2, doc) == nil, validate(t, v5, doc) == nil
		r, err := decodeJSON(doc)
		if (err == nil) != (inV2 || inV5) {
			t.Errorf("%s: schema v2 %v, schema v5 %v, but Decode error %v", o, inV2, inV5, err)
			continue
		}
		if err != nil {
			continue
		}
		want := 2
		if inV5 {
			want = 5
		}
		if got := r.Pagination.Schema(); got != want {
			t.Errorf("%s: read as %v, the schemas say %v", o, got, want)
		}
	}
}

// TestSchemasTellPaginationsApart checks the check: each schema refuses
// the other's pagination, so the tests above would catch a wrong shape.
func TestSchemasTellPaginationsApart(t *testing.T) {
	v2, v5 := schemaV2(t), schemaV5(t)
	const head = `{"format_version":"5.0.1","query_type":"traversal","nodes":[],"edges":[],"pagination":`
	p2, p5 := head+`{"has_more":true,"total_rows":5}}`, head+`{"has_more":true,"truncated":false}}`
	if err := validate(t, v5, []byte(p2)); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("schema v5 on a v2 pagination: %v", err)
	}
	if err := validate(t, v2, []byte(p5)); err == nil || !strings.Contains(err.Error(), "total_rows") {
		t.Errorf("schema v2 on a v5 pagination: %v", err)
	}
}

// validCases checks that the input of each case is valid under s, and
// returns the cases.
func validCases(t *testing.T, s *jsonschema.Schema, cases []testsupport.Case) []testsupport.Case {
	t.Helper()
	for _, c := range cases {
		if err := validate(t, s, c.JSON); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	return cases
}
