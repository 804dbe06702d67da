package binary

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestDocumentHostileHeader: the largest header lists and texts the
// default Limits allow decode within wiretest.DecodeMemoryBound of their
// input, counting every byte allocated; a list or a text declared longer
// than the input is refused at its head with almost nothing allocated.
func TestDocumentHostileHeader(t *testing.T) {
	if raceSlowdown > 1 {
		t.Skip("allocation counts are not meaningful under -race")
	}
	n := wire.DefaultLimits().MaxElements
	list := make([]any, n)
	for i := range list {
		list[i] = i % 100 // one byte each in both formats
	}
	for _, f := range formats {
		c := Default(f)
		longList, _ := docItems(f, -1, "graphwire_delta", "x", "nodes_changed", list)
		longText, _ := docItems(f, -1, "sent_earlier", strings.Repeat("x", c.Limits().MaxStringBytes))
		for name, data := range map[string][]byte{"a list of MaxElements": longList, "a text of MaxStringBytes": longText} {
			var err error
			fp := wiretest.Measure(func() { _, _, err = c.DecodeDocument(data) })
			if err != nil {
				t.Fatalf("%s %s: %v", f, name, err)
			}
			if bound := wiretest.DecodeMemoryBound(len(data)); fp.TotalAlloc > bound {
				t.Errorf("%s %s of %d bytes: allocated %d bytes, more than %d", f, name, len(data), fp.TotalAlloc, bound)
			}
			t.Logf("%s %s: %d bytes in, %s", f, name, len(data), fp)
		}
		// Heads declaring 2^20 integers and a 2^24-byte text, with a few
		// bytes after them.
		shortList, _ := docItems(f, -1, "nodes_changed", []byte{})
		shortText, _ := docItems(f, -1, "sent_earlier", []byte{})
		if f == CBOR {
			shortList = append(shortList, 0x9a, 0, 0x10, 0, 0, 1, 2)
			shortText = append(shortText, 0x7a, 1, 0, 0, 0, 'x')
		} else {
			shortList = append(shortList, mpArray32, 0, 0x10, 0, 0, 1, 2)
			shortText = append(shortText, mpStr32, 1, 0, 0, 0, 'x')
		}
		for name, data := range map[string][]byte{"a list": shortList, "a text": shortText} {
			var err error
			fp := wiretest.Measure(func() { _, _, err = c.DecodeDocument(data) })
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Offset == 0 {
				t.Errorf("%s %s declared past the input: %v", f, name, err)
			}
			if fp.TotalAlloc > 64<<10 {
				t.Errorf("%s %s declared past the input: allocated %d bytes", f, name, fp.TotalAlloc)
			}
		}
	}
}
