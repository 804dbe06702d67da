package toon

import (
	"errors"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

func TestParseJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":1,"a":[true,null,"x"],"b":2}`, `{"b":2,"a":[true,null,"x"]}`},
		{`"\ud83d\udc4b \u00e9 \ud800 \/"`, `"👋 é ` + "\uFFFD" + ` /"`},
		{` [ -0 , 1.0 , 1e2 , 9223372036854775807 , 9223372036854775808 ] `, `[0,1,100,9223372036854775807,9223372036854776000]`},
		{`"a\u0000\b\f"`, `"a\u0000\b\f"`},
	}
	for _, tt := range tests {
		v, err := ParseJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("ParseJSON(%s): %v", tt.in, err)
			continue
		}
		if got := jsonOf(t, v); got != tt.want {
			t.Errorf("ParseJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `1e400`, `"\x"`, `"abc`, `tru`, `{} x`, "\"a\x01\""} {
		_, err := ParseJSON([]byte(bad))
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Line != 0 {
			t.Errorf("ParseJSON(%q) = %v; want a *wire.DecodeError with an offset", bad, err)
		}
	}
}

func TestFromJSONToJSON(t *testing.T) {
	text, err := FromJSON([]byte(`{"users":[{"id":1,"name":"Ada"},{"name":"Bob","id":2}]}`), EncodeOptions{Delimiter: Tab})
	if err != nil {
		t.Fatal(err)
	}
	if want := "users[2\t]{id\tname}:\n  1\tAda\n  2\tBob"; string(text) != want {
		t.Errorf("FromJSON = %q, want %q", text, want)
	}
	js, err := ToJSON(text, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}]}`; string(js) != want {
		t.Errorf("ToJSON = %s, want %s", js, want)
	}
}
