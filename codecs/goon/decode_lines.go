package goon

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// lineRules are GOON's lines: no indentation, a final newline required.
var lineRules = textwire.LineRules{FinalNewline: true}

// next reads the next line into p.cur and p.line; false at the end.
func (p *parser) next() bool {
	if !p.lines.Next() {
		return false
	}
	p.cur, p.line = p.lines.Line.Text, p.lines.Line.Num
	return true
}

// body reads the next line of the current section; false at its end,
// with the next marker in p.cur ("" at the end of the input).
func (p *parser) body() (bool, error) {
	if !p.next() {
		p.cur = ""
		return false, nil
	}
	if p.cur == "" {
		return false, p.errf("blank line")
	}
	if p.cur[0] == '@' {
		return false, nil
	}
	return true, nil
}

// eachLine calls line for each line of the section (in p.cur) until an
// error.
func (p *parser) eachLine(line func() error) error {
	for {
		ok, err := p.body()
		if err != nil || !ok {
			return err
		}
		if err := line(); err != nil {
			return err
		}
	}
}

// groupKind words the errors of a section of groups.
type groupKind struct {
	header string // what a group line should be: "a node group Type(count):"
	orphan string // the error for a line before any group
	items  string // what a group counts: "rows", "edges"
}

// grouped reads a section of Name(n): groups, parsing each of a group's n
// lines with its name and adding the result.
func grouped[T any](p *parser, k *groupKind, parse func(typ string) (T, error), add func(T) error) error {
	typ, declared, left := "", 0, 0
	err := p.eachLine(func() error {
		if strings.HasSuffix(p.cur, "):") { // a group line
			if left > 0 {
				return p.groupEnds(typ, declared, left, k.items)
			}
			name, n, ok := p.group()
			if !ok {
				return p.errf("expected " + k.header + ", found " + textwire.Excerpt(p.cur))
			}
			if err := p.checkString(len(name), "type name"); err != nil {
				return err
			}
			typ, declared, left = name, n, n
			return nil
		}
		if left == 0 {
			if typ == "" {
				return p.errf(k.orphan)
			}
			return p.errf("more " + k.items + " than group " + textwire.Clip(typ) + " declares")
		}
		left--
		x, err := parse(typ)
		if err != nil {
			return err
		}
		return add(x)
	})
	if err != nil {
		return err
	}
	if left > 0 {
		return p.groupEnds(typ, declared, left, k.items)
	}
	return nil
}

// group parses a group line Name(n): and returns the name and count.
func (p *parser) group() (string, int, bool) {
	open := strings.IndexByte(p.cur, '(')
	if open < 0 || !strings.HasSuffix(p.cur, "):") {
		return "", 0, false
	}
	name := p.cur[:open]
	n, ok := parseInt(p.cur[open+1 : len(p.cur)-2])
	if !isName(name) || !ok || n < 1 {
		return "", 0, false
	}
	return name, int(min(n, math.MaxInt32)), true
}

// descriptor splits name(inner).
func descriptor(s string) (name, inner string, ok bool) {
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return "", "", false
	}
	return s[:open], s[open+1 : len(s)-1], isName(s[:open])
}

// parsePairs parses "key=value ..." into p.pairs; with spaced every pair
// follows a space.
func (p *parser) parsePairs(s string, spaced bool, maxPairs int) error {
	// A pair has an '=' and takes four bytes at least: both bound the
	// room reserved at once.
	if n := min(strings.Count(s, "="), len(s)/4+1, maxPairs); n > cap(p.pairs) {
		p.pairs = make([]pair, 0, n)
	}
	p.pairs = p.pairs[:0]
	for i := 0; i < len(s); {
		if spaced || i > 0 {
			if s[i] != ' ' {
				return p.errf("expected a space before the next key=value, found " + quoteByte(s[i]))
			}
			i++
		}
		k := i
		for i < len(s) && nameByte[s[i]] {
			i++
		}
		if i == k {
			if i < len(s) {
				return p.errf("expected a key, found " + quoteByte(s[i]))
			}
			return p.errf("expected a key at the end of the line")
		}
		if i == len(s) || s[i] != '=' {
			return p.errf("expected '=' after key " + textwire.Clip(s[k:i]))
		}
		pr := pair{key: s[k:i]}
		i++
		if i < len(s) && s[i] == '"' {
			text, n, err := p.unquote(s[i:])
			if err != nil {
				return err
			}
			pr.text, pr.quoted = text, true
			i += n
			if i < len(s) && s[i] != ' ' {
				return p.errf("expected a space after the quoted value of " + textwire.Clip(pr.key) + ", found " + quoteByte(s[i]))
			}
		} else {
			v := i
			for i < len(s) && s[i] != ' ' {
				if !bareByte[s[i]] {
					return p.errf("unexpected " + quoteByte(s[i]) + " in the bare value of " + textwire.Clip(pr.key) + " (such values are quoted)")
				}
				i++
			}
			if i == v {
				return p.errf("expected a value after " + textwire.Clip(pr.key) + "=")
			}
			pr.text = s[v:i]
		}
		if err := p.checkString(len(pr.key), "key"); err != nil {
			return err
		}
		// A bare number is no string.
		if len(pr.text) > p.lim.MaxStringBytes && (pr.quoted || bareValue(pr.text).Kind() == wire.KindString) {
			return p.checkString(len(pr.text), "value of "+textwire.Clip(pr.key))
		}
		if len(p.pairs) == maxPairs {
			return p.limitErr("MaxElements", "more than "+strconv.Itoa(maxPairs)+" key=value pairs on one line (the limit)")
		}
		p.pairs = append(p.pairs, pr)
	}
	return nil
}

// unquote reads a quoted value at the start of s: its text and the bytes
// it took, allocating only for escapes.
func (p *parser) unquote(s string) (string, int, error) {
	end, escaped := 1, false
	for ; end < len(s); end++ {
		c := s[end]
		if c == '"' {
			break
		}
		if c == '\\' {
			escaped = true
			end++ // the escaped byte, checked below
			continue
		}
		if c < 0x20 || c == 0x7f {
			return "", 0, p.errf("control character " + quoteByte(c) + " in a quoted value")
		}
	}
	if end >= len(s) {
		return "", 0, p.errf("unterminated quoted value")
	}
	if !escaped {
		return s[1:end], end + 1, nil
	}
	p.escaped = true
	b, err := textwire.GOONUnescaping.Unescape(p.text.take(end - 1)[:0], s[1:end])
	if err != nil {
		return "", 0, p.errf(err.Msg)
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), end + 1, nil
}
