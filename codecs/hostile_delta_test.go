package codecs_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/binary"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// textDelta builds a text codec's delta by hand (its AppendDelta reads
// what it writes back, and would refuse), n elements to a list.
type textDelta struct {
	bytes.Buffer
	n int
}

func newTextDelta(head string, n int) *textDelta {
	b := &textDelta{n: n}
	b.WriteString(head)
	return b
}

// lines writes head, "N" in it replaced by n, and n copies of line.
func (b *textDelta) lines(head, line string) *textDelta {
	b.WriteString(strings.ReplaceAll(head, "N", strconv.Itoa(b.n)))
	for range b.n {
		b.WriteString(line)
	}
	return b
}

// numbered writes head, "N" in it replaced by n, and n lines, "I" in
// line replaced by each number from 0 to n-1.
func (b *textDelta) numbered(head, line string) *textDelta {
	b.WriteString(strings.ReplaceAll(head, "N", strconv.Itoa(b.n)))
	for i := range b.n {
		b.WriteString(strings.ReplaceAll(line, "I", strconv.Itoa(i)))
	}
	return b
}

// joined writes head, "N" in it replaced by n, n copies of item separated
// by sep, and a newline.
func (b *textDelta) joined(head, item, sep string) *textDelta {
	b.WriteString(strings.ReplaceAll(head, "N", strconv.Itoa(b.n)))
	for i := range b.n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(item)
	}
	b.WriteByte('\n')
	return b
}

const (
	goonHead = "@delta\nbase:sha256:01" + zeros62 + "\nresult:sha256:02" + zeros62 + "\nquery_type:search\n"
	toonHead = "graphwire_delta: 1\nbase: \"sha256:01" + zeros62 + "\"\nresult: \"sha256:02" + zeros62 + "\"\nquery_type: search\n"
	gcfHead  = "GCF profile=generic tool=graphwire delta=true base_root=sha256:01" + zeros62 + " new_root=sha256:02" + zeros62 + " key=node_key query_type=search\n"
	zeros62  = "00000000000000000000000000000000000000000000000000000000000000"
)

// hostileDelta is one hostile delta input in one codec's syntax, made
// when it is needed (together they would take hundreds of megabytes).
type hostileDelta struct {
	codec, name string
	data        func() []byte
}

