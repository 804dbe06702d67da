package gcfvalue_test

import (
	"testing"

	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
)

// TestInlineSchemaQuotedDelimiter: an inline object schema (spec §7.4.5.1)
// whose quoted field names hold the row delimiter '|' or the closing brace
// is one cell, as the TypeScript SDK writes it; a broken quote inside it
// is an error, not a hang.
func TestInlineSchemaQuotedDelimiter(t *testing.T) {
	for text, want := range map[string]string{
		"GCF profile=generic\n## [1]{o,x}\n@0 ^{\"a|b\",c}|5\n1|2\n":         `[{"o":{"a|b":1,"c":2},"x":5}]`,
		"GCF profile=generic\n## [1]{x,o}\n@0 5|^{\"}|\",\"\"}\n-|\"q|r\"\n": `[{"x":5,"o":{"}|":null,"":"q|r"}}]`,
		// A bare string that starts with ^{ but is no schema is a cell of
		// its own: ^{ and ^{a and b} are strings.
		"GCF profile=generic\n## [2:]{key,v}\n^{|1\nk|2\n": `{"^{":{"v":1},"k":{"v":2}}`,
		"GCF profile=generic\n## [1]{a,b}\n^{a|b}\n":       `[{"a":"^{a","b":"b}"}]`,
	} {
		v, err := gcfvalue.Unmarshal([]byte(text))
		if err != nil {
			t.Errorf("Unmarshal(%q): %v", text, err)
			continue
		}
		if got := jsonOf(v); got != want {
			t.Errorf("Unmarshal(%q) = %s, want %s", text, got, want)
		}
	}
	for _, text := range []string{
		"GCF profile=generic\n## [1]{o,x}\n@0 ^{\"a|b,c}|5\n1|2\n",
		"GCF profile=generic\n## [1]{o,x}\n@0 ^{\"a\\q\",c}|5\n1|2\n",
	} {
		if v, err := gcfvalue.Unmarshal([]byte(text)); err == nil {
			t.Errorf("Unmarshal(%q) = %s, want an error", text, jsonOf(v))
		}
	}
}
