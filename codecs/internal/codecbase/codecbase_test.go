package codecbase

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/wire"
)

type codec struct{ core Core }

func build(l wire.Limits) (*codec, error) {
	return New(wire.Info{Name: "x", Aliases: []string{"y"}}, l, func(core Core) *codec { return &codec{core} })
}

func TestNewFillsDefaultsAndRefusesOutOfRange(t *testing.T) {
	c, err := build(wire.Limits{MaxElements: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := wire.DefaultLimits()
	want.MaxElements = 7
	if diff := cmp.Diff(want, c.core.Limits); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	if c, err := build(wire.Limits{MaxElements: -1}); err == nil || c != nil {
		t.Errorf("New accepted MaxElements -1: %v, %v", c, err)
	}
}

func TestInfoIsACopy(t *testing.T) {
	c := Must(build(wire.Limits{}))
	c.core.Info().Aliases[0] = "z"
	if diff := cmp.Diff(wire.Info{Name: "x", Aliases: []string{"y"}}, c.core.Info()); diff != "" {
		t.Errorf("Info after a caller changed its copy (-want +got):\n%s", diff)
	}
}

func TestSizeChecks(t *testing.T) {
	c := Must(build(wire.Limits{MaxInputBytes: 10})).core
	if c.CheckInput(10) != nil || c.CheckOutput(10, "text") != nil {
		t.Fatal("a size at the limit is refused")
	}
	var de *wire.DecodeError
	if err := c.CheckInput(11); !errors.As(err, &de) || de.Offset != 10 || de.Limit != "MaxInputBytes" || de.Codec != "x" ||
		!errors.Is(err, wire.ErrLimit) {
		t.Errorf("CheckInput(11) = %#v", err)
	}
	var ee *wire.EncodeError
	if err := c.CheckOutput(11, "text"); !errors.As(err, &ee) || ee.Limit != "MaxInputBytes" || ee.Codec != "x" ||
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
