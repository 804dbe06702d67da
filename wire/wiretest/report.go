package wiretest

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// reporter is what the checks report to: a *testing.T (Run) or a recorder
// (Check).
type reporter interface {
	rapid.TB
	run(name string, f func(reporter)) bool
}

type testingT struct{ *testing.T }

func (t testingT) run(name string, f func(reporter)) bool {
	t.Helper()
	return t.T.Run(name, func(t *testing.T) { f(testingT{t}) })
}

// recorder collects failures instead of failing a test. FailNow, Fatal and
// SkipNow end the current check by panicking with a sentinel that run
// recovers, as testing's Goexit would.
type recorder struct {
	name    string
	log     *[]string
	parent  *recorder
	failed  bool
	skipped bool
}

type stopCheck struct{}

func (r *recorder) do(f func()) {
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(stopCheck); !ok {
				panic(p)
			}
		}
	}()
	f()
}

func (r *recorder) run(name string, f func(reporter)) bool {
	child := &recorder{name: r.name + "/" + name, log: r.log, parent: r}
	child.do(func() { f(child) })
	return !child.failed
}

func (r *recorder) Helper()                           {}
func (r *recorder) Name() string                      { return r.name }
func (r *recorder) Logf(string, ...any)               {}
func (r *recorder) Log(...any)                        {}
func (r *recorder) Skipf(string, ...any)              { r.SkipNow() }
func (r *recorder) Skip(...any)                       { r.SkipNow() }
func (r *recorder) SkipNow()                          { r.skipped = true; panic(stopCheck{}) }
func (r *recorder) Errorf(format string, args ...any) { r.record(fmt.Sprintf(format, args...)) }
func (r *recorder) Error(args ...any)                 { r.record(fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); panic(stopCheck{}) }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...); panic(stopCheck{}) }
func (r *recorder) FailNow()                          { r.Fail(); panic(stopCheck{}) }
func (r *recorder) Fail() {
	for p := r; p != nil; p = p.parent {
		p.failed = true
	}
}
func (r *recorder) Failed() bool { return r.failed }

func (r *recorder) record(msg string) {
	r.Fail()
	*r.log = append(*r.log, r.name+": "+strings.TrimRight(msg, "\n"))
}

func lookupFlag(name string) flag.Value {
	if f := flag.Lookup(name); f != nil {
		return f.Value
	}
	return nil
}
