package gcf_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestHarness runs graphwire's codec harness on gcf: generated round trips
// under the declared fidelity, determinism, concurrency and hostile input.
func TestHarness(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	wiretest.Config{Fidelity: gcf.Default().Info().Fidelity, N: n}.Run(t, gcf.Name)
}
