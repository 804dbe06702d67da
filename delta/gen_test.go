package delta_test

import (
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func pairGen() *rapid.Generator[[2]*wire.GraphResponse] { return deltatest.PairGen() }

func pairGenWith(o wiretest.Options) *rapid.Generator[[2]*wire.GraphResponse] {
	return deltatest.PairGenWith(o)
}

func edit(t *rapid.T, next, other *wire.GraphResponse, nonFinite bool) {
	deltatest.Edit(t, next, other, nonFinite)
}
