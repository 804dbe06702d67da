package gcf_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

const (
	responseHead = "GCF profile=generic\nformat_version=1.2.0\nquery_type=search\n## nodes [0]\n## edges [0]\n"
	documentHead = "GCF profile=generic\ngraphwire_delta=x\nnodes_removed=0\nrows_added=0,1,2,3\nformat_version=1.2.0\nquery_type=search\n## nodes [0]\n## edges [0]\n"
)

// columnTable is a table section: its lead columns, then columns named
// prefix+"c"+i (quoted when quote) to fill about n bytes; each of its rows
// the row's lead cells (lead(r), each followed by '|'), then cell in every
// other column.
func columnTable(section, leadCols string, lead func(r int) string, n int, prefix string, quote bool, rows int, cell string) []byte {
	var cols []string
	for size := 0; size < n; size += len(cols[len(cols)-1]) + len(cell) + 2 {
		s := prefix + "c" + strconv.Itoa(len(cols))
		if quote {
			s = strconv.Quote(s)
		}
		cols = append(cols, s)
	}
	var b strings.Builder
	b.WriteString("## " + section + " [" + strconv.Itoa(rows) + "]{" + leadCols + strings.Join(cols, ",") + "}\n")
	for r := range rows {
		b.WriteString(lead(r) + strings.Repeat(cell+"|", len(cols)-1) + cell + "\n")
	}
	return []byte(b.String())
}

// Lead columns: none, and a node cell's type and id.
var (
	noLead   = func(int) string { return "" }
	nodeLead = func(r int) string { return "User|" + strconv.Itoa(r+1) + "|" }
)

// The codec's column shapes, of about n bytes: a rows table whose node
// cell has many path columns, a rows table of many columns in one row
// and in a few, and those rows as a document's content.
var codecColumnShapes = map[string]struct {
	build  func(n int) []byte
	decode func(c *gcf.Codec, b []byte) error
}{
	"node cell of many path columns": {func(n int) []byte {
		return append([]byte(responseHead), columnTable("rows", `"p>type","p>id",`, nodeLead, n, "p>", true, 1, "abcdefgh")...)
	}, decodeResponse},
	"one wide row": {func(n int) []byte {
		return append([]byte(responseHead), columnTable("rows", "", noLead, n, "", false, 1, "1")...)
	}, decodeResponse},
	"a few wide rows": {func(n int) []byte {
		return append([]byte(responseHead), columnTable("rows", "", noLead, n/2, "", false, 4, "1")...)
	}, decodeResponse},
	"a document of a few wide rows": {func(n int) []byte {
		return append([]byte(documentHead), columnTable("rows", "", noLead, n/2, "", false, 4, "1")...)
	}, decodeDocument},
}

func decodeResponse(c *gcf.Codec, b []byte) error { _, err := c.Decode(b); return err }
func decodeDocument(c *gcf.Codec, b []byte) error { _, _, err := c.DecodeDocument(b); return err }

// TestColumnScaling: Decode and DecodeDocument read each column shape in
// time linear in its input.
func TestColumnScaling(t *testing.T) {
	for name, s := range codecColumnShapes {
		wiretest.Scaling(t, name, s.build, func(b []byte) error { return s.decode(gcf.Default(), b) })
	}
}

// TestColumnMemory: each column shape, at about 8 MB, is read or refused
// within wiretest.DecodeMemoryBound; a refusal is a limit's
// *wire.DecodeError.
func TestColumnMemory(t *testing.T) {
	if testsupport.Race {
		t.Skip("the race detector's shadow memory makes heap figures meaningless")
	}
	for name, s := range codecColumnShapes {
		t.Run(name, func(t *testing.T) {
			in := s.build(8 << 20)
			var err error
			f := wiretest.Measure(func() { err = s.decode(gcf.Default(), in) })
			bound := wiretest.DecodeMemoryBound(len(in))
			t.Logf("%d bytes in: %v (bound %d KiB, %.1fx the input); err %v", len(in), f, bound>>10, float64(f.PeakHeap)/float64(len(in)), err)
			if f.PeakHeap > bound {
				t.Errorf("peak heap %d KiB for %d bytes of input, more than %d KiB", f.PeakHeap>>10, len(in), bound>>10)
			}
			if de, ok := err.(*wire.DecodeError); err != nil && (!ok || de.Limit == "") {
				t.Errorf("%v, want the response or a limit's *wire.DecodeError", err)
			}
		})
	}
}
