package json_test

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	gojson "encoding/json"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestReferenceCases decodes every reference input and re-encodes it to
// the same bytes. The files are canonical JSON followed by one newline,
// which is whitespace to the decoder and not part of the encoding.
func TestReferenceCases(t *testing.T) {
	cases := testsupport.ReferenceCases(t)
	if len(cases) != 7 {
		t.Errorf("found %d reference cases, want 7", len(cases))
	}
	for _, c := range cases {
		name, b := c.Name+".json", c.JSON
		t.Run(c.Name, func(t *testing.T) {
			canonical, ok := bytes.CutSuffix(b, []byte("\n"))
			if !ok {
				t.Fatalf("%s does not end with one newline", name)
			}
			if bytes.ContainsAny(canonical, "\n\r\t") {
				t.Fatalf("%s holds whitespace before its end", name)
			}
			// Re-encoding gives the same bytes, so decoding them again
			// gives the same response; the file with its newline reads
			// as the same response.
			want := decodeCanonical(t, canonical)
			if r, err := decodeJSON(b); err != nil {
				t.Fatalf("Decode with the newline: %v", err)
			} else if diff := wiretest.Diff(want, r, wire.Exact); diff != "" {
				t.Errorf("the newline changes the response (-without +with):\n%s", diff)
			}

			// The same document indented, with its keys in another order
			// (encoding/json sorts them), decodes to the same response.
			var generic any
			if err := gojson.Unmarshal(canonical, &generic); err != nil {
				t.Fatal(err)
			}
			reordered, err := gojson.MarshalIndent(generic, "", "\t")
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeJSON(reordered)
			if err != nil {
				t.Fatalf("Decode of the reordered, indented document: %v\n%s", err, reordered)
			}
			// Properties and row cells keep the order they are read in, so
			// compare them by name; elsewhere key order carries no meaning.
			sortByName(want)
			sortByName(got)
			if diff := wiretest.Diff(want, got, wire.Exact); diff != "" {
				t.Errorf("reordered document (-canonical +reordered):\n%s", diff)
			}
		})
	}
}

// TestReferenceCasesTruncated cuts every reference input after every byte:
// each prefix is an error with an offset inside the prefix, never a panic
// and never a response.
func TestReferenceCasesTruncated(t *testing.T) {
	for _, c := range testsupport.ReferenceCases(t) {
		b := bytes.TrimSuffix(c.JSON, []byte("\n"))
		for n := 0; n < len(b); n++ {
			checkDecodeFails(t, c.Name+".json cut at "+strconv.Itoa(n), b[:n])
		}
	}
}

// checkDecodeFails decodes data and requires the error of bad input: a
// *wire.DecodeError from the json codec, with an offset within the input,
// no line, a one-line message, and no response.
func checkDecodeFails(t *testing.T, what string, data []byte) *wire.DecodeError {
	t.Helper()
	r, err := decodeJSON(data)
	if err == nil {
		t.Errorf("%s: Decode succeeded, want an error", what)
		return nil
	}
	if r != nil {
		t.Errorf("%s: Decode returned a response with its error", what)
	}
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		t.Errorf("%s: error %T %v is not a *wire.DecodeError", what, err, err)
		return nil
	}
	if de.Codec != "json" || de.Line != 0 || de.Offset < 0 || de.Offset > int64(len(data)) {
		t.Errorf("%s: DecodeError{Codec: %q, Line: %d, Offset: %d} for %d bytes of input", what, de.Codec, de.Line, de.Offset, len(data))
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "json: offset "+strconv.FormatInt(de.Offset, 10)+": ") || strings.ContainsAny(msg, "\n\r") {
		t.Errorf("%s: error text %q is not one line starting with %q", what, msg, "json: offset N: ")
	}
	return de
}

func sortByName(r *wire.GraphResponse) {
	byKey := func(a, b wire.Property) int { return strings.Compare(a.Key, b.Key) }
	for _, n := range r.Nodes {
		slices.SortFunc(n.Properties, byKey)
	}
	for _, row := range r.Rows {
		slices.SortFunc(row, func(a, b wire.Cell) int { return strings.Compare(a.Name, b.Name) })
		for _, c := range row {
			if c.Node != nil {
				slices.SortFunc(c.Node.Properties, byKey)
			}
		}
	}
}
