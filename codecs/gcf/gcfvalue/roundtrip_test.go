package gcfvalue_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// genValue generates JSON values whose shapes exercise the encoder's
// choices: tables over objects sharing keys, flattenable nested objects,
// keyed maps, keys that need quoting or hold '>', strings that look like
// other tokens.
func genValue(depth int) *rapid.Generator[jsonvalue.Value] {
	keys := rapid.SampledFrom([]string{"a", "b", "c", "id", "key", "_key", "", "x>y", ">", "a b", "9", "é"})
	strs := rapid.SampledFrom([]string{"", "-", "~", "^", "^{a}", "true", "1", "01", "-1.5", ".5", "+1", "a|b", "a,b",
		" x", "x ", "#c", "@h", ".d", "[1]: x", "q\"t", "back\\", "tab\t", "nl\n", "ü", "\u00a0", "plain text", "null"})
	return rapid.Custom(func(t *rapid.T) jsonvalue.Value {
		kind := rapid.IntRange(0, 9).Draw(t, "kind")
		if depth <= 0 {
			kind = rapid.IntRange(0, 4).Draw(t, "leaf")
		}
		switch kind {
		case 0:
			return nil
		case 1:
			return rapid.Bool().Draw(t, "bool")
		case 2:
			return jsonvalue.Int(rapid.Int64().Draw(t, "int"))
		case 3:
			return jsonvalue.Float(rapid.SampledFrom([]float64{0.5, -2.25, 1e-7, 1e21, 3.14, 1e300, 2.0, 9007199254740992}).Draw(t, "float"))
		case 4:
			return strs.Draw(t, "string")
		case 5, 6:
			// an array of objects drawn from few keys: tables
			n := rapid.IntRange(0, 4).Draw(t, "rows")
			out := make([]jsonvalue.Value, n)
			for i := range out {
				out[i] = genObject(t, keys, depth-1)
			}
			return out
		case 7:
			n := rapid.IntRange(0, 4).Draw(t, "items")
			out := make([]jsonvalue.Value, n)
			for i := range out {
				out[i] = genValue(depth-1).Draw(t, "item")
			}
			return out
		default:
			return genObject(t, keys, depth-1)
		}
	})
}

func genObject(t *rapid.T, keys *rapid.Generator[string], depth int) *jsonvalue.Object {
	n := rapid.IntRange(0, 4).Draw(t, "members")
	o := &jsonvalue.Object{}
	for range n {
		k := keys.Draw(t, "key")
		if _, dup := o.Get(k); dup {
			continue
		}
		o.Add(k, genValue(depth).Draw(t, "value"))
	}
	return o
}

// TestRoundTripGenerated: decode(encode(v)) == v for generated values, and
// encoding the decoded value gives the same bytes.
func TestRoundTripGenerated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := genValue(4).Draw(t, "v")
		text, err := gcfvalue.Marshal(v)
		if err != nil {
			if gcfvalue.ErrorKind(err) == gcfvalue.KindUnsupported {
				t.Skip("a value the spec gives no form")
			}
			t.Fatalf("encode: %v", err)
		}
		back, err := gcfvalue.Unmarshal(text)
		if err != nil {
			t.Fatalf("decode: %v\n%s", err, text)
		}
		if d := cmp.Diff(norm(v), norm(back)); d != "" {
			t.Fatalf("round trip differs (-v +back):\n%s\n%s", d, text)
		}
		again, err := gcfvalue.Marshal(back)
		if err != nil || string(again) != string(text) {
			t.Fatalf("re-encoding differs:\n%s\n%s", text, again)
		}
	})
}
