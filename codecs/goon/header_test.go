package goon_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

func paginated(p wire.Pagination) *wire.GraphResponse {
	r := resp(wire.Traversal, nodes(node("MR", 1, P("iid", I(42)))))
	r.Pagination = &p
	return r
}

// TestPaginationHeader: after edges:, has_more:true when true, total_rows
// when present, truncated:true when true, next_cursor when present, bare
// when the value rule allows and quoted otherwise.
func TestPaginationHeader(t *testing.T) {
	v5 := func(hasMore, truncated bool, cursor ...string) wire.Pagination {
		p := wire.Pagination{HasMore: hasMore, Truncated: wire.Some(truncated)}
		if len(cursor) > 0 {
			p.NextCursor = wire.Some(cursor[0])
		}
		return p
	}
	tests := []struct {
		name string
		p    wire.Pagination
		want []string
	}{
		{"v2", wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](100)}, lines("has_more:true", "total_rows:100")},
		{"v2 last page", wire.Pagination{TotalRows: wire.Some[int64](0)}, lines("total_rows:0")},
		{"v5 as GKG writes it", v5(true, true, "eyJoIjoiYWQyMTczMWM5MTZm"), lines("has_more:true", "truncated:true", "next_cursor:eyJoIjoiYWQyMTczMWM5MTZm")},
		{"v5 more, not truncated", v5(true, false, "abc-_.:/@+"), lines("has_more:true", "next_cursor:abc-_.:/@+")},
		{"base64 padding is quoted", v5(true, false, "abc="), lines("has_more:true", `next_cursor:"abc="`)},
		{"v5 exhausted", v5(false, false), nil},
		{"v5 truncated only", v5(false, true), lines("truncated:true")},
		{"cursor with a space", v5(true, false, "a b"), lines("has_more:true", `next_cursor:"a b"`)},
		{"cursor with quotes and a backslash", v5(true, false, `say "hi" \o/`), lines("has_more:true", `next_cursor:"say \"hi\" \\o/"`)},
		{"cursor with line breaks", v5(true, false, "one\ntwo\r\tthree"), lines("has_more:true", `next_cursor:"one\ntwo\r\tthree"`)},
		{"cursor in unicode", v5(true, false, "日本☃"), lines("has_more:true", `next_cursor:"日本☃"`)},
		{"cursor with control characters", v5(true, false, "a\x00b\x7f"), lines("has_more:true", `next_cursor:"ab"`)},
		{"empty cursor", v5(true, false, ""), lines("has_more:true", `next_cursor:""`)},
		{"keyword cursor", v5(true, false, "null"), lines("has_more:true", `next_cursor:"null"`)},
		{"numeric cursor", v5(true, false, "42"), lines("has_more:true", "next_cursor:42")},
		{"datetime cursor", v5(true, false, "2026-05-08 14:47:05"), lines("has_more:true", `next_cursor:"2026-05-08 14:47:05"`)},
		{"long cursor is not truncated", v5(true, false, strings.Repeat("A", 1500)), lines("has_more:true", "next_cursor:"+strings.Repeat("A", 1500))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := goon.Encode(paginated(tc.p))
			if err != nil {
				t.Fatal(err)
			}
			want := doc(cat(head("traversal", "1", "0"), tc.want, lines("@nodes", "MR(1):", "1 iid=42", "@edges"))...)
			if diff := cmp.Diff(want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPaginationEncodeRefused: a pagination in neither schema's shape is
// refused, as every codec refuses it.
func TestPaginationEncodeRefused(t *testing.T) {
	for _, p := range []wire.Pagination{
		{HasMore: true},
		{TotalRows: wire.Some[int64](1), Truncated: wire.Some(true)},
		{TotalRows: wire.Some[int64](1), NextCursor: wire.Some("c")},
		{Truncated: wire.Opt[bool]{}, NextCursor: wire.Some("c")},
	} {
		out, err := goon.AppendEncode([]byte("x"), paginated(p))
		var ee *wire.EncodeError
		if !errors.As(err, &ee) || ee.Path != "pagination" || ee.Msg != p.Check().Error() {
			t.Errorf("%+v: error %v, want an *EncodeError at pagination saying %q", p, err, p.Check())
		}
		if string(out) != "x" {
			t.Errorf("%+v: wrote %q", p, out)
		}
	}
}

// TestPaginationDecode: what each header reads back as. total_rows makes a
// schema v2 pagination; truncated, next_cursor or has_more alone a v5 one.
func TestPaginationDecode(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		want   *wire.Pagination
	}{
		{"none", nil, nil},
		{"v2", lines("has_more:true", "total_rows:7"), &wire.Pagination{HasMore: true, TotalRows: wire.Some[int64](7)}},
		{"v2 without has_more", lines("total_rows:-3"), &wire.Pagination{TotalRows: wire.Some[int64](-3)}},
		{"has_more alone", lines("has_more:true"), &wire.Pagination{HasMore: true, Truncated: wire.Some(false)}},
		{"truncated alone", lines("truncated:true"), &wire.Pagination{Truncated: wire.Some(true)}},
		{"GKG's current header", lines("has_more:true", "truncated:true", "next_cursor:eyJoIjoi"),
			&wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("eyJoIjoi")}},
		{"cursor alone", lines("next_cursor:x:y/z"), &wire.Pagination{Truncated: wire.Some(false), NextCursor: wire.Some("x:y/z")}},
		{"quoted cursor", lines("has_more:true", `next_cursor:"a \"b\"\n☃"`),
			&wire.Pagination{HasMore: true, Truncated: wire.Some(false), NextCursor: wire.Some("a \"b\"\n☃")}},
		{"quoted empty cursor", lines(`next_cursor:""`), &wire.Pagination{Truncated: wire.Some(false), NextCursor: wire.Some("")}},
		{"quoted bare-safe cursor", lines(`next_cursor:"abc"`),
			&wire.Pagination{Truncated: wire.Some(false), NextCursor: wire.Some("abc\x1a")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := doc(cat(head("search", "0", "0"), tc.header, lines("@nodes", "@edges"))...)
			r, err := goon.Decode([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, r.Pagination); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			again, err := goon.Encode(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != in {
				t.Errorf("re-encoded:\n%s\nwant:\n%s", again, in)
			}
		})
	}
}

// TestPaginationBareKeywordCursor: GKG writes a cursor as it is, so a bare
// true, false or null after next_cursor: is read as that string (the value
// rule quotes it when writing it back).
func TestPaginationBareKeywordCursor(t *testing.T) {
	for _, k := range []string{"true", "false", "null"} {
		r, err := goon.Decode([]byte(doc(cat(head("search", "0", "0"), lines("next_cursor:"+k, "@nodes", "@edges"))...)))
		if err != nil {
			t.Fatal(err)
		}
		want := &wire.Pagination{Truncated: wire.Some(false), NextCursor: wire.Some(k)}
		if diff := cmp.Diff(want, r.Pagination); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
		out, err := goon.Encode(r)
		if err != nil || !strings.Contains(string(out), "\nnext_cursor:\""+k+"\"\n") {
			t.Errorf("%s re-encoded (err %v):\n%s", k, err, out)
		}
	}
}

// TestPaginationFixedPoint: every shared pagination case, cursors of any
// content included, reaches the fixed point
// Encode(Decode(Encode(r))) == Encode(r). A cursor the value rule writes
// without loss (no control character) comes back exactly.
func TestPaginationFixedPoint(t *testing.T) {
	for _, c := range testsupport.Paginations() {
		t.Run(c.Name, func(t *testing.T) {
			first := encode(t, paginated(c.Pagination))
			checkShape(t, first)
			d := fixedPoint(t, goon.Default(), first)
			p := c.Pagination
			if p.NextCursor.Valid && strings.ContainsFunc(p.NextCursor.V, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f }) {
				return // quoting dropped some of it
			}
			want := &p
			if p.Schema() == 5 && !p.HasMore && !p.Truncated.V && !p.NextCursor.Valid {
				want = nil // nothing to write: GOON shows no pagination
			}
			if diff := cmp.Diff(want, d.Pagination); diff != "" {
				t.Errorf("decoded pagination (-want +got):\n%s", diff)
			}
		})
	}
}

// TestVersionOption: the stamp is an option; the registered codec keeps
// 1.0.0; a codec stamping GKG's current 4.0.1 says so in its media type
// and writes the same text otherwise; New refuses what Decode could not
// read.
func TestVersionOption(t *testing.T) {
	if got := goon.Default().Info().MediaType; got != "text/x-goon; version=1.0.0" {
		t.Errorf("default media type %q", got)
	}
	if c, err := wire.Lookup("goon"); err != nil || c.Info().MediaType != "text/x-goon; version=1.0.0" {
		t.Errorf("registered goon codec: %v, %v", c, err)
	}
	c, err := goon.New(goon.Options{Version: "4.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Info().MediaType; got != "text/x-goon; version=4.0.1" {
		t.Errorf("media type %q", got)
	}
	if c.Version() != "4.0.1" {
		t.Errorf("Version() = %q", c.Version())
	}
	r := paginated(wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("eyJvIjo1MH0=")})
	got, err := c.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	def, err := goon.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(string(def), "goon_version:1.0.0\n", "goon_version:4.0.1\n", 1); string(got) != want || want == string(def) {
		t.Errorf("4.0.1 codec wrote:\n%s\nwant:\n%s", got, want)
	}
	d, err := c.Decode(got)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := c.AppendEncode(nil, d); err != nil || !bytes.Equal(again, got) {
		t.Errorf("fixed point under 4.0.1 (err %v):\n%s", err, again)
	}

	for _, v := range []string{"1.0.0", "1.2.3", "2.0.0", "3.10.0", "4.0.1", "4.99.99"} {
		if _, err := goon.New(goon.Options{Version: v}); err != nil {
			t.Errorf("New(%q): %v", v, err)
		}
	}
	for _, v := range []string{"0.9.0", "5.0.0", "10.0.0", "4.0", "4.0.1.2", "v4.0.1", "4.0.1-rc1", "04.0.1", "4.00.1", "4.0.-1", " 4.0.1", "4.0.1\n"} {
		c, err := goon.New(goon.Options{Version: v})
		if err == nil {
			t.Errorf("New(%q) = %v, want an error", v, c.Info().MediaType)
			continue
		}
		if !strings.Contains(err.Error(), "Options.Version") {
			t.Errorf("New(%q): error %q does not name the option", v, err)
		}
	}
	if _, err := goon.New(goon.Options{Version: strings.Repeat("9", 10000)}); err == nil || len(err.Error()) > 200 {
		t.Errorf("a 10,000-byte version: error %d bytes long (%.80v...)", len(err.Error()), err)
	}
}

// TestDecodeVersions: Decode reads goon_version 1.x to 4.x, whatever the
// pagination fields (GKG's snapshot tests stamp 1.0.0 and write truncated
// and next_cursor).
func TestDecodeVersions(t *testing.T) {
	for _, v := range []string{"1.0.0", "2.0.0", "3.1.4", "4.0.1"} {
		in := "@header\nquery_type:traversal\ngoon_version:" + v + "\nnodes:0\nedges:0\nhas_more:true\ntruncated:true\nnext_cursor:abc\n@nodes\n@edges\n"
		r, err := goon.Decode([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", v, err)
			continue
		}
		want := &wire.Pagination{HasMore: true, Truncated: wire.Some(true), NextCursor: wire.Some("abc")}
		if diff := cmp.Diff(want, r.Pagination); diff != "" {
			t.Errorf("%s (-want +got):\n%s", v, diff)
		}
	}
}

// TestCurrentCases: the snapshot cases of GKG's current encoder (schema
// v5 inputs, stamped 1.0.0 as its snapshot tests stamp them) encode byte for
// byte, read back to a fixed point, and under 4.0.1 differ in the stamp
// alone. Their inputs are canonical JSON: they decode and encode back byte
// for byte.
func TestCurrentCases(t *testing.T) {
	cases := testsupport.CurrentCases(t)
	t.Logf("%d current cases", len(cases))
	snapshot, err := goon.New(goon.Options{Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	current, err := goon.New(goon.Options{Version: "4.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r, err := wire.DecodeWith("json", c.JSON)
			if err != nil {
				t.Fatalf("reading the input: %v", err)
			}
			canonical, err := wire.EncodeWith("json", r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(strings.TrimSuffix(string(c.JSON), "\n"), string(canonical)); diff != "" {
				t.Errorf("the input is not canonical JSON (-file +re-encoded):\n%s", diff)
			}
			got, err := snapshot.AppendEncode(nil, r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(c.GOON), string(got)); diff != "" {
				t.Errorf("encoding differs from GKG's (-gkg +ours):\n%s", diff)
			}
			d := fixedPoint(t, snapshot, c.GOON)
			if diff := cmp.Diff(r.Pagination, d.Pagination); diff != "" {
				t.Errorf("pagination read back (-input +decoded):\n%s", diff)
			}
			prod, err := current.AppendEncode(nil, r)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(string(c.GOON), "\ngoon_version:1.0.0\n", "\ngoon_version:4.0.1\n", 1)
			if string(prod) != want {
				t.Errorf("4.0.1 encoding:\n%s\nwant:\n%s", prod, want)
			}
		})
	}
}

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
		if r.Pagination == nil || r.Pagination.NextCursor != wire.Some(tc.want) {
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
