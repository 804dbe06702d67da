package codecs_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	_ "github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
)

// TestDocumentedCodecsRegistered: every codec the package doc lists is
// registered by the blank import, under its name and aliases, and nothing
// else is.
func TestDocumentedCodecsRegistered(t *testing.T) {
	src, err := os.ReadFile("codecs.go")
	if err != nil {
		t.Fatal(err)
	}
	// Lines of the list look like "//	json     (alias raw)  codecs/json    ...".
	line := regexp.MustCompile(`(?m)^//\t(\w+) +(?:\(alias (\w+)\))? *codecs/\w+ `)
	var documented []string
	for _, m := range line.FindAllStringSubmatch(string(src), -1) {
		documented = append(documented, m[1])
		for _, name := range m[1:] {
			if name == "" {
				continue
			}
			if _, err := wire.Lookup(name); err != nil {
				t.Errorf("documented codec %q: %v", name, err)
			}
		}
	}
	if len(documented) == 0 {
		t.Fatal("found no codec list in the package doc")
	}
	var registered []string
	for _, info := range wire.List() {
		registered = append(registered, info.Name)
	}
	slices.Sort(documented)
	if !slices.Equal(documented, registered) {
		t.Errorf("documented %v, registered %v", documented, registered)
	}
}
