package cli_test

import (
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
	"github.com/graphwire/graphwire/wirecodec"
)

// TestSniffNamesEveryCodec: every built-in codec's encoding of every fixed
// response (empty ones, every value kind, v2 and v5 pagination) is named
// first, with confidence.
func TestSniffNamesEveryCodec(t *testing.T) {
	n := 0
	for _, info := range wire.List() {
		for i, r := range wiretest.FixedResponses() {
			b, err := wire.EncodeWith(info.Name, r)
			if err != nil {
				continue // a response this codec refuses
			}
			g := wirecodec.Sniff(wire.DefaultRegistry(), b)
			if len(g) == 0 || g[0].Name != info.Name || g[0].Confidence < 0.9 {
				t.Errorf("%s of response %d: Sniff = %v, want %s first with confidence ≥ 0.9", info.Name, i, g, info.Name)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no encodings sniffed")
	}
}

// TestConvertAndTokensAutoNameEveryCodec: "convert -from auto" and "tokens
// -f auto" detect the codec of every codec's encoding of every corpus case,
// as "decode -f auto" does (TestDecodeAutoNamesEveryCodec): convert names
// it and converts as "convert -from NAME" would; tokens counts a text
// codec's encoding as "tokens -f NAME" would and refuses a binary one
// naming its codec. Under the race detector it takes the small and medium
// cases (testsupport.CorpusUnderRace); .ci/run runs it without, on all.
func TestConvertAndTokensAutoNameEveryCodec(t *testing.T) {
	if testing.Short() {
		t.Skip("converts every corpus case from every codec")
	}
	n := everyEncoding(t, func(c corpus.Case, info wire.Info, data []byte) {
		want := run(string(data), "convert", "-from", info.Name, "-to", "goon")
		res := run(string(data), "convert", "-from", "auto", "-to", "goon", "-v")
		if res.code != cli.ExitOK || res.stderr != "wirebench convert: detected "+info.Name+"\n" || res.stdout != want.stdout {
			t.Errorf("%s as %s: convert -from auto: exit %d, stderr %q, same output as -from %s: %v", c.Name, info.Name, res.code, res.stderr, info.Name, res.stdout == want.stdout)
		}
		res = run(string(data), "tokens", "-f", "auto", "-t", "words")
		if info.Binary {
			if wantErr := "the input is binary (it looks like " + info.Name + ")"; res.code != cli.ExitError || !strings.Contains(res.stderr, wantErr) {
				t.Errorf("%s as %s: tokens -f auto: exit %d, stderr %q, want %q", c.Name, info.Name, res.code, res.stderr, wantErr)
			}
		} else if want := run(string(data), "tokens", "-f", info.Name, "-t", "words"); res.code != cli.ExitOK || res != want {
			t.Errorf("%s as %s: tokens -f auto = %+v, tokens -f %s = %+v", c.Name, info.Name, res, info.Name, want)
		}
	})
	t.Logf("convert -from auto and tokens -f auto named the codec of %d encodings", n)
}
