package codecs_test

import (
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestHostile feeds every registered decoder the harness's hostile inputs
// (every prefix of valid encodings, single-byte flips, declared lengths of
// 2^31, 2^32 and 2^62, nesting 100,000 deep, invalid UTF-8, NUL bytes, a
// 64 MiB repeated valid prefix): each must end in a *wire.DecodeError or a
// valid response, within wiretest's default time and allocation bounds.
//
// It does not run in parallel: allocation is measured process-wide. Its
// work is one goroutine's, on inputs of up to 64 MiB, which the race
// detector slows tenfold with nothing to watch: it skips under -race, and
// .ci/run runs it without.
func TestHostile(t *testing.T) {
	if raceEnabled {
		t.Skip("single-goroutine decodes of inputs of up to 64 MiB; .ci/run runs it without -race")
	}
	for _, name := range registered() {
		cfg, ok := conformance[name]
		if !ok {
			continue // TestTablesCoverRegistry fails
		}
		cfg.Checks = wiretest.CheckHostile
		t.Run(name, func(t *testing.T) { cfg.Run(t, name) })
	}
}

// regressions are hostile inputs that once broke a codec, kept so that they
// stay fixed.
var regressions = []struct {
	codec string
	name  string
	data  []byte
}{}

func TestHostileRegressions(t *testing.T) {
	for _, r := range regressions {
		c, err := wire.Lookup(r.codec)
		if err != nil {
			t.Logf("%s: %v", r.name, err)
			continue
		}
		t.Run(r.codec+"/"+r.name, func(t *testing.T) {
			if _, err := wiretest.DecodeHostile(c, r.data, wiretest.Bounds{}); err != nil {
				t.Errorf("%v\ninput: %s", err, wiretest.Quote(r.data))
			}
		})
	}
}
