package delta_test

import (
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestSniffJSON: SniffJSON names every delta's JSON form, and no encoding
// of a response in any registered codec.
func TestSniffJSON(t *testing.T) {
	rs := wiretest.FixedResponses()
	for _, next := range rs {
		d, err := delta.Diff(rs[0], next)
		if err != nil {
			t.Fatal(err)
		}
		b, err := delta.AppendJSON(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		if c := delta.SniffJSON(b[:min(len(b), wire.SniffLen)]); c != 0.99 {
			t.Errorf("SniffJSON of a delta: %.2f, want 0.99", c)
		}
		if c := delta.SniffJSON(append([]byte("\ufeff \n{ \n"), b[1:]...)); c != 0.99 {
			t.Errorf("SniffJSON of a delta after a byte order mark and whitespace: %.2f, want 0.99", c)
		}
	}
	for _, info := range wire.List() {
		for _, r := range rs {
			b, err := wire.EncodeWith(info.Name, r)
			if err != nil {
				continue
			}
			if c := delta.SniffJSON(b); c != 0 {
				t.Errorf("SniffJSON of a response in %s: %.2f, want 0", info.Name, c)
			}
		}
	}
	for _, in := range []string{"", "{", `{"base":1}`, `["graphwire_delta"]`, "\x00\x01"} {
		if c := delta.SniffJSON([]byte(in)); c != 0 {
			t.Errorf("SniffJSON(%q) = %.2f, want 0", in, c)
		}
	}
}
