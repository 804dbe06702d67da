package jsonvalue

import (
	"errors"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

func TestParse(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":1,"a":[true,null,"x"],"b":2}`, `{"b":2,"a":[true,null,"x"]}`},
		{`"\ud83d\udc4b \u00e9 \ud800 \/"`, `"👋 é ` + "\uFFFD" + ` /"`},
		{` [ -0 , 1.0 , 1e2 , 9223372036854775807 , 9223372036854775808 ] `, `[0,1,100,9223372036854775807,9223372036854776000]`},
		{`"a\u0000\b\f"`, `"a\u0000\b\f"`},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.in))
		if err != nil {
			t.Errorf("Parse(%s): %v", tt.in, err)
			continue
		}
		b, err := Append(nil, v)
		if err != nil {
			t.Errorf("Append(Parse(%s)): %v", tt.in, err)
			continue
		}
		if got := string(b); got != tt.want {
			t.Errorf("Parse(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `1e400`, `"\x"`, `"abc`, `tru`, `{} x`, "\"a\x01\""} {
		_, err := Parse([]byte(bad))
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Line != 0 {
			t.Errorf("Parse(%q) = %v; want a *wire.DecodeError with an offset", bad, err)
		}
	}
}
