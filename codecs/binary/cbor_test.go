package binary

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func TestArena(t *testing.T) {
	var a arena[*int]
	x := new(int)
	sizes := []int{1, 3, arenaChunk - 2, 5, arenaChunk + 7, 0, 2}
	round := func() [][]*int {
		var got [][]*int
		for _, n := range sizes {
			s := a.take(n)
			if len(s) != 0 || cap(s) != n {
				t.Fatalf("take(%d): len %d cap %d, want 0 and %d", n, len(s), cap(s), n)
			}
			for range n {
				s = append(s, x)
			}
			got = append(got, s)
		}
		return got
	}
	got := round()
	// The slices do not overlap: each still holds only what was put in it.
	for i, s := range got {
		for _, p := range s {
			if p != x {
				t.Fatalf("slice %d was overwritten", i)
			}
		}
	}
	chunks := len(a.chunks)
	a.reset()
	for i, c := range a.chunks {
		if len(c) != 0 {
			t.Fatalf("chunk %d: length %d after reset", i, len(c))
		}
		for _, p := range c[:cap(c)] {
			if p != nil {
				t.Fatalf("chunk %d still points into the last use", i)
			}
		}
	}
	// The same requests again are served from the chunks kept.
	if allocs := testing.AllocsPerRun(5, func() { round(); a.reset() }); allocs > float64(len(sizes)+1) {
		t.Errorf("a second use allocated %v times", allocs)
	}
	if len(a.chunks) != chunks {
		t.Errorf("a second use grew the arena from %d to %d chunks", chunks, len(a.chunks))
	}

	// Past arenaKeep bytes, reset lets everything go.
	var big arena[int64]
	big.take(arenaKeep/8 + 1)
	big.reset()
	if big.chunks != nil {
		t.Errorf("an arena of more than %d bytes was kept", arenaKeep)
	}
}

// plainCBOR encodes r as one tree with a sink of its own, the encoder as it
// is with nothing kept from earlier responses.
func plainCBOR(t tb, r *wire.GraphResponse) []byte {
	var ts treeSink
	e := encoder{sink: &ts, codec: CBORName, names: map[string]int64{}}
	e.response(r)
	if e.err != nil {
		t.Fatalf("encode: %v", e.err)
	}
	b, err := cborEnc.Marshal(ts.root)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// TestCBORReuse checks that what the pooled encoder keeps between responses
// never shows in the bytes: encoding responses one after the other, large
// and small, gives what a fresh encoder gives for each.
func TestCBORReuse(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true, MaxNodes: 40})
	check := func(t tb, rs []*wire.GraphResponse, want [][]byte) {
		t.Helper()
		for pass := 0; pass < 2; pass++ {
			for i, r := range rs {
				got, err := Encode(CBOR, r)
				if err != nil {
					t.Fatalf("response %d: %v", i, err)
				}
				if !bytes.Equal(got, want[i]) {
					t.Fatalf("pass %d, response %d: the pooled encoder wrote\n%x\nwant\n%x", pass, i, got, want[i])
				}
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		rs := []*wire.GraphResponse{gen.Draw(t, "a"), gen.Draw(t, "b"), gen.Draw(t, "c")}
		check(t, rs, [][]byte{plainCBOR(t, rs[0]), plainCBOR(t, rs[1]), plainCBOR(t, rs[2])})
	})
	// A response larger than an arena chunk, between small ones.
	large := benchCases()[0].resp
	small := gen.Example(1)
	check(t, []*wire.GraphResponse{small, large, small}, [][]byte{plainCBOR(t, small), plainCBOR(t, large), plainCBOR(t, small)})
}
