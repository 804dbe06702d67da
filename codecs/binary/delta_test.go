package binary_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/binary"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

var formats = []binary.Format{binary.Msgpack, binary.CBOR}

func TestDelta(t *testing.T) {
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			c := binary.Default(f)
			deltatest.RunCodec(t, deltatest.CodecSuite{
				Codec:         c,
				SniffResponse: c.Sniff,
				SniffDelta:    c.SniffDelta,
				Encode:        func(r *wire.GraphResponse) ([]byte, error) { return c.AppendEncode(nil, r) },
			})
		})
	}
}

func sampleDelta(t *testing.T) (*wire.GraphResponse, *delta.Delta) {
	t.Helper()
	user := func(id int64, name string) wire.Node {
		return wire.Node{Type: "User", ID: id, Properties: []wire.Property{wire.Prop("name", wire.String(name))}}
	}
	base := &wire.GraphResponse{QueryType: wire.Traversal, Nodes: []wire.Node{user(1, "ada"), user(2, "bob")},
		Edges: []wire.Edge{{From: "User", FromID: 1, To: "User", ToID: 2, Type: "FOLLOWS"}}}
	next := &wire.GraphResponse{QueryType: wire.Traversal, Nodes: []wire.Node{user(1, "ada lovelace"), user(3, "cy")},
		Edges:      []wire.Edge{{From: "User", FromID: 1, To: "User", ToID: 3, Type: "FOLLOWS"}},
		Pagination: &wire.Pagination{HasMore: true, TotalRows: wire.SomeInt(40)}}
	d, err := delta.Diff(base, next)
	if err != nil {
		t.Fatal(err)
	}
	return base, d
}

// TestDeltaIsNotAResponse: Decode refuses a delta record, DecodeDelta a
// response, each with a *wire.DecodeError.
func TestDeltaIsNotAResponse(t *testing.T) {
	base, d := sampleDelta(t)
	for _, f := range formats {
		c := binary.Default(f)
		b, err := c.AppendDelta(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		var de *wire.DecodeError
		if _, err := c.Decode(b); !errors.As(err, &de) {
			t.Errorf("%s: Decode of a delta: %v, want a *wire.DecodeError", f, err)
		}
		r, err := c.AppendEncode(nil, base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.DecodeDelta(r); !errors.As(err, &de) || !strings.Contains(err.Error(), "delta") {
			t.Errorf("%s: DecodeDelta of a response: %v, want a *wire.DecodeError about the delta", f, err)
		}
		if got := c.SniffDelta(r); got != 0 {
			t.Errorf("%s: SniffDelta of a response: %v", f, got)
		}
		if got := c.Sniff(b); got != 0 {
			t.Errorf("%s: Sniff of a delta: %v", f, got)
		}
		// The other format's delta is not this format's.
		other := binary.Default(binary.Msgpack + binary.CBOR - f)
		ob, _ := other.AppendDelta(nil, d)
		if got := c.SniffDelta(ob); got != 0 {
			t.Errorf("%s: SniffDelta of a %s delta: %v", f, other.Info().Name, got)
		}
		if _, err := c.DecodeDelta(ob); err == nil {
			t.Errorf("%s: DecodeDelta of a %s delta succeeded", f, other.Info().Name)
		}
	}
}

func TestDeltaUnchanged(t *testing.T) {
	base, _ := sampleDelta(t)
	d, err := delta.Diff(base, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range formats {
		c := binary.Default(f)
		b, err := c.AppendDelta(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		if head := map[binary.Format]byte{binary.Msgpack: 0x94, binary.CBOR: 0x84}[f]; b[0] != head || len(b) > 200 {
			t.Errorf("%s: the unchanged delta is %d bytes opening %#x, want the 4-item record", f, len(b), b[0])
		}
		got, err := c.DecodeDelta(b)
		if err != nil || !got.Unchanged() || got.Base != d.Base {
			t.Errorf("%s: DecodeDelta = %+v, %v; want the unchanged delta", f, got, err)
		}
	}
}

func TestDeltaEncodeErrors(t *testing.T) {
	_, good := sampleDelta(t)
	bad := func(edit func(d *delta.Delta)) *delta.Delta {
		d := *good
		edit(&d)
		return &d
	}
	cases := []struct {
		name string
		d    *delta.Delta
		want string
	}{
		{"nil", nil, "nil delta"},
		{"query type", bad(func(d *delta.Delta) { d.QueryType = "nope" }), "query type"},
		{"rows without rows", bad(func(d *delta.Delta) {
			d.Rows = delta.RowOps{Added: []delta.Placed[wire.Row]{{At: 0}}}
		}), "without rows"},
		{"negative at", bad(func(d *delta.Delta) {
			d.Nodes.Added = []delta.Placed[wire.Node]{{At: -1, Item: wire.Node{Type: "User", ID: 9}}}
		}), "negative"},
		{"not UTF-8", bad(func(d *delta.Delta) {
			d.Nodes.Added = []delta.Placed[wire.Node]{{At: 0, Item: wire.Node{Type: "U\xff", ID: 9}}}
		}), "UTF-8"},
	}
	for _, f := range formats {
		for _, tc := range cases {
			dst := []byte("keep")
			got, err := binary.Default(f).AppendDelta(dst, tc.d)
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || string(got) != "keep" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %s: AppendDelta = %q, %v; want dst unchanged and an *wire.EncodeError about %q", f, tc.name, got, err, tc.want)
			}
		}
	}
}

func TestDecodeDeltaLimits(t *testing.T) {
	_, d := sampleDelta(t)
	d.Nodes.Removed = []delta.NodeKey{{Type: "User", ID: 5}, {Type: "User", ID: 6}, {Type: "User", ID: 7}}
	for _, f := range formats {
		b, err := binary.Default(f).AppendDelta(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		c, err := binary.New(f, binary.Options{Limits: wire.Limits{MaxElements: 2}})
		if err != nil {
			t.Fatal(err)
		}
		var de *wire.DecodeError
		if _, err := c.DecodeDelta(b); !errors.Is(err, wire.ErrLimit) || !errors.As(err, &de) || de.Offset <= 0 {
			t.Errorf("%s: three removed nodes under MaxElements 2: %v, want a positioned limit error", f, err)
		}
		c, _ = binary.New(f, binary.Options{Limits: wire.Limits{MaxInputBytes: 10}})
		if _, err := c.DecodeDelta(b); !errors.Is(err, wire.ErrLimit) {
			t.Errorf("%s: past MaxInputBytes: %v, want a limit error", f, err)
		}
		if _, err := c.DecodeDelta(nil); err == nil {
			t.Errorf("%s: empty input decoded", f)
		}
	}
}

func TestDeltaLongerThanMaxInput(t *testing.T) {
	_, d := sampleDelta(t)
	for _, f := range formats {
		c, err := binary.New(f, binary.Options{Limits: wire.Limits{MaxInputBytes: 64}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.AppendDelta([]byte("keep"), d)
		if !errors.Is(err, wire.ErrLimit) || string(got) != "keep" {
			t.Errorf("%s: AppendDelta past MaxInputBytes = %q, %v; want dst unchanged and a limit error", f, got, err)
		}
	}
}
