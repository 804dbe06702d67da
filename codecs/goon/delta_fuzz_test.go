package goon_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/delta/deltatest"
)

// FuzzDecodeDelta: DecodeDelta never panics, and a delta it reads writes
// text that reads back to the same delta (deltatest.FuzzDecode).
func FuzzDecodeDelta(f *testing.F) { deltatest.FuzzDecode(f, goon.Default(), asRead) }
