package delta_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

// TestMeterAppend: Append charges a list 1.5 to 3 times its slots, plus
// its keys' type names, and once the bound (8 times the input plus
// wire.ExpansionAllowance) would be passed refuses, leaving the list as it
// was, with "MaxExpansion" and a message naming the bound.
func TestMeterAppend(t *testing.T) {
	const input = 1 << 20
	m := delta.NewMeter(wire.Limits{}, input)
	var keys []delta.NodeKey
	for {
		before := keys
		next, ok := delta.Append(m, keys, delta.NodeKey{Type: "Type", ID: int64(len(keys))})
		if !ok {
			if len(next) != len(before) || cap(next) != cap(before) {
				t.Fatalf("a refused Append changed the list: len %d cap %d, was %d %d", len(next), cap(next), len(before), cap(before))
			}
			break
		}
		keys = next
		slots, names := int64(len(keys))*32, int64(len(keys))*4
		if got := m.InMemory(); got < slots*3/2-96 || got > 3*slots+names+96 {
			t.Fatalf("%d keys charged %d bytes, want 1.5 to 3 times their %d bytes of slots plus %d of names", len(keys), got, slots, names)
		}
	}
	limit := int64(8*input + wire.ExpansionAllowance)
	if got := m.InMemory(); got > limit || got < limit/2 {
		t.Errorf("refused at %d bytes charged, want within the bound of %d and past half of it", got, limit)
	}
	if m.LimitName() != "MaxExpansion" || !bytes.Contains([]byte(m.Msg()), []byte("16777216 bytes in memory")) {
		t.Errorf("refusal %q %q, want MaxExpansion and the bound", m.LimitName(), m.Msg())
	}
	for i, k := range keys {
		if k.ID != int64(i) {
			t.Fatalf("keys[%d] = %v, want id %d", i, k, i)
		}
	}
}

// TestMeterParse: Parse charges each line its cost, its bytes and the
// cost of its delimiters, and names the first line that does not fit.
func TestMeterParse(t *testing.T) {
	cost := delta.ParseCost{Line: 100, Cell: 10, Delims: ",|"}
	m := delta.NewMeter(wire.Limits{}, 0) // a bound of ExpansionAllowance
	line := []byte("a,b|c\n")
	per := cost.Line + 5 + 2*cost.Cell
	n := int(wire.ExpansionAllowance / per)
	data := bytes.Repeat(line, n+10)
	if got := m.Parse(data[:n*len(line)], cost); got != 0 || m.InMemory() != int64(n)*per {
		t.Fatalf("%d lines: Parse = %d, charged %d; want 0 and %d", n, got, m.InMemory(), int64(n)*per)
	}
	m = delta.NewMeter(wire.Limits{}, 0)
	if got := m.Parse(data, cost); got != n+1 {
		t.Errorf("%d lines: Parse = %d, want the line %d", n+10, got, n+1)
	}
}

// TestDecodeJSONRefusal: DecodeJSON refuses a delta past its meter with a
// positioned limit error.
func TestDecodeJSONRefusal(t *testing.T) {
	data, err := delta.AppendJSON(nil, &delta.Delta{Base: delta.Hash{1}, Result: delta.Hash{2}, QueryType: wire.Search,
		Rows: delta.RowOps{Present: true, Removed: make([]int, 1_000_000)}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = delta.DecodeJSON(data, wire.Limits{MaxExpansion: 1})
	var de *wire.DecodeError
	if !errors.Is(err, wire.ErrLimit) || !errors.As(err, &de) || de.Limit != "MaxExpansion" || de.Offset <= 0 || de.Offset >= int64(len(data)) {
		t.Fatalf("DecodeJSON = %v, want a MaxExpansion refusal inside the input", err)
	}
}
