package wiretest

import (
	"flag"
	"testing"

	"pgregory.net/rapid"
)

// reporter is what the checks report to: a *testing.T, or, in the
// harness's own tests, a recorder of the failures it must find.
type reporter interface {
	rapid.TB
	run(name string, f func(reporter)) bool
}

type testingT struct{ *testing.T }

func (t testingT) run(name string, f func(reporter)) bool {
	t.Helper()
	return t.T.Run(name, func(t *testing.T) { f(testingT{t}) })
}

func lookupFlag(name string) flag.Value {
	if f := flag.Lookup(name); f != nil {
		return f.Value
	}
	return nil
}
