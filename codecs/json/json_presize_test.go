package json_test

import (
	"errors"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestJSONLongSequences: lists, properties and rows long enough to be
// sized from the rest of their text decode as they always did, and a
// long list whose rest is separators, not elements, is refused with its
// error having allocated no more than the bound.
func TestJSONLongSequences(t *testing.T) {
	items := make([]wire.Value, 300)
	props := make([]wire.Property, 300)
	rows := make([]wire.Row, 300)
	for i := range items {
		items[i] = wire.ListOf(wire.Int(int64(i)), wire.String(`a,"]`))
		props[i] = wire.Prop("k"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26), wire.Int(int64(i)))
		rows[i] = wire.Row{{Name: "n", Value: wire.Int(int64(i))}}
	}
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Nodes:   []wire.Node{{Type: "T", ID: 1, Properties: append(props, wire.Prop("l", wire.ListOf(items...)))}},
		Edges:   []wire.Edge{},
		Columns: []wire.Column{{Name: "n", Function: "count"}}, Rows: rows}
	data, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := jsoncodec.DecodeWithin(data, wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got, cmp.AllowUnexported(wire.Value{})); diff != "" {
		t.Errorf("decoded differs (-want +got):\n%s", diff)
	}

	if testing.Short() || presizeRace {
		t.Skip("a large input; heap figures under the race detector mean nothing")
	}
	head := `{"format_version":"1","query_type":"search","edges":[],"nodes":[{"type":"T","id":"1","l":[` + strings.Repeat("0,", 100)
	text := head + strings.Repeat(",", 8<<20) + "0]}]}"
	var derr error
	fp := wiretest.Measure(func() { _, derr = jsoncodec.DecodeWithin([]byte(text), wire.Limits{MaxElements: 16 << 20}) })
	var de *wire.DecodeError
	if !errors.As(derr, &de) || de.Offset != int64(len(head)) {
		t.Errorf("%v, want a *wire.DecodeError at offset %d", derr, len(head))
	}
	// All it allocates, not only its sampled peak: the count of a rest
	// that holds no elements must not size anything.
	if bound := wiretest.DecodeMemoryBound(len(text)); fp.TotalAlloc > bound {
		t.Errorf("allocated %d decoding %d bytes, more than %d", fp.TotalAlloc, len(text), bound)
	}
	t.Logf("%d bytes: %v", len(text), fp)
}
