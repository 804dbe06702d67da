package testsupport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// fatalRecorder is a Fataler that records the first failure and stops
// the check there, as t.Fatalf does.
type fatalRecorder struct{ msg string }

func (*fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}

func (f *fatalRecorder) check(data []byte, decode, generic func([]byte) (*wire.GraphResponse, error)) {
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
	}()
	ReadsAsGeneric(f, data, decode, generic)
}

// TestReadsAsGenericNamesEachDifference: a response that differs under
// wire.Exact, and one that differs only in Go terms (an empty list where
// the generic path has none), each fail with their own message; the same
// response passes.
func TestReadsAsGenericNamesEachDifference(t *testing.T) {
	resp := func(nodes []wire.Node, v wire.Value) func([]byte) (*wire.GraphResponse, error) {
		return func([]byte) (*wire.GraphResponse, error) {
			return &wire.GraphResponse{QueryType: wire.Search, Nodes: nodes, Columns: []wire.Column{}, Rows: []wire.Row{{{Name: "c", Value: v}}}}, nil
		}
	}
	generic := resp(nil, wire.Int(1))
	for _, tc := range []struct {
		name   string
		decode func([]byte) (*wire.GraphResponse, error)
		want   string
	}{
		{"same", resp(nil, wire.Int(1)), ""},
		{"another value", resp(nil, wire.Float(1)), "Decode differs from the generic path (-generic +Decode)"},
		{"empty, not nil", resp([]wire.Node{}, wire.Int(1)), "Decode differs from the generic path in Go terms"},
	} {
		var f fatalRecorder
		f.check([]byte("x"), tc.decode, generic)
		if (tc.want == "") != (f.msg == "") || !strings.Contains(f.msg, tc.want) {
			t.Errorf("%s: failure %q, want one containing %q", tc.name, f.msg, tc.want)
		}
	}
}
