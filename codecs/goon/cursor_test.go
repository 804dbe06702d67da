package goon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
)

// next_cursor is a string under MaxStringBytes like any other, bare or
// quoted (measured unescaped), and counts toward MaxMaterializedBytes.
func TestDecodeCursorLimit(t *testing.T) {
	const limit = 64
	c, err := goon.New(goon.Options{Limits: wire.Limits{MaxStringBytes: limit}})
	if err != nil {
		t.Fatal(err)
	}
	input := func(cursor string) []byte {
		return []byte(doc(cat(head("search", "0", "0"), lines("has_more:true", "next_cursor:"+cursor, "@nodes", "@edges"))...))
	}
	for _, tc := range []struct{ name, text, want string }{
		{"bare", strings.Repeat("a", limit), strings.Repeat("a", limit)},
		{"quoted", `"` + strings.Repeat("a", limit-2) + `\"b"`, strings.Repeat("a", limit-2) + `"b`},
	} {
		r, err := c.Decode(input(tc.text))
		if err != nil {
			t.Fatalf("%s cursor of %d bytes: %v", tc.name, limit, err)
		}
		if r.Pagination == nil || r.Pagination.NextCursor != wire.SomeString(tc.want) {
			t.Fatalf("%s cursor of %d bytes read as %+v", tc.name, limit, r.Pagination)
		}
	}
	for _, tc := range []struct{ name, text string }{
		{"bare", strings.Repeat("a", limit+1)},
		{"quoted", `"` + strings.Repeat("a", limit-1) + `\"b"`},
	} {
		_, err := c.Decode(input(tc.text))
		want := "goon: line 7: next_cursor of 65 bytes is longer than the limit of 64"
		var de *wire.DecodeError
		if err == nil || err.Error() != want || !errors.As(err, &de) || de.Limit != "MaxStringBytes" {
			t.Errorf("%s cursor of %d bytes: error %v, want %s (Limit MaxStringBytes)", tc.name, limit+1, err, want)
		}
	}
	// Within the string limit, the cursor still counts in the response's
	// materialised size.
	long := strings.Repeat("c", 4000)
	if _, err := goon.Decode(input(long)); err != nil {
		t.Fatalf("default limits: %v", err)
	}
	tight, err := goon.New(goon.Options{Limits: wire.Limits{MaxMaterializedBytes: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	var de *wire.DecodeError
	if _, err := tight.Decode(input(long)); !errors.As(err, &de) || de.Limit != "MaxMaterializedBytes" {
		t.Errorf("a 4000-byte cursor under MaxMaterializedBytes 2000: %v", err)
	}
}
