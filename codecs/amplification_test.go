package codecs_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// amplified are responses that are small in memory and large as canonical
// JSON, because many places share one value: a name (what a binary codec's
// name table or GOON's type headers write once) and a node (what GOON's
// aggregation lifts and refers to from every row).
func amplified() map[string]*wire.GraphResponse {
	name := "T" + strings.Repeat("a", 4095) // 4 KiB, an identifier
	shared := search()
	shared.Nodes = make([]wire.Node, 2000)
	for i := range shared.Nodes {
		shared.Nodes[i] = wire.Node{Type: name, ID: int64(i + 1)}
	}
	// 200 short properties (about 4.4 KB), which no codec truncates: GOON
	// keeps them as they are, where it would cut one long string.
	props := make([]wire.Property, 200)
	for i := range props {
		props[i] = wire.Prop(fmt.Sprintf("p%03d", i), wire.String("breadcrumb"))
	}
	node := &wire.Node{Type: "Project", ID: 1, Properties: props}
	lifted := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Aggregation,
		Columns:      []wire.Column{{Name: "n", Function: "count"}},
		GroupColumns: []wire.GroupColumn{{Name: "p", Kind: wire.GroupByNode, Node: "p"}},
		Rows:         make([]wire.Row, 2000)}
	for i := range lifted.Rows {
		lifted.Rows[i] = wire.Row{{Name: "p", Node: node}, {Name: "n", Value: wire.Int(int64(i))}}
	}
	return map[string]*wire.GraphResponse{"shared name": shared, "shared node": lifted}
}

// TestAmplification: under a MaxMaterializedBytes of 1 MiB, every codec
// refuses to encode a response that materialises to about 8 MB, and every
// decoder refuses that response's encoding (as a writer with the default
// Limits sends it) with a MaxMaterializedBytes error, counting every use of
// the shared value, within testsupport.Bounded's time and memory.
func TestAmplification(t *testing.T) {
	reg, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxMaterializedBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	for shape, r := range amplified() {
		size := wirecodec.MaterializedSize(r)
		if size < 8_000_000 {
			t.Fatalf("%s: materialises to %d bytes only", shape, size)
		}
		for _, info := range reg.List() {
			_, err := reg.EncodeWith(info.Name, r)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || ee.Limit != "MaxMaterializedBytes" {
				t.Errorf("%s, %s: encode = %v, want a MaxMaterializedBytes *wire.EncodeError", shape, info.Name, err)
			}
			data, err := wire.EncodeWith(info.Name, r)
			if err != nil {
				t.Logf("%s, %s: the default codec does not write it either: %v", shape, info.Name, err)
				continue
			}
			t.Run(shape+"/"+info.Name, func(t *testing.T) {
				testsupport.Bounded(t, len(data), func() { _, err = reg.DecodeWith(info.Name, data) })
				var de *wire.DecodeError
				if !errors.As(err, &de) || de.Limit != "MaxMaterializedBytes" {
					t.Errorf("decoding %d bytes that materialise to %d: %v, want a MaxMaterializedBytes *wire.DecodeError", len(data), size, err)
				}
			})
		}
	}
}
