package wiretest

import (
	"fmt"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// check runs the checks of c.RunCodec on a recorder, and returns an error
// listing every failure, or nil: the harness's tests run it on codecs it
// must fail.
func (c Config) check(codec wire.Codec) error {
	name := codec.Info().Name
	rec := &recorder{name: "wiretest-" + name, log: new([]string)}
	rec.do(func() { c.runCodec(rec, codec) })
	if !rec.failed {
		return nil
	}
	return fmt.Errorf("wiretest: codec %q fails:\n%s", name, strings.Join(*rec.log, "\n"))
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
