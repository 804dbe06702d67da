package goon_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// restoredDoc is a traversal of count User nodes, each with a name whose
// breadcrumb declares total code points; prefix is the quoted text kept.
// With own, each node also has a name_len property of its own, so that the
// name is restored to total code points.
func restoredDoc(count int, prefix string, total int, own bool) []byte {
	var b strings.Builder
	b.WriteString(doc(head("traversal", strconv.Itoa(count), "0")...))
	b.WriteString("@nodes\nUser(" + strconv.Itoa(count) + "):\n")
	for i := range count {
		b.WriteString(strconv.Itoa(i+1) + ` name="` + prefix + `" name_len=` + strconv.Itoa(total))
		if own {
			b.WriteString(" name_len=1")
		}
		b.WriteString("\n")
	}
	b.WriteString("@edges\n")
	return []byte(b.String())
}

// measureDecode decodes in with c, fails the test past
// wiretest.DecodeMemoryBound in peak heap or in allocation (the latter
// skipped under the race detector, which allocates for itself), and logs
// the figures.
func measureDecode(t *testing.T, c *goon.Codec, in []byte) (*wire.GraphResponse, wiretest.Footprint, error) {
	t.Helper()
	var r *wire.GraphResponse
	var err error
	f := wiretest.Measure(func() { r, err = c.Decode(in) })
	bound := wiretest.DecodeMemoryBound(len(in))
	t.Logf("input %d bytes: %v (bound %d KiB)", len(in), f, bound>>10)
	if f.PeakHeap > bound {
		t.Errorf("peak heap %d bytes for an input of %d, more than %d", f.PeakHeap, len(in), bound)
	}
	if !raceEnabled && f.TotalAlloc > bound {
		t.Errorf("allocated %d bytes for an input of %d, more than %d", f.TotalAlloc, len(in), bound)
	}
	return r, f, err
}

// TestRestoredValuesBoundedByInput: issue 19's reproducers. Sixteen names
// with breadcrumbs of 16,776,192 code points each in a 3.7 KB document
// (and a 512-byte variant) read back as written, each name beside its
// name_len, in memory of the order of the input, where they used to be
// restored (556 MB, later refused by MaxExpansion). Where a node has a
// name_len of its own, the names are restored: they are refused at the
// first one, by MaxExpansion, before it is allocated; names restored to
// less than MaxExpansion times the input plus ExpansionAllowance are
// built, within the memory bound.
func TestRestoredValuesBoundedByInput(t *testing.T) {
	const total = 16776192
	long := strings.Repeat("b", 197) + "..."
	for _, c := range []struct {
		name   string
		in     []byte
		prefix string
	}{
		{"3.7KB/as_written", restoredDoc(16, long, total, false), long + "\x1a"},
		{"512B/as_written", restoredDoc(14, "...", total, false), "...\x1a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, _, err := measureDecode(t, goon.Default(), c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := wirecodec.MaterializedSize(r); got > 2*int64(len(c.in)) {
				t.Errorf("materialised size %d for %d bytes of text", got, len(c.in))
			}
			want := []wire.Property{P("name", S(c.prefix)), P("name_len", I(total))}
			if diff := cmp.Diff(want, r.Nodes[0].Properties); diff != "" {
				t.Errorf("first node (-want +got):\n%s", diff)
			}
		})
	}
	for _, c := range []struct {
		name string
		in   []byte
	}{
		{"3.7KB", restoredDoc(16, long, total, true)},
		{"512B", restoredDoc(14, "...", total, true)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, f, err := measureDecode(t, goon.Default(), c.in)
			wantDecodeError(t, err, 8, "(MaxExpansion)", "MaxExpansion")
			// Refused before the first name is built: what is allocated
			// is the parse of a few lines, not megabytes.
			if !raceEnabled && f.TotalAlloc > 1<<20 {
				t.Errorf("allocated %d bytes before refusing", f.TotalAlloc)
			}
		})
	}
	t.Run("accepted", func(t *testing.T) {
		in := restoredDoc(16, long, 480_000, true) // 7.7 MB restored from 3.7 KB
		r, _, err := measureDecode(t, goon.Default(), in)
		if err != nil {
			t.Fatal(err)
		}
		if got := wirecodec.MaterializedSize(r); got < 16*480_000 || got > wirecodec.MaterializedLimit(wire.DefaultLimits(), int64(len(in))) {
			t.Errorf("materialised size %d", got)
		}
	})
	t.Run("cumulative", func(t *testing.T) {
		// Each name alone fits; together they pass at the node that
		// crosses the limit, before its name is built.
		in := restoredDoc(16, long, 1_000_000, true)
		_, _, err := measureDecode(t, goon.Default(), in)
		wantDecodeError(t, err, 16, "(MaxExpansion)", "MaxExpansion")
	})
	t.Run("aggregation", func(t *testing.T) {
		// Nodes of an aggregation are counted once the lifted ones are
		// told apart; their restored values are counted as they come.
		var b strings.Builder
		b.WriteString(doc(cat(head("aggregation", "16", "0"), lines("rows:0", "aggregations:n(count)", "@nodes", "User(16):"))...))
		for i := range 16 {
			b.WriteString(strconv.Itoa(i+1) + ` name="` + long + `" name_len=` + strconv.Itoa(total) + " name_len=1\n")
		}
		b.WriteString("@edges\n@rows\n")
		_, _, err := measureDecode(t, goon.Default(), []byte(b.String()))
		wantDecodeError(t, err, 10, "(MaxExpansion)", "MaxExpansion")
	})
}

