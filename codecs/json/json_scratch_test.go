package json_test

import (
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestDecodedResponsesShareNoScratch: a response stays as it was decoded
// while the decoder's pooled scratch reads others after it, each after a
// decode that fails half-way through its input.
func TestDecodedResponsesShareNoScratch(t *testing.T) {
	cases, err := corpus.LoadCommitted()
	if err != nil {
		t.Fatal(err)
	}
	var want, got []*wire.GraphResponse
	for _, id := range []string{"lean/traversal_m", "lean/aggregation_m", "lean/traversal_s", "lean/aggregation_s"} {
		c, ok := corpus.Find(cases, id)
		if !ok {
			t.Fatalf("corpus has no case %s", id)
		}
		data, err := encodeJSON(c.Response)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeJSON(data[:len(data)/2]); err == nil {
			t.Fatalf("%s: half of the input decodes", id)
		}
		r, err := decodeJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		want, got = append(want, c.Response), append(got, r)
	}
	for i := range want {
		if diff := wiretest.Diff(want[i], got[i], wire.Exact); diff != "" {
			t.Errorf("response %d changed after later decodes (-want +got):\n%s", i, diff)
		}
	}
}
