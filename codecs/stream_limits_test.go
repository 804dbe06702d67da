package codecs_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// Every built-in codec of a registry with small Limits streams exactly
// what it encodes and refuses exactly what it refuses, with the same
// *wire.EncodeError Limit and nothing written: over the at-limit and
// one-past responses of the at-limits matrix, and over generated
// responses. A second registry bounds the output (MaxInputBytes), so that
// the refusal made after measuring the text is covered too.
func TestStreamLimitsAgree(t *testing.T) {
	small := edgeLimits
	small.MaxInputBytes = 1500
	bounded, err := codecs.NewRegistry(codecs.Options{Limits: small})
	if err != nil {
		t.Fatal(err)
	}
	regs := []struct {
		name string
		reg  *wire.Registry
	}{{"edge limits", edgeRegistry(t)}, {"edge limits, 1500-byte output", bounded}}

	// refused[registry][codec][limit] counts the refusals seen.
	refused := map[string]map[string]map[string]int{}
	encoded := map[string]map[string]int{}
	note := func(reg, codec, limit string, ok bool) {
		if refused[reg] == nil {
			refused[reg], encoded[reg] = map[string]map[string]int{}, map[string]int{}
		}
		if refused[reg][codec] == nil {
			refused[reg][codec] = map[string]int{}
		}
		if ok {
			refused[reg][codec][limit]++
		} else {
			encoded[reg][codec]++
		}
	}
	for _, rg := range regs {
		for _, info := range rg.reg.List() {
			c, _ := rg.reg.Lookup(info.Name)
			for _, tc := range edgeCases(t) {
				for _, r := range []*wire.GraphResponse{tc.at, tc.past} {
					_, limit, ok := streamAgrees(t, info.Name+" "+tc.name, c, r)
					note(rg.name, info.Name, limit, ok)
				}
			}
		}
	}
	gen := wiretest.ResponseWith(wiretest.Options{NonFinite: true})
	rapid.Check(t, func(rt *rapid.T) {
		r := gen.Draw(rt, "response")
		for _, rg := range regs {
			for _, info := range rg.reg.List() {
				c, _ := rg.reg.Lookup(info.Name)
				_, limit, ok := streamAgrees(rt, info.Name, c, r)
				note(rg.name, info.Name, limit, ok)
			}
		}
	})

	// The cases must have reached both outcomes and every limit the
	// at-limits matrix names, and the output bound.
	for _, rg := range regs {
		for _, info := range rg.reg.List() {
			if encoded[rg.name][info.Name] == 0 {
				t.Errorf("%s, %s: no response was encoded", rg.name, info.Name)
			}
			for _, limit := range []string{"MaxDepth", "MaxElements", "MaxStringBytes", "MaxMaterializedBytes"} {
				if refused[rg.name][info.Name][limit] == 0 {
					t.Errorf("%s, %s: no refusal for %s", rg.name, info.Name, limit)
				}
			}
		}
	}
	for _, info := range bounded.List() {
		if refused[regs[1].name][info.Name]["MaxInputBytes"] == 0 {
			t.Errorf("%s: no response was refused for its output size", info.Name)
		}
	}
}
