package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// spaced is a text codec whose lines are separated by white-space-only
// lines, which Segments refuses: every price of its text is a whole count.
type spaced struct{}

func (spaced) Info() wire.Info {
	return wire.Info{Name: "spaced", MediaType: "text/x-spaced", Description: "indented JSON, double spaced", Fidelity: wire.Exact}
}

func (spaced) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		return dst, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return dst, err
	}
	return append(dst, bytes.ReplaceAll(out.Bytes(), []byte("\n"), []byte("\n  \n"))...), nil
}

func (spaced) Decode(data []byte) (*wire.GraphResponse, error) {
	return nil, &wire.DecodeError{Codec: "spaced", Msg: "not decodable"}
}

func adrCase(t *testing.T) *wire.GraphResponse {
	t.Helper()
	b, err := wire.DecodeWith("json", mustRead(t, filepath.Join("..", "bench", "corpus", "text-heavy", "traversal_adr_50u_200mr.json")))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWholeCountsWhereSegmentsDoNotHold pages through a codec of a
// registry of its own whose text Segments refuses: pages are still within
// budget and tight, by whole counts.
func TestWholeCountsWhereSegmentsDoNotHold(t *testing.T) {
	reg, err := wire.NewRegistry(wire.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(spaced{})
	r := adrCase(t)
	text, _ := spaced{}.AppendEncode(nil, r)
	if Segments(text, func([]byte) {}) {
		t.Fatal("Segments accepted a text with white-space-only lines")
	}
	c, _ := tokens.Get(tokens.O200k)
	res, err := Page(r, Options{Codec: "spaced", Registry: reg, Budget: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Count(res.Encoding); n != res.Stats.PageTokens || n > 3000 || !res.Stats.Truncated {
		t.Fatalf("page of %d tokens (stats %d), truncated %v", n, res.Stats.PageTokens, res.Stats.Truncated)
	}
	f, err := prepare(context.Background(), r, reg, "spaced", "")
	if err != nil {
		t.Fatal(err)
	}
	to := res.Stats.Units.Kept
	next, _ := f.codec.AppendEncode(nil, f.plan.page(0, to+1, f.pagination(0, to+1)))
	if n, _ := c.Count(next); n <= 3000 {
		t.Errorf("not tight: one more unit costs %d", n)
	}
}
