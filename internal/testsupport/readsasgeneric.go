package testsupport

import (
	"errors"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// Fataler is what the checks here need of a *testing.T or a *rapid.T.
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// ReadsAsGeneric fails t unless a codec's Decode, which reads the
// layout's tables row by row into the response, and its generic path
// (every table read as a generic value, then converted) agree on data:
// an error each, a *wire.DecodeError, or the same response under
// wire.Exact and in Go terms. It returns Decode's error, for the caller
// to check further.
func ReadsAsGeneric(t Fataler, data []byte, decode, generic func([]byte) (*wire.GraphResponse, error)) *wire.DecodeError {
	t.Helper()
	want, wantErr := generic(data)
	got, err := decode(data)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("Decode error %v, generic path %v\n%s", err, wantErr, wiretest.Quote(data))
	}
	if err != nil {
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("error %v (%T) is not a *wire.DecodeError", err, err)
		}
		return de
	}
	// Equal in Go terms (wire.Value by its Equal method, which is Exact's,
	// and nil apart from empty) implies equal under wire.Exact, so the
	// Exact comparison only names the difference when there is one.
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(wire.Value{})); diff != "" {
		if d := wiretest.Diff(want, got, wire.Exact); d != "" {
			t.Fatalf("Decode differs from the generic path (-generic +Decode):\n%s\n%s", d, wiretest.Quote(data))
		}
		t.Fatalf("Decode differs from the generic path in Go terms (-generic +Decode):\n%s\n%s", diff, wiretest.Quote(data))
	}
	return nil
}
