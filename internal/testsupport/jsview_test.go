package testsupport

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// TestJSView: JavaScript's view of a document rounds integers beyond 2^53
// to the nearest double, written as JavaScript writes it, and moves the
// keys that are array indices first, in ascending order, at every depth.
func TestJSView(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b":1,"10":2,"2":3,"-1":4,"01":5,"4294967295":6,"4294967294":7}`,
			`{"2":3,"10":2,"4294967294":7,"b":1,"-1":4,"01":5,"4294967295":6}`},
		{`[9007199254740993,-9007199254740993,9223372036854775807,9007199254740992,1.5,1e300]`,
			`[9007199254740992,-9007199254740992,9223372036854776000,9007199254740992,1.5,1e+300]`},
		{`{"a":[{"1":true,"0":null}]}`, `{"a":[{"0":null,"1":true}]}`},
	} {
		v, err := jsonvalue.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := jsonvalue.Append(nil, JSView(v))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("JSView(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
