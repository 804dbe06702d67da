package gcf_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestHarness runs the check of graphwire's codec harness that package
// codecs does not run on gcf: each shape the model refuses gives an
// *wire.EncodeError. The others run there, on the same registered codec
// with the same generator and hostile inputs: codecs.TestConformance's
// round trips (500 generated responses), determinism and concurrency, and
// codecs.TestHostile's hostile inputs.
func TestHarness(t *testing.T) {
	wiretest.Config{Fidelity: gcf.Default().Info().Fidelity, Checks: wiretest.CheckRefusals}.Run(t, gcf.Name)
}
