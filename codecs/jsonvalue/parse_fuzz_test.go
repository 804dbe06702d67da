package jsonvalue

import (
	gojson "encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// FuzzParse: Parse accepts exactly the documents encoding/json finds
// valid, but for nesting past its bound and numbers past float64's range,
// which it refuses; a refusal is a *wire.DecodeError inside the input;
// and what it accepts, written by Append, parses back to an equal value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null,"x"],"b":2}`, `"\ud83d\udc4b \u00e9 \ud800 \/"`,
		` [ -0 , 1.0 , 1e2 , 9223372036854775808 ] `, `{"a":{"b":[{}]}}`, `1e400`, `[1,]`, "\"a\xff\"", `{"a" 1}`,
		strings.Repeat("[", 1001) + strings.Repeat("]", 1001)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Offset < 0 || de.Offset > int64(len(data)) {
				t.Fatalf("Parse(%q): %v, want a *wire.DecodeError inside the input", data, err)
			}
			bounded := de.Limit == "MaxDepth" || strings.Contains(de.Msg, "out of the float64 range")
			if gojson.Valid(data) && !bounded {
				t.Fatalf("Parse(%q) refuses what encoding/json accepts: %v", data, err)
			}
			return
		}
		if !gojson.Valid(data) {
			t.Fatalf("Parse(%q) accepts what encoding/json refuses", data)
		}
		b, err := Append(nil, v)
		if err != nil {
			t.Fatalf("Append(Parse(%q)): %v", data, err)
		}
		w, err := Parse(b)
		if err != nil || !Equal(v, w) {
			t.Fatalf("Parse(Append(Parse(%q))) = %s, %v; want the same value", data, b, err)
		}
	})
}
