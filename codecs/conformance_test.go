package codecs_test

import (
	"slices"
	"strings"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// conformance is, for every built-in codec, the fidelity it promises and
// the generated responses it can carry. A registered codec missing here
// fails TestTablesCoverRegistry.
//
//   - json cannot carry NaN or ±Inf (canonical JSON has no such numbers).
//   - goon needs identifier names (entity types, edge types, property keys)
//     and drops non-finite floats by design.
//   - toon has one number type, so numbers compare by value; it cannot
//     carry NaN or ±Inf.
//   - gcf, like toon, has one number type and no NaN or ±Inf. It carries
//     awkward names too, but a property or cell name holding '>' reads
//     back after its row's other members, which the harness's order-keeping
//     equality counts as a difference; the matrix (noGT) and codecs/gcf's
//     TestAwkwardNames cover awkward names.
//   - msgpack and cbor carry everything.
var conformance = map[string]wiretest.Config{
	"json":    {Fidelity: wiretest.Exact, Gen: wiretest.Options{AwkwardNames: true}},
	"goon":    {Fidelity: wiretest.FixedPoint, Gen: wiretest.Options{}},
	"toon":    {Fidelity: wiretest.NumbersByValue, Gen: wiretest.Options{AwkwardNames: true}},
	"gcf":     {Fidelity: wiretest.NumbersByValue, Gen: wiretest.Options{}},
	"msgpack": {Fidelity: wiretest.Exact, Gen: wiretest.Options{AwkwardNames: true, NonFinite: true}},
	"cbor":    {Fidelity: wiretest.Exact, Gen: wiretest.Options{AwkwardNames: true, NonFinite: true}},
}

// registered returns the names of the registered codecs, sorted.
func registered() []string {
	var names []string
	for _, info := range wire.List() {
		names = append(names, info.Name)
	}
	return names
}

func TestTablesCoverRegistry(t *testing.T) {
	names := registered()
	t.Logf("registered codecs: %s (%d ordered pairs)", strings.Join(names, ", "), len(names)*len(names))
	if !slices.Contains(names, "json") {
		t.Fatalf("json is not registered; the matrix starts and ends with it")
	}
	for _, a := range names {
		if _, ok := conformance[a]; !ok {
			t.Errorf("codec %q is registered but missing from the conformance table", a)
		}
		for _, b := range names {
			if _, ok := matrix[[2]string{a, b}]; !ok {
				t.Errorf("pair %s→%s is registered but missing from the matrix table", a, b)
			}
		}
	}
	for name := range conformance {
		if !slices.Contains(names, name) {
			t.Logf("codec %q is in the tables but not registered (not landed yet?)", name)
		}
	}
}

// TestConformance runs the harness's round-trip, determinism and
// concurrency checks on every registered codec (TestHostile runs the
// hostile-input check).
func TestConformance(t *testing.T) {
	for _, name := range registered() {
		cfg, ok := conformance[name]
		if !ok {
			continue // TestTablesCoverRegistry fails
		}
		cfg.Checks = wiretest.CheckRoundTrip | wiretest.CheckDeterminism | wiretest.CheckConcurrency
		t.Run(name, func(t *testing.T) { cfg.Run(t, name) })
	}
}
