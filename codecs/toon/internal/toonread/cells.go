package toonread

// cells reads the values of a delimited row or inline array one at a
// time, splitting at unquoted delimiters (spec §11.2).
type cells struct {
	s     string
	delim byte
	pos   int
	done  bool
}

// reset sets c to read the cells of s, field by field (see line.set).
func (c *cells) reset(s string, delim byte) {
	c.s, c.delim, c.pos, c.done = s, delim, 0, s == ""
}

// next returns the next cell's span in s, spaces trimmed, or false after
// the last; a cell with a quote is read again by scan.
func (c *cells) next() (span, bool) {
	if c.done {
		return span{}, false
	}
	s, i := c.s, c.pos
	for i < len(s) && s[i] == ' ' {
		i++
	}
	start := i
	for ; i < len(s) && s[i] != c.delim; i++ {
		if s[i] == '"' {
			return c.scan()
		}
	}
	end := i
	for end > start && s[end-1] == ' ' {
		end--
	}
	if i == len(s) {
		c.done = true
	} else {
		c.pos = i + 1
	}
	return span{start, end}, true
}

func (c *cells) scan() (span, bool) {
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
			sp := trimSpan(s[:i], c.pos)
			c.pos = i + 1
			return sp, true
		}
	}
	c.done = true
	return trimSpan(s, c.pos), true
}

// countCells counts the cells of s up to one past limit (< 0: none) and
// returns the count and the offset of a cell past limit.
func countCells(s string, delim byte, limit int) (n, past int) {
	var c cells
	c.reset(s, delim)
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

// trimSpan is the span of s[from:] without surrounding spaces.
func trimSpan(s string, from int) span {
	t, i := trimSpacesOff(s, from)
	return span{i, i + len(t)}
}
