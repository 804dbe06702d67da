package toon

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
)

// pathStep is one element of a path into the document: a key, or an
// index when index >= 0.
type pathStep struct {
	key   string
	index int
}

func keyStep(k string) pathStep { return pathStep{key: k, index: -1} }

func indexStep(i int) pathStep { return pathStep{index: i} }

func (s pathStep) isKey() bool { return s.index < 0 }

func pathString(path []pathStep) string {
	var b strings.Builder
	for i, s := range path {
		if !s.isKey() {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		switch {
		case len(s.key) > textwire.MaxExcerpt:
			b.WriteString(textwire.Excerpt(s.key))
		case toonwrite.PlainKey(s.key) && !strings.Contains(s.key, "."):
			b.WriteString(s.key)
		default:
			b.WriteString(strconv.Quote(s.key))
		}
	}
	return b.String()
}

// locate returns the line of the document where the value at path is (or
// the line of its nearest ancestor it can find), or 0. It follows the
// shape of a TOON document after a successful decode: keys at their
// indentation, array elements one per line one level deeper (table rows
// and "- " items alike), an item's first key on its "- " line. Indentation
// is toonvalue.DefaultIndentSize spaces per level, as Decode reads it. It reads the
// lines where they are, one at a time, and keeps none of them.
func locate(src []byte, path []pathStep) int {
	text := unsafe.String(unsafe.SliceData(src), len(src)) // read only
	text = strings.TrimPrefix(text, "\uFEFF")
	hasKey := func(content string, k []byte) bool {
		if !strings.HasPrefix(content, string(k)) {
			return false
		}
		rest := content[len(k):]
		return rest != "" && (rest[0] == ':' || rest[0] == '[')
	}
	from := locLine{next: 0, nextNum: 1, indent: -1} // the region is the lines after from, indented deeper
	indent := 0                                      // indentation of the keys or elements sought
	var item locLine                                 // the current "- " item, if haveItem
	haveItem := false
	found := 0
	var kbuf []byte
	for _, s := range path {
		var at locLine
		ok, onItem := false, false
		if s.isKey() {
			kbuf = toonwrite.AppendKey(kbuf[:0], s.key)
			if haveItem && hasKey(strings.TrimPrefix(item.text, "- "), kbuf) {
				at, ok, onItem = item, true, true
			}
		}
		n := 0
		for l, more := lineAt(text, from.next, from.nextNum); !ok && more && l.indent > from.indent; l, more = lineAt(text, l.next, l.nextNum) {
			if l.indent != indent {
				continue
			}
			switch {
			case s.isKey():
				ok = hasKey(l.text, kbuf)
			case n == s.index:
				ok = true
			default:
				n++
			}
			if ok {
				at = l
			}
		}
		if !ok {
			break
		}
		found = at.num
		// What the found line holds sits one level deeper; an item's keys
		// sit one level deeper than its "- ", and what they hold one more.
		indent = at.indent + toonvalue.DefaultIndentSize
		haveItem = false
		if !s.isKey() && strings.HasPrefix(at.text, "- ") {
			item, haveItem = at, true
		} else if onItem {
			indent += toonvalue.DefaultIndentSize
		}
		from = at
	}
	return found
}

// locLine is a line of a document as locate reads it: its number, its
// indentation and its text after it, and where the line after it starts.
type locLine struct {
	num, indent   int
	text          string
	next, nextNum int
}

// lineAt returns the first line at or after offset pos of text (line num)
// that is neither blank nor a comment, and false past the last.
func lineAt(text string, pos, num int) (locLine, bool) {
	for pos < len(text) {
		raw, end := text[pos:], len(text)
		if i := strings.IndexByte(raw, '\n'); i >= 0 {
			raw, end = raw[:i], pos+i+1
		}
		raw = strings.TrimSuffix(raw, "\r")
		content := strings.TrimLeft(raw, " ")
		if content != "" && content[0] != '#' {
			return locLine{num: num, indent: len(raw) - len(content), text: content, next: end, nextNum: num + 1}, true
		}
		pos, num = end, num+1
	}
	return locLine{}, false
}