// TestIntermediatesBoundedByInput: what the decoder builds on the way — a
// header list split into descriptors, the capacity a declared count
// reserves, the pairs of a line full of '=' — stays within the memory
// bound on inputs made to inflate it, and the input is refused.
func TestIntermediatesBoundedByInput(t *testing.T) {
	const size = 8 << 20
	for _, c := range []struct {
		name, msg string
		in        []byte
	}{
		{"group_by of commas", "expected a group descriptor",
			[]byte(doc(cat(head("aggregation", "0", "0"), lines("rows:0", "group_by:"+strings.Repeat(",", size)))...))},
		{"aggregations of commas", "expected an aggregation descriptor",
			[]byte(doc(cat(head("aggregation", "0", "0"), lines("rows:0", "aggregations:"+strings.Repeat(",", size)))...))},
		{"goon_version of dots", "unsupported goon_version",
			[]byte(doc("@header", "query_type:search", "goon_version:"+strings.Repeat(".", size)))},
		{"declared nodes, junk lines", "bad id",
			[]byte(doc(cat(head("search", "1000000", "0"), lines("@nodes", "T(1000000):", strings.Repeat("x", size)))...))},
		{"declared edges, junk lines", "expected source",
			[]byte(doc(cat(head("search", "0", "1000000"), lines("@nodes", "@edges", "R(1000000):", strings.Repeat("x", size)))...))},
		{"a quoted value of '='", "more rows than group",
			[]byte(doc(cat(head("search", "1", "0"), lines("@nodes", "T(1):", `1 a="`+strings.Repeat("=", size)+`"`, "2"))...))},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := measureDecode(t, goon.Default(), c.in)
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %v, want one containing %q", err, c.msg)
			}
		})
	}
}

// TestLargeDocumentWithinMemoryBound: the largest GOON text of the corpus
// decodes within the memory bound, and materialises to well under
// MaxExpansion times its length.
func TestLargeDocumentWithinMemoryBound(t *testing.T) {
	var in []byte
	var id string
	for _, c := range corpus.Generate() {
		text, err := goon.Encode(c.Response)
		if err != nil {
			t.Fatalf("%s: %v", c.ID(), err)
		}
		if len(text) > len(in) {
			in, id = text, c.ID()
		}
	}
	t.Logf("largest case %s", id)
	r, _, err := measureDecode(t, goon.Default(), in)
	if err != nil {
		t.Fatal(err)
	}
	ratio := float64(wirecodec.MaterializedSize(r)) / float64(len(in))
	t.Logf("materialises to %.2f times its text", ratio)
	if ratio > float64(wire.DefaultLimits().MaxExpansion)/2 {
		t.Errorf("materialises to %.2f times its text, within a factor 2 of the default MaxExpansion %d", ratio, wire.DefaultLimits().MaxExpansion)
	}
}

