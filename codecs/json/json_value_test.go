package json_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// AppendValueJSON writes what MarshalJSON writes for every finite value,
// and null where a float is NaN or ±Inf.
func TestAppendValueJSON(t *testing.T) {
	finite := wire.ListOf(wire.Null(), wire.Bool(true), wire.Int(-3), wire.Float(1), wire.Float(2.5e-9),
		wire.String("a\"b\n\u00e9"), wire.ListOf(wire.ListOf(wire.Int(1)), wire.ListOf()))
	want, err := json.Marshal(finite)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(wire.AppendValueJSON(nil, finite)); got != string(want) {
		t.Errorf("AppendValueJSON = %s, MarshalJSON = %s", got, want)
	}
	odd := wire.ListOf(wire.Float(math.NaN()), wire.Float(math.Inf(1)), wire.Float(math.Inf(-1)), wire.Int(1))
	if got := string(wire.AppendValueJSON([]byte("x"), odd)); got != "x[null,null,null,1]" {
		t.Errorf("AppendValueJSON of non-finite floats = %s", got)
	}
}
