package codecs_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/binary"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// The worst-case shapes of json and the binary codecs, for the scaling
// test: each is an input the decoder spends the most per byte on, made as
// large as asked. TestScaling checks that the time per byte at 10 MB stays
// within 2× of that at 100 KB.

// jsonManyEscapedProps is one node holding as many properties as fit, each
// key new and each value an escaped string: the duplicate-key check and the
// slow string path on every value.
func jsonManyEscapedProps(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1"`)
	for i := 0; b.Len() < n; i++ {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":"\n"`)
	}
	b.WriteString(`}],"edges":[]}`)
	return []byte(b.String())
}

// jsonLongEscapedString is one property holding one string of escapes,
// surrogate pairs and invalid UTF-8.
func jsonLongEscapedString(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1","query_type":"search","nodes":[{"type":"T","id":"1","s":"`)
	for b.Len() < n {
		b.WriteString("\\n\\ud83d\\ude00\xff\\u00e9")
	}
	b.WriteString(`"}],"edges":[]}`)
	return []byte(b.String())
}

// jsonDeepLists is many nodes, each holding a list nested to the default
// MaxDepth.
func jsonDeepLists(n int) []byte {
	deep := strings.Repeat("[", wire.DefaultLimits().MaxDepth) + "1" + strings.Repeat("]", wire.DefaultLimits().MaxDepth)
	var b strings.Builder
	b.WriteString(`{"format_version":"1","query_type":"search","nodes":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"T","id":"` + strconv.Itoa(i) + `","l":` + deep + `}`)
	}
	b.WriteString(`],"edges":[]}`)
	return []byte(b.String())
}

// binaryShapes are responses whose binary encodings are the costliest per
// byte: one node of many distinct keys (the name table grows and the
// duplicate-key check runs on every key), many nodes whose names are all
// table references, and long lists of small integers.
var binaryShapes = []struct {
	name  string
	build func(n int) *wire.GraphResponse
}{
	{"many new keys", func(n int) *wire.GraphResponse {
		props := make([]wire.Property, n/12)
		for i := range props {
			props[i] = wire.Prop("k"+strconv.Itoa(i), wire.Int(int64(i&63)))
		}
		return &wire.GraphResponse{QueryType: wire.Search, Nodes: []wire.Node{{Type: "T", ID: 1, Properties: props}}}
	}},
	{"table references", func(n int) *wire.GraphResponse {
		nodes := make([]wire.Node, n/12)
		for i := range nodes {
			nodes[i] = wire.Node{Type: "User", ID: int64(i & 127), Properties: []wire.Property{
				wire.Prop("a", wire.Null()), wire.Prop("b", wire.Bool(true)), wire.Prop("c", wire.Int(1))}}
		}
		return &wire.GraphResponse{QueryType: wire.Search, Nodes: nodes}
	}},
	{"long lists", func(n int) *wire.GraphResponse {
		vs := make([]wire.Value, 4096)
		for i := range vs {
			vs[i] = wire.Int(int64(i & 63))
		}
		l := wire.ListOf(vs...)
		nodes := make([]wire.Node, max(n/4100, 1))
		for i := range nodes {
			nodes[i] = wire.Node{Type: "T", ID: int64(i), Properties: []wire.Property{wire.Prop("l", l)}}
		}
		return &wire.GraphResponse{QueryType: wire.Search, Nodes: nodes}
	}},
}

func TestScaling(t *testing.T) {
	js, err := wire.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	decode := func(c wire.Codec) func([]byte) error {
		return func(b []byte) error { _, err := c.Decode(b); return err }
	}
	for name, build := range map[string]func(int) []byte{
		"json many escaped properties": jsonManyEscapedProps,
		"json long escaped string":     jsonLongEscapedString,
		"json deep lists":              jsonDeepLists,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := js.Decode(build(1000)); err != nil {
				t.Fatalf("the shape does not decode: %v", err)
			}
			wiretest.Scaling(t, name, build, decode(js))
		})
	}
	// The binary shapes refer to one name or list many times: past a few
	// MB of input they materialise past the default MaxExpansion, which is
	// not what this test measures, so its codecs lift that limit.
	for _, f := range []binary.Format{binary.Msgpack, binary.CBOR} {
		codec := f.String()
		c, err := binary.New(f, binary.Options{Limits: wire.Limits{MaxExpansion: 64}})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range binaryShapes {
			t.Run(codec+" "+s.name, func(t *testing.T) {
				build := func(n int) []byte {
					b, err := c.AppendEncode(nil, s.build(n))
					if err != nil {
						t.Fatal(err)
					}
					return b
				}
				wiretest.Scaling(t, codec+" "+s.name, build, decode(c))
			})
		}
	}
}
