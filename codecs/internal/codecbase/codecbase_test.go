package codecbase

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/wire"
)

func TestNewFillsDefaultsAndRefusesOutOfRange(t *testing.T) {
	c, err := New("x", wire.Limits{MaxElements: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := wire.DefaultLimits()
	want.MaxElements = 7
	if diff := cmp.Diff(want, c.Limits); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	if _, err := New("x", wire.Limits{MaxElements: -1}); err == nil {
		t.Error("New accepted MaxElements -1")
	}
}

func TestSizeChecks(t *testing.T) {
	c, err := New("x", wire.Limits{MaxInputBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if c.CheckInput(10) != nil || c.CheckOutput(10, "text") != nil {
		t.Fatal("a size at the limit is refused")
	}
	var de *wire.DecodeError
	if err := c.CheckInput(11); !errors.As(err, &de) || de.Offset != 10 || de.Limit != "MaxInputBytes" || de.Codec != "x" ||
		!errors.Is(err, wire.ErrLimit) {
		t.Errorf("CheckInput(11) = %#v", err)
	}
	var ee *wire.EncodeError
	if err := c.CheckOutput(11, "text"); !errors.As(err, &ee) || ee.Limit != "MaxInputBytes" ||
		ee.Msg != "the text would take 11 bytes, more than the limit of 10" {
		t.Errorf("CheckOutput(11) = %#v", err)
	}
}

func TestMustPanicsOnError(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Must did not panic")
		}
	}()
	Must[int](nil, errors.New("bad"))
}