// hostileDeltas are the inputs of TestDeltaDecodeMemory, n elements to a
// list.
func hostileDeltas(t testing.TB, n int) []hostileDelta {
	var out []hostileDelta
	add := func(codec, name string, data func() []byte) {
		out = append(out, hostileDelta{codec, name, data})
	}
	for _, c := range []struct {
		name string
		enc  delta.Codec
	}{{"msgpack", binary.Default(binary.Msgpack)}, {"cbor", binary.Default(binary.CBOR)}} {
		for _, d := range []struct {
			name string
			d    func(int) *delta.Delta
		}{{"removed keys", deltatest.RemovedKeys}, {"every list", deltatest.EveryList}, {"long keys", deltatest.LongKeys}} {
			add(c.name, d.name, func() []byte {
				m := n
				if d.name == "long keys" {
					m = n / 8
				}
				b, err := c.enc.AppendDelta(nil, d.d(m))
				if err != nil {
					t.Fatal(err)
				}
				return b
			})
		}
	}
	add("goon", "removed keys", func() []byte {
		return newTextDelta(goonHead, n).lines("@removed\nA(N):\n", "0\n").Bytes()
	})
	add("goon", "removed edges", func() []byte {
		return newTextDelta(goonHead, n).lines("@edges_removed\nR(N):\n", "A:1 --> A:2\n").Bytes()
	})
	add("goon", "every list", func() []byte {
		return newTextDelta(goonHead, n).
			lines("@removed\nA(N):\n", "0\n").
			lines("@moved\nA(N):\n", "at=0 0\n").
			lines("@edges_removed\nR(N):\n", "A:1 --> A:2\n").
			lines("@edges_moved\nR(N):\n", "at=0 A:1 --> A:2\n").
			joined("@rows\nremoved:", "0", " ").
			joined("moved:", "0>0", " ").Bytes()
	})
	add("goon", "long keys", func() []byte {
		return newTextDelta(goonHead, n/8).numbered("@removed\n"+deltatest.LongType+"(N):\n", "I\n").Bytes()
	})
	add("toon", "removed keys", func() []byte {
		return newTextDelta(toonHead, n).lines("removed[N]{type,id}:\n", "  A,0\n").Bytes()
	})
	add("toon", "every list", func() []byte {
		return newTextDelta(toonHead, n).
			lines("removed[N]{type,id}:\n", "  A,0\n").
			lines("moved[N]{type,id,at}:\n", "  A,0,0\n").
			lines("edges_removed[N]{from,from_id,to,to_id,type}:\n", "  A,1,A,2,R\n").
			joined("edges_moved_at[N]: ", "0", ",").
			lines("edges_moved[N]{from,from_id,to,to_id,type}:\n", "  A,1,A,2,R\n").
			joined("rows_removed[N]: ", "0", ",").
			lines("rows_moved[N]{from,at}:\n", "  0,0\n").Bytes()
	})
	add("toon", "long keys", func() []byte {
		return newTextDelta(toonHead, n/8).numbered("removed[N]{type,id}:\n", "  "+deltatest.LongType+",I\n").Bytes()
	})
	add("gcf", "removed keys", func() []byte {
		return newTextDelta(gcfHead, n).numbered("## removed [N]{@node_key}\n", "A:I\n").Bytes()
	})
	add("gcf", "every list", func() []byte {
		return newTextDelta(strings.Replace(gcfHead, "\n", " added_at=0\n", 1), n).
			numbered("## added [N]{@node_key,type,id}\n", "A:I|A|I\n").
			numbered("## changed [N]{@node_key,type,id}\n", "B:I|B|I\n").
			numbered("## removed [N]{@node_key}\n", "C:I\n").Bytes()
	})
	add("gcf", "long keys", func() []byte {
		return newTextDelta(gcfHead, n/8).numbered("## removed [N]{@node_key}\n", deltatest.LongType+":I\n").Bytes()
	})
	return out
}

// decodeDelta decodes data with the registered codec's delta syntax.
func decodeDelta(codec string, data []byte) (*delta.Delta, error) {
	return delta.DecodeWith(wire.DefaultRegistry(), codec, data)
}

// TestDeltaDecodeMemory: every delta decoder meters the lists it builds.
// A delta of 2^20 removed node keys, one with every list full, and GOON's
// 2^20 removed edges each decode, or are refused with a limit error,
// within 16 times the input plus 16 MiB at their peak; 2^17 keys of a
// long type name and distinct ids decode. (The json codec's DecodeDelta is
// delta.DecodeJSON, which delta's TestDecodeJSONMeter holds to the same.)
func TestDeltaDecodeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes inputs of up to 60 MB")
	}
	for _, in := range hostileDeltas(t, 1<<20) {
		t.Run(in.codec+"/"+in.name, func(t *testing.T) {
			deltatest.CheckDecodeMemory(t, in.data(), in.name == "long keys", func(data []byte) (*delta.Delta, error) {
				return decodeDelta(in.codec, data)
			})
		})
	}
}

// TestDeltaDecodeScaling: every codec decodes, or refuses, each hostile
// delta in time linear in its length (wiretest.Scaling: the time per byte
// at 10 MB within twice that at 1 MB, measured in processor time with the
// collector off, so that other load on the machine counts less).
func TestDeltaDecodeScaling(t *testing.T) {
	const probe = 1024
	for i, in := range hostileDeltas(t, probe) {
		t.Run(in.codec+"/"+in.name, func(t *testing.T) {
			per := max(len(in.data())/probe, 1)
			build := func(n int) []byte { return hostileDeltas(t, max(n/per, 8))[i].data() }
			wiretest.Scaling(t, in.codec+" "+in.name, build, func(data []byte) error {
				_, err := decodeDelta(in.codec, data)
				return err
			})
		})
	}
}