// TestEncodeRefusesPastMaxExpansion: the encoder refuses, naming
// MaxExpansion, a response whose text its decoder would refuse under that
// limit — a value truncated to a short line and restored to megabytes, and
// values whose kept prefix quoting empties, which restore to six bytes of
// canonical JSON a code point — and writes what it decodes.
func TestEncodeRefusesPastMaxExpansion(t *testing.T) {
	loose := mustCodec(t, wire.Limits{MaxExpansion: 1 << 20})
	del := make([]wire.Node, 2000)
	for i := range del {
		del[i] = node("Note", int64(i+1), P("summary", S(strings.Repeat("\x7f", 1001))), P("summary_len", I(1)))
	}
	for _, c := range []struct {
		name   string
		r      *wire.GraphResponse
		refuse bool
	}{
		{"9 MB restored", resp(wire.Search, nodes(node("Doc", 1, P("description", S(strings.Repeat("d", 9_000_000))), P("description_len", I(1))))), true},
		{"7 MB restored", resp(wire.Search, nodes(node("Doc", 1, P("description", S(strings.Repeat("d", 7_000_000))), P("description_len", I(1))))), false},
		{"fill runes", resp(wire.Search, del), true},
		{"one fill-rune node", resp(wire.Search, del[:1]), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, err := loose.AppendEncode(nil, c.r)
			if err != nil {
				t.Fatal(err)
			}
			_, decErr := goon.Decode(text)
			_, encErr := goon.Encode(c.r)
			var sb strings.Builder
			streamErr := goon.EncodeTo(&sb, c.r)
			t.Logf("%d bytes of text; decode: %v; encode: %v", len(text), decErr, encErr)
			if !c.refuse {
				if decErr != nil || encErr != nil || streamErr != nil {
					t.Fatalf("decode %v, encode %v, stream %v; want all to pass", decErr, encErr, streamErr)
				}
				return
			}
			var de *wire.DecodeError
			if !errors.As(decErr, &de) || de.Limit != "MaxExpansion" {
				t.Fatalf("decode: %v, want a MaxExpansion *wire.DecodeError", decErr)
			}
			for _, err := range []error{encErr, streamErr} {
				var ee *wire.EncodeError
				if !errors.As(err, &ee) || ee.Limit != "MaxExpansion" || !errors.Is(err, wire.ErrLimit) {
					t.Errorf("encode: %v, want a MaxExpansion *wire.EncodeError", err)
				}
			}
			if sb.Len() != 0 {
				t.Errorf("EncodeTo wrote %d bytes before refusing", sb.Len())
			}
		})
	}
}

// TestCorpusWithinMaxExpansion: every GOON text of the corpus and of GKG's
// reference cases (GOON_REFERENCE_DIR, GOON_CURRENT_DIR) materialises to
// at most half the default MaxExpansion times its length, so the default
// refuses none of them with a margin of two (the largest ratio is logged).
func TestCorpusWithinMaxExpansion(t *testing.T) {
	if raceEnabled {
		t.Skip("the whole corpus on one goroutine; .ci/run runs it without -race")
	}
	texts := map[string][]byte{}
	for _, c := range corpus.Generate() {
		text, err := goon.Encode(c.Response)
		if err != nil {
			t.Fatalf("%s: %v", c.ID(), err)
		}
		texts[c.ID()] = text
	}
	for _, c := range testsupport.ReferenceCases(t) {
		texts["reference/"+c.Name] = c.GOON
	}
	for _, c := range testsupport.CurrentCases(t) {
		texts["current/"+c.Name] = c.GOON
	}
	worst, worstID := 0.0, ""
	for id, text := range texts {
		r, err := goon.Decode(text)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		ratio := float64(wirecodec.MaterializedSize(r)) / float64(len(text))
		if ratio > worst {
			worst, worstID = ratio, id
		}
	}
	t.Logf("%d texts; the largest ratio is %.2f (%s)", len(texts), worst, worstID)
	if worst > float64(wire.DefaultLimits().MaxExpansion)/2 {
		t.Errorf("%s materialises to %.2f times its text, within a factor 2 of the default MaxExpansion %d", worstID, worst, wire.DefaultLimits().MaxExpansion)
	}
}
