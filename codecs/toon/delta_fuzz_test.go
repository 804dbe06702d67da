package toon_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta/deltatest"
)

// FuzzDecodeDelta: DecodeDelta never panics, and a delta it reads writes
// text that reads back to the same delta (deltatest.FuzzDecode).
func FuzzDecodeDelta(f *testing.F) { deltatest.FuzzDecode(f, toon.Default(), asRead) }
