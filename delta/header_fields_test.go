package delta_test

import (
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/codecs/toon"
	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestContentHeaderFields: a delta's content carries format_version and
// query_type only where the result's differ from the base's; one the
// result has empty while the base does not is named in Cleared. Every
// case patches back to the result exactly, and reads back from a TOON
// document (GOON carries no format_version).
func TestContentHeaderFields(t *testing.T) {
	base := resp(node("User", 1, "username", "ada"))
	changed := func(fv string, qt wire.QueryType) *wire.GraphResponse {
		next := resp(node("User", 1, "username", "grace"))
		next.FormatVersion, next.QueryType = fv, qt
		return next
	}
	for _, tc := range []struct {
		name        string
		next        *wire.GraphResponse
		wantFV      string
		wantQT      wire.QueryType
		wantCleared []string
	}{
		{"both kept", changed("1.2.0", wire.Traversal), "", "", nil},
		{"format_version changed", changed("2.0.0", wire.Traversal), "2.0.0", "", nil},
		{"query_type changed", changed("1.2.0", wire.Search), "", wire.Search, nil},
		{"format_version cleared", changed("", wire.Traversal), "", "", []string{delta.FieldFormatVersion}},
		{"both cleared", changed("", ""), "", "", []string{delta.FieldFormatVersion, delta.FieldQueryType}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := delta.Diff(base, tc.next)
			if err != nil {
				t.Fatal(err)
			}
			if d.Content.FormatVersion != tc.wantFV || d.Content.QueryType != tc.wantQT {
				t.Errorf("content's format_version %q, query_type %q; want %q, %q", d.Content.FormatVersion, d.Content.QueryType, tc.wantFV, tc.wantQT)
			}
			if diff := cmp.Diff(tc.wantCleared, d.Cleared); diff != "" {
				t.Errorf("Cleared (-want +got):\n%s", diff)
			}
			got, err := delta.Patch(base, d)
			if err != nil {
				t.Fatal(err)
			}
			if !wire.Equal(got, tc.next, wire.Exact) {
				t.Errorf("Patch gave\n%+v\nwant\n%+v", got, tc.next)
			}
			if tc.next.QueryType == "" {
				return // a response TOON does not write
			}
			b, err := delta.AppendDelta(toon.Default(), nil, d)
			if err != nil {
				t.Fatal(err)
			}
			back, err := delta.DecodeDelta(toon.Default(), b)
			if err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			if what := delta.Differs(d, back); what != "" {
				t.Errorf("the delta reads back different at %s:\n%s", what, b)
			}
		})
	}
}

// TestClearedRefused: a Cleared that names another field, names one
// twice or out of order, or names a field the content gives is corrupt;
// Patch refuses it and builds nothing.
func TestClearedRefused(t *testing.T) {
	base := resp(node("User", 1, "username", "ada"))
	next := resp(node("User", 1, "username", "grace"))
	next.FormatVersion = ""
	for _, tc := range []struct {
		name    string
		cleared []string
		fv      string
	}{
		{"another field", []string{"columns"}, ""},
		{"twice", []string{delta.FieldFormatVersion, delta.FieldFormatVersion}, ""},
		{"out of order", []string{delta.FieldQueryType, delta.FieldFormatVersion}, ""},
		{"cleared and given", []string{delta.FieldFormatVersion}, "1.2.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := delta.Diff(base, next)
			if err != nil {
				t.Fatal(err)
			}
			d.Cleared = tc.cleared
			d.Content = wiretest.Clone(d.Content)
			d.Content.FormatVersion = tc.fv
			got, err := delta.Patch(base, d)
			var pe *delta.PatchError
			if got != nil || !errors.As(err, &pe) || !errors.Is(err, delta.ErrCorrupt) || pe.Op != "cleared[0]" && pe.Op != "cleared[1]" {
				t.Fatalf("Patch = %v, %v; want no response and a *PatchError at cleared[i] matching ErrCorrupt", got, err)
			}
		})
	}
}

// TestVersion3Refused: a delta of version 3, whose content carries the
// result's format_version and query_type whether or not they changed and
// whose check is hashed under "graphwire-delta-check-v2", never patches:
// Patch refuses it as a delta for another base (ErrWrongBase), also when
// its content reads the same under version 4's rules.
func TestVersion3Refused(t *testing.T) {
	base := resp(node("User", 1, "username", "ada"))
	for _, next := range []*wire.GraphResponse{
		resp(node("User", 1, "username", "grace")), // content valid under version 4 too
		func() *wire.GraphResponse { // the result's empty format_version, which version 4 reads as the base's
			r := resp(node("User", 1, "username", "grace"))
			r.FormatVersion = ""
			return r
		}(),
	} {
		d, err := delta.Diff(base, next)
		if err != nil {
			t.Fatal(err)
		}
		d.Cleared = nil
		d.Content = wiretest.Clone(d.Content)
		d.Content.FormatVersion, d.Content.QueryType = next.FormatVersion, next.QueryType
		fb, fn := delta.Fingerprint(base), delta.Fingerprint(next)
		sum := sha256.Sum256(append(append([]byte("graphwire-delta-check-v2\n"), fb[:]...), fn[:]...))
		copy(d.Check[:], sum[:])
		got, err := delta.Patch(base, d)
		if got != nil || !errors.Is(err, delta.ErrWrongBase) {
			t.Errorf("Patch of a version-3 delta = %v, %v; want no response and ErrWrongBase", got, err)
		}
		// The same delta under version 4's check patches, or is refused
		// where version 4 reads its content otherwise: never a wrong result.
		d.Check = delta.MakeCheck(fb, fn)
		got, err = delta.Patch(base, d)
		if err == nil && !wire.Equal(got, next, wire.Exact) {
			t.Errorf("Patch gave a wrong result %+v", got)
		}
	}
}
