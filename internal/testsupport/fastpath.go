package testsupport

import (
	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// Fataler is what the checks here need of a *testing.T or a *rapid.T.
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// ReadsAsGeneric fails t unless a codec's Decode, which tries its fast
// reader first, and its generic path agree on data: the same error, or
// the same response under wire.Exact and in Go terms; and unless the fast
// reader alone, when it reads data, gives that response too. It reports
// whether the fast reader read data.
func ReadsAsGeneric(t Fataler, data []byte, decode, generic func([]byte) (*wire.GraphResponse, error), fast func([]byte) (*wire.GraphResponse, bool)) bool {
	t.Helper()
	want, wantErr := generic(data)
	got, err := decode(data)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("Decode error %v, generic path %v\n%s", err, wantErr, wiretest.Quote(data))
	}
	if err != nil {
		if diff := cmp.Diff(wantErr.Error(), err.Error()); diff != "" {
			t.Fatalf("errors differ (-generic +Decode):\n%s", diff)
		}
		return false
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
	r, ok := fast(data)
	if ok {
		if diff := cmp.Diff(want, r, cmp.AllowUnexported(wire.Value{})); diff != "" {
			t.Fatalf("the fast reader differs from the generic path (-generic +fast):\n%s\n%s", diff, wiretest.Quote(data))
		}
	}
	return ok
}
