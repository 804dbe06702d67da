package codecs_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphwire/graphwire/codecs/binary"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// The deltas of the hostile delta tests: n removed node keys, all the
// same (a decoder does not look for repeats: Patch refuses them), and
// every list of operations a codec's syntax has filled with n elements.
var (
	hostileBase   = delta.Hash{1}
	hostileResult = delta.Hash{2}
)

// removedKeysDelta is a delta of n removed node keys, all A 0.
func removedKeysDelta(n int) *delta.Delta {
	d := &delta.Delta{Base: hostileBase, Result: hostileResult, QueryType: wire.Search}
	d.Nodes.Removed = make([]delta.NodeKey, n)
	for i := range d.Nodes.Removed {
		d.Nodes.Removed[i] = delta.NodeKey{Type: "A"}
	}
	return d
}

// longType is the type name of longKeysDelta's keys.
const longType = "ProjectMergeRequestApproval"

// longKeysDelta is a delta of n removed node keys, each of its own id and
// a long type name: an input a decoder reads, within its bound.
func longKeysDelta(n int) *delta.Delta {
	d := &delta.Delta{Base: hostileBase, Result: hostileResult, QueryType: wire.Search}
	d.Nodes.Removed = make([]delta.NodeKey, n)
	for i := range d.Nodes.Removed {
		d.Nodes.Removed[i] = delta.NodeKey{Type: longType, ID: int64(i)}
	}
	return d
}

// everyListDelta fills every list of operations with n elements: removed
// and moved node keys, removed and moved edges, removed and moved rows.
func everyListDelta(n int) *delta.Delta {
	d := removedKeysDelta(n)
	e := wire.Edge{From: "A", FromID: 1, To: "A", ToID: 2, Type: "R"}
	d.Nodes.Moved = make([]delta.Move[delta.NodeKey], n)
	d.Edges.Removed = make([]delta.EdgeKey, n)
	d.Edges.Moved = make([]delta.Move[delta.EdgeKey], n)
	d.Rows.Present = true
	d.Rows.Removed = make([]int, n)
	d.Rows.Moved = make([]delta.Move[int], n)
	for i := range n {
		d.Nodes.Moved[i] = delta.Move[delta.NodeKey]{Key: delta.NodeKey{Type: "A"}}
		d.Edges.Removed[i] = delta.EdgeKey{Edge: e}
		d.Edges.Moved[i] = delta.Move[delta.EdgeKey]{Key: delta.EdgeKey{Edge: e}}
	}
	return d
}

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
	}{{"json", nil}, {"msgpack", binary.Default(binary.Msgpack)}, {"cbor", binary.Default(binary.CBOR)}} {
		for _, d := range []struct {
			name string
			d    func(int) *delta.Delta
		}{{"removed keys", removedKeysDelta}, {"every list", everyListDelta}, {"long keys", longKeysDelta}} {
			add(c.name, d.name, func() []byte {
				m := n
				switch d.name {
				case "every list":
					if c.enc == nil {
						m = n / 4 // within MaxInputBytes
					}
				case "long keys":
					m = n / 8
				}
				var b []byte
				var err error
				if c.enc == nil {
					b, err = delta.AppendJSON(nil, d.d(m))
				} else {
					b, err = c.enc.AppendDelta(nil, d.d(m))
				}
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
		return newTextDelta(goonHead, n/8).numbered("@removed\n"+longType+"(N):\n", "I\n").Bytes()
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
		return newTextDelta(toonHead, n/8).numbered("removed[N]{type,id}:\n", "  "+longType+",I\n").Bytes()
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
		return newTextDelta(gcfHead, n/8).numbered("## removed [N]{@node_key}\n", longType+":I\n").Bytes()
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
// long type name and distinct ids decode.
func TestDeltaDecodeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes inputs of up to 60 MB")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes heap figures meaningless")
	}
	for _, in := range hostileDeltas(t, 1<<20) {
		t.Run(in.codec+"/"+in.name, func(t *testing.T) {
			data := in.data()
			var err error
			fp := wiretest.Measure(func() { _, err = decodeDelta(in.codec, data) })
			bound := wiretest.DecodeMemoryBound(len(data))
			t.Logf("%d bytes in: %v (bound %d KiB, %.1fx the input); err %v", len(data), fp, bound>>10, float64(fp.PeakHeap)/float64(len(data)), err)
			if fp.PeakHeap > bound {
				t.Errorf("peak heap %d bytes decoding %d bytes, more than 16x the input + 16 MiB (%d)", fp.PeakHeap, len(data), bound)
			}
			var de *wire.DecodeError
			if err != nil && in.name == "long keys" {
				t.Errorf("refused: %v", err)
			}
			if err != nil && (!errors.Is(err, wire.ErrLimit) || !errors.As(err, &de) || de.Line == 0 && de.Offset == 0) {
				t.Errorf("refused with %v, want a positioned *wire.DecodeError that matches wire.ErrLimit", err)
			}
		})
	}
}

// TestDeltaDecodeScaling: decoding four times as many removed keys takes
// at most five times as long, in every codec (the minimum of a few runs
// each, so that other load on the machine matters less).
func TestDeltaDecodeScaling(t *testing.T) {
	if raceEnabled {
		t.Skip("timings under the race detector mean little")
	}
	small, large := hostileDeltas(t, 1<<14), hostileDeltas(t, 1<<16)
	for i := range small {
		t.Run(small[i].codec+"/"+small[i].name, func(t *testing.T) {
			best := func(data []byte) time.Duration {
				var min time.Duration
				for run := range 5 {
					start := time.Now()
					if _, err := decodeDelta(small[i].codec, data); err != nil && !errors.Is(err, wire.ErrLimit) {
						t.Fatal(err)
					}
					if d := time.Since(start); run == 0 || d < min {
						min = d
					}
				}
				return min
			}
			s, l := small[i].data(), large[i].data()
			t1, t4 := best(s), best(l)
			t.Logf("%d bytes: %v; %d bytes: %v (%.1fx)", len(s), t1, len(l), t4, float64(t4)/float64(t1))
			if t4 > 5*t1 {
				t.Errorf("4x the input took %v, more than 5 times %v", t4, t1)
			}
		})
	}
}
