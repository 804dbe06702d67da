package json_test

import (
	"errors"
	"strings"
	"testing"

	gojson "encoding/json"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// FuzzDecode: invalid input gives a one-line *wire.DecodeError with an
// offset inside the input and no response; valid input is valid JSON and
// round-trips (decode→encode→decode equal, the encoding a fixed point).
// The seed corpus is testdata/fuzz/FuzzDecode plus the seeds added here.
func FuzzDecode(f *testing.F) {
	doc := func(nodes string) string {
		return `{"format_version":"1.2.0","query_type":"traversal","nodes":[` + nodes + `],"edges":[]}`
	}
	for i := range 4 {
		b, err := json.Encode(wiretest.Response().Example(i))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format_version":"5.0.1","query_type":"traversal","nodes":[],"edges":[],"pagination":{"has_more":true,"truncated":true,"next_cursor":"a \"b\"\n\u0001"}}`))
	f.Add([]byte(`{"format_version":"5.0.1","query_type":"traversal","nodes":[],"edges":[],"pagination":{"has_more":true,"total_rows":3,"truncated":false}}`))
	f.Add([]byte(doc(`{"type":"T","id":"9007199254740993","n":9007199254740993,"f":-0.0,"l":[1e21,5e-324,[[]]]}`)))
	f.Add([]byte(`{"format_version":"1.2.0","query_type":"path_finding","nodes":[],"edges":[{"from":"A","from_id":"-9223372036854775808","to":"B","to_id":"9223372036854775807","type":"R","depth":1,"path_id":0,"step":2}]}`))
	f.Add([]byte(`{"format_version":"1.2.0","query_type":"aggregation","nodes":[],"edges":[],"columns":[],"group_columns":[],"rows":[{"u":{"type":"U","id":"1","properties":{"\u00e9\ud83d\ude00":"\ud800"}}}]}`))
	f.Add([]byte(" {\"nodes\":[],\"edges\":[],\"query_type\":\"search\",\"format_version\":\"\\\"\"} \n"))
	f.Add([]byte(doc(`{"type":"T","id":"1","a":[[[[[[[[1]]]]]]]]}`)))
	f.Add([]byte(doc(`{"type":"T","id":"1","s":"a\xffb\u0000"}`)))
	f.Add([]byte(`{"format_version":"1.2.0","extra":1}`))
	f.Add([]byte(doc(`{"type":"T","id":"x1"}`)))
	f.Add([]byte(doc(`{"type":"T","id":"1","n":9223372036854775808}`)))
	f.Add([]byte(`[`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := json.Decode(data)
		if err != nil {
			if r != nil {
				t.Fatalf("Decode returned a response with its error %v", err)
			}
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *wire.DecodeError", err, err)
			}
			if de.Codec != "json" || de.Line != 0 || de.Offset < 0 || de.Offset > int64(len(data)) {
				t.Fatalf("DecodeError{Codec: %q, Line: %d, Offset: %d} for %d bytes", de.Codec, de.Line, de.Offset, len(data))
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "json: offset ") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error text %q is not one line starting with \"json: offset \"", msg)
			}
			return
		}
		if !gojson.Valid(data) {
			t.Fatalf("Decode accepted input encoding/json rejects: %q", data)
		}
		// decode→encode→decode gives the same response, and the
		// encoding is a fixed point.
		if err := wiretest.RoundTrip(json.Default(), wire.Exact, r); err != nil {
			t.Fatal(err)
		}
	})
}
