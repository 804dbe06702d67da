package toon

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonread"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/internal/textwire"
)

// pathStep is one element of a path into the document: a key, or an
// index when Index >= 0.
type pathStep = toonread.Step

func keyStep(k string) pathStep { return pathStep{Key: k, Index: -1} }

func indexStep(i int) pathStep { return pathStep{Index: i} }

func pathString(path []pathStep) string {
	var b strings.Builder
	for i, s := range path {
		if s.Index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.Index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		switch {
		case len(s.Key) > textwire.MaxExcerpt:
			b.WriteString(textwire.Excerpt(s.Key))
		case toonwrite.PlainKey(s.Key) && !strings.Contains(s.Key, "."):
			b.WriteString(s.Key)
		default:
			b.WriteString(strconv.Quote(s.Key))
		}
	}
	return b.String()
}
