package fit_test

import (
	"context"
	"encoding/base64"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/fit"
	"github.com/graphwire/graphwire/internal/testsupport"
)

// v1Cursor is the cursor fit's cursor version 1 issued after the first
// page of traversal_s at 200 tokens of GOON: unit 3, with a fingerprint of
// fit's own.
const v1Cursor = "AQAAAAAAAAOrn3uixptBng"

// A cursor of version 1 is refused as outdated, by CheckCursor, Page and
// a Pager alike, with a message saying to page again from the start; a
// cursor of a version not yet made is not fit's; and the start of the
// response, paged again, gives a cursor of the current version that
// resumes where the old one pointed.
func TestOutdatedCursorIsRefused(t *testing.T) {
	r := testsupport.LoadResponse(t, filepath.Join(corpusDir, "traversal_s.json"))
	ctx := context.Background()
	p, err := fit.NewPager(ctx, r, fit.PagerOptions{Codec: "goon"})
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []struct {
		name string
		run  func() error
	}{
		{"CheckCursor", func() error { return fit.CheckCursor(v1Cursor) }},
		{"Page", func() error {
			_, err := fit.Page(r, fit.Options{Codec: "goon", Budget: 200, Cursor: v1Cursor})
			return err
		}},
		{"Pager.Page", func() error { _, err := p.Page(ctx, 200, v1Cursor); return err }},
	} {
		err := call.run()
		var ce *fit.CursorError
		if !errors.As(err, &ce) || !ce.Outdated || ce.Mismatch || ce.Upstream {
			t.Fatalf("%s(version 1 cursor) = %v, want a *CursorError with Outdated alone set", call.name, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "earlier version") || !strings.Contains(msg, "from its start") || len(msg) > 140 {
			t.Errorf("%s: message %q, want a short one saying the cursor is an earlier version's, to page again from the start", call.name, msg)
		}
	}

	first, err := fit.Page(r, fit.Options{Codec: "goon", Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	cur := first.Page.Pagination.NextCursor.V
	if first.Stats.Units.Kept != 3 || !first.Stats.Truncated {
		t.Fatalf("first page: %d units, truncated %v; want 3 units and more to follow", first.Stats.Units.Kept, first.Stats.Truncated)
	}
	if err := fit.CheckCursor(cur); err != nil {
		t.Fatalf("CheckCursor(%q) = %v for the current version's cursor", cur, err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(cur)
	if err != nil {
		t.Fatal(err)
	}
	// The same unit as the old cursor; the version and the fingerprint
	// differ: the fingerprint is delta.Fingerprint's.
	old, _ := base64.RawURLEncoding.DecodeString(v1Cursor)
	if raw[0] != 2 || string(raw[1:8]) != string(old[1:8]) {
		t.Errorf("cursor %x, want version 2 and the old cursor's unit, %x", raw, old[1:8])
	}
	if fp := delta.Fingerprint(r); string(raw[8:]) != string(fp[:8]) {
		t.Errorf("cursor carries fingerprint %x, want the first 8 bytes of delta.Fingerprint, %x", raw[8:], fp[:8])
	}

	// A version after the current one is not a cursor fit issued.
	raw[0] = 3
	next := base64.RawURLEncoding.EncodeToString(raw)
	var ce *fit.CursorError
	if err := fit.CheckCursor(next); !errors.As(err, &ce) || ce.Outdated || !strings.Contains(err.Error(), "not a cursor issued by fit") {
		t.Errorf("CheckCursor(version 3) = %v, want not a cursor issued by fit", err)
	}
}
