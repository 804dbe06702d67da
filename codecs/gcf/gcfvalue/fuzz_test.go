package gcfvalue_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	"github.com/graphwire/graphwire/wire"
)

// fuzzSeeds are hand-written documents for FuzzDecode, beside the GCF
// texts of the conformance suite when GCF_SPEC_DIR is set.
var fuzzSeeds = []string{
	"GCF profile=generic\n",
	"GCF profile=generic\n=-\n",
	"GCF profile=generic\na=1\nb=\"x|y\"\n## c\n  d[2]: 1,\"2\"\n",
	"GCF profile=generic\n## [2]{id,\"c>n\",t}\n@0 1|x|^\n.t [1]{a}\n    1\n@1 2|~|^\n.t [1]\n    2\n",
	"GCF profile=generic\n## o [1]{id,c,i}\n@0 1|^{a,b,c}|^\n1|2|3\n.i [0]\n",
	"GCF profile=generic\n## [2:]{key,a}\n@0 k|1\n.\"x>y\" =2\n@1 l|~\n",
	"GCF profile=generic\n## a [?]{x}\n1\n##! summary counts=1\n",
	"GCF profile=generic\n## a [3]\n@0 =x\n@1 {}\n  b=1\n@2 [1]: -\n",
	"GCF profile=generic key=id\n## s [1]{@id,v}\n1|2\n",
}

func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	if dir := os.Getenv("GCF_SPEC_DIR"); dir != "" {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var fx map[string]json.RawMessage
			if json.Unmarshal(data, &fx) != nil {
				return nil
			}
			for _, k := range []string{"input", "expected"} {
				var s string
				if json.Unmarshal(fx[k], &s) == nil && strings.HasPrefix(s, "GCF ") {
					f.Add([]byte(s))
				}
			}
			return nil
		})
	}
	lim := wire.Limits{MaxInputBytes: 1 << 20, MaxElements: 10_000, MaxStringBytes: 1 << 16}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := gcfvalue.Decode(data, gcfvalue.Options{Limits: lim})
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) || de.Line < 1 || len(err.Error()) > 300 || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("bad error %q (%T)", err, err)
			}
			return
		}
		text, err := gcfvalue.Encode(v, gcfvalue.Options{Limits: lim})
		if err != nil {
			if gcfvalue.ErrorKind(err) == gcfvalue.KindUnsupported {
				return // a value the spec gives no form (see the package doc)
			}
			t.Fatalf("a decoded value does not encode: %v\n%q", err, data)
		}
		back, err := gcfvalue.Decode(text, gcfvalue.Options{Limits: lim})
		if err != nil {
			t.Fatalf("the encoding of a decoded value does not decode: %v\n%s", err, text)
		}
		if d := cmp.Diff(norm(v), norm(back)); d != "" {
			t.Fatalf("decode(encode(v)) != v (-v +back):\n%s\nfrom %q\nvia %q", d, data, text)
		}
		again, err := gcfvalue.Encode(back, gcfvalue.Options{Limits: lim})
		if err != nil || string(again) != string(text) {
			t.Fatalf("encoding is not stable: %q then %q (%v)", text, again, err)
		}
	})
}
