package toonvalue

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
)

type fixtureCase struct {
	file, name  string
	category    string
	input       jsonvalue.Value
	expected    jsonvalue.Value
	shouldError bool
	options     *jsonvalue.Object
}

func loadFixtures(t *testing.T, dir string) []fixtureCase {
	t.Helper()
	var files []string
	for _, cat := range []string{"encode", "decode"} {
		m, err := filepath.Glob(filepath.Join(dir, cat, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	var cases []fixtureCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonvalue.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		root := doc.(*jsonvalue.Object)
		cat, _ := root.Get("category")
		tests, _ := root.Get("tests")
		for _, tv := range tests.([]jsonvalue.Value) {
			tc := tv.(*jsonvalue.Object)
			c := fixtureCase{file: filepath.Base(filepath.Dir(f)) + "-" + strings.TrimSuffix(filepath.Base(f), ".json"), category: cat.(string)}
			name, _ := tc.Get("name")
			c.name = name.(string)
			c.input, _ = tc.Get("input")
			c.expected, _ = tc.Get("expected")
			if se, ok := tc.Get("shouldError"); ok {
				c.shouldError = se.(bool)
			}
			if o, ok := tc.Get("options"); ok {
				c.options = o.(*jsonvalue.Object)
			}
			cases = append(cases, c)
		}
	}
	return cases
}

// fixtureOptions reads a fixture's options: delimiter and indentSize
// for an encode, strict and indentSize for a decode.
func fixtureOptions(t *testing.T, o *jsonvalue.Object) (EncodeOptions, DecodeOptions) {
	var enc EncodeOptions
	var dec DecodeOptions
	for _, m := range o.Members {
		switch m.Key {
		case "delimiter":
			enc.Delimiter = Delimiter(m.Value.(string)[0])
		case "strict":
			dec.Lenient = !m.Value.(bool)
		case "indentSize":
			n, _ := m.Value.(jsonvalue.Number).Int64()
			enc.IndentSize, dec.IndentSize = int(n), int(n)
		default:
			t.Fatalf("unknown option %q", m.Key)
		}
	}
	return enc, dec
}

// TestConformance runs every case of the TOON spec v4.0 fixtures: encode
// cases must produce the expected text byte for byte, decode cases the
// expected value (numbers by value, key order kept), error cases a
// positioned *wire.DecodeError.
func TestConformance(t *testing.T) {
	dir := testsupport.Dir(t, testsupport.SpecEnv)
	cases := loadFixtures(t, dir)
	counts := map[string]int{}
	for _, c := range cases {
		counts[c.category]++
		if c.shouldError {
			counts["error"]++
		}
		t.Run(c.file+"/"+c.name, func(t *testing.T) {
			if c.options == nil {
				c.options = &jsonvalue.Object{}
			}
			enc, dec := fixtureOptions(t, c.options)
			switch c.category {
			case "encode":
				got, err := Marshal(c.input, enc)
				if err != nil {
					t.Fatalf("Marshal: %v", err)
				}
				if want := c.expected.(string); string(got) != want {
					t.Errorf("Marshal mismatch\nwant:\n%s\ngot:\n%s", want, got)
				}
			case "decode":
				got, err := Unmarshal([]byte(c.input.(string)), dec)
				if c.shouldError {
					var de *wire.DecodeError
					if !errors.As(err, &de) {
						t.Fatalf("Unmarshal(%q) = %s, %v; want a *wire.DecodeError", c.input, jsonOf(t, got), err)
					}
					if de.Line < 1 || !strings.HasPrefix(err.Error(), "toon: line ") {
						t.Errorf("error %q has no line", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("Unmarshal(%q): %v", c.input, err)
				}
				if !jsonvalue.Equal(c.expected, got) {
					t.Errorf("Unmarshal(%q)\nwant %s\ngot  %s", c.input, jsonOf(t, c.expected), jsonOf(t, got))
				}
			default:
				t.Fatalf("unknown category %q", c.category)
			}
		})
	}
	if len(cases) != 516 || counts["encode"] != 173 || counts["decode"] != 343 || counts["error"] != 79 {
		t.Errorf("fixture counts: %d cases, %v; want 516 (173 encode, 343 decode, 79 error)", len(cases), counts)
	}
}

func jsonOf(t *testing.T, v jsonvalue.Value) string {
	t.Helper()
	b, err := jsonvalue.Append(nil, v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}
