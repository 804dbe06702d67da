package toonread

// cells reads the values of a delimited row or inline array one at a
// time, splitting at unquoted delimiters (spec §11.2), so that no list of
// a line's cells is ever built: a line of millions of delimiters costs
// nothing before its count is checked.
type cells struct {
	s     string
	delim byte
	pos   int
	done  bool
}

func newCells(s string, delim byte) cells { return cells{s: s, delim: delim, done: s == ""} }

// next returns the next cell's span in s, spaces trimmed, or false after
// the last.
func (c *cells) next() (span, bool) {
	if c.done {
		return span{}, false
	}
	s := c.s
	inQuotes := false
	for i := c.pos; i < len(s); i++ {
		ch := s[i]
		if inQuotes {
			if ch == '\\' && i+1 < len(s) {
				i++
				continue
			}
			if ch == '"' {
				inQuotes = false
			}
			continue
		}
		if ch == '"' {
			inQuotes = true
			continue
		}
		if ch == c.delim {
			sp := trimSpan(s, c.pos, i)
			c.pos = i + 1
			return sp, true
		}
	}
	c.done = true
	return trimSpan(s, c.pos, len(s)), true
}

// countCells counts the cells of s, stopping once it has more than limit
// (limit < 0: no limit). It returns the count and, when it passes limit,
// the offset in s of the first cell past it.
func countCells(s string, delim byte, limit int) (n, past int) {
	c := newCells(s, delim)
	for {
		sp, ok := c.next()
		if !ok {
			return n, 0
		}
		n++
		if limit >= 0 && n > limit {
			return n, sp.start
		}
	}
}
