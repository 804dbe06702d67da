package toonread

import (
	"math"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/internal/textwire"
)

// header is a parsed array or keyed header (spec §6).
type header struct {
	key       string
	hasKey    bool
	length    int
	delim     byte
	keyed     bool
	fields    []hfield // nil: no fields segment
	leaves    int
	inline    string // content after the colon, trimmed
	inlineOff int    // its offset in d.src
	room      int    // see Header.Room
}

// header parses c (at offset coff of d.src) as an array header, or
// reports false (lenient mode: for a malformed one too, read as a
// key-value line).
func (d *decoder) header(l *textwire.Line, c string, coff int) (header, bool) {
	h, reason, roff := d.parseHeader(l, c, coff)
	if reason != "" && reason != notHeader && d.strict {
		d.fail(l, coff+roff, "%s", reason)
	}
	return h, reason == ""
}

const notHeader = "\x00not a header"

// parseHeader returns reason "" for a header, notHeader for a line that
// is not one, or why a header-shaped line is malformed and where.
func (d *decoder) parseHeader(l *textwire.Line, c string, coff int) (h header, reason string, roff int) {
	var bracketStart int
	if strings.HasPrefix(c, `"`) {
		q := closingQuote(c, 0)
		if q < 0 || q+1 >= len(c) || c[q+1] != '[' {
			return h, notHeader, 0
		}
		bracketStart = q + 1
	} else {
		bracketStart = unquotedIndex(c, '[', 0)
	}
	if bracketStart < 0 {
		return h, notHeader, 0
	}
	if colon := unquotedIndex(c, ':', 0); colon < 0 || colon < bracketStart {
		return h, notHeader, 0
	}
	bracketEnd := unquotedIndex(c, ']', bracketStart)
	if bracketEnd < 0 {
		return h, "unterminated bracket segment in array header", bracketStart
	}
	braceStart, braceEnd := -1, bracketEnd+1
	if bs := unquotedIndex(c, '{', bracketEnd); bs >= 0 && bs < unquotedIndex(c, ':', bracketEnd) {
		if bs != bracketEnd+1 {
			return h, "unexpected content between the bracket segment and the field list", bracketEnd + 1
		}
		braceStart = bs
	}
	// The bracket segment: length, keyed marker, delimiter.
	seg := c[bracketStart+1 : bracketEnd]
	h.delim = ','
	if strings.HasSuffix(seg, "\t") {
		h.delim, seg = '\t', seg[:len(seg)-1]
	} else if strings.HasSuffix(seg, "|") {
		h.delim, seg = '|', seg[:len(seg)-1]
	}
	if strings.HasSuffix(seg, ":") {
		h.keyed, seg = true, seg[:len(seg)-1]
	}
	n, ok := parseLength(seg)
	if !ok {
		return h, "invalid array length " + textwire.Excerpt(c[bracketStart:bracketEnd+1]) + " (expected a non-negative integer without leading zeros)", bracketStart
	}
	h.length = n
	if braceStart >= 0 {
		fields, end, msg, moff := d.fields(l, c, braceStart, h.delim)
		if msg != "" {
			return h, msg, moff
		}
		if bad := mismatchedDelimiter(c[braceStart+1:end-1], h.delim); bad != 0 {
			return h, "header delimiter mismatch: the bracket declares " + strconv.Quote(string(h.delim)) + " but the field list contains an unquoted " + strconv.Quote(string(bad)), braceStart
		}
		h.fields, braceEnd = fields, end
		h.leaves = countLeaves(fields)
	}
	colon := unquotedIndex(c, ':', max(bracketEnd, braceEnd))
	if colon < 0 {
		return h, "missing colon after array header", len(c)
	}
	if colon != max(bracketEnd+1, braceEnd) {
		return h, "unexpected content between the array header and its colon", max(bracketEnd+1, braceEnd)
	}
	if bracketStart > 0 {
		raw := c[:bracketStart]
		if last := raw[len(raw)-1]; last == ' ' || last == '\t' {
			return h, "unexpected whitespace between key and bracket segment", bracketStart - 1
		}
		h.hasKey = true
		if raw[0] == '"' {
			h.key = d.quoted(l, raw, coff)
		} else {
			h.key = raw
		}
	}
	h.inline, h.inlineOff = trimSpacesOff(c, colon+1)
	h.inlineOff += coff
	if h.keyed && h.fields == nil {
		return h, "a keyed header requires a field list", bracketEnd + 1
	}
	if h.fields != nil && h.inline != "" {
		return h, "unexpected content after a header with a field list", colon + 1
	}
	return h, "", 0
}

// parseLength parses a bracket length, 0 or [1-9][0-9]*, saturating.
func parseLength(s string) (int, bool) {
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		if n > (math.MaxInt-9)/10 {
			n = math.MaxInt
			continue
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func mismatchedDelimiter(s string, active byte) byte {
	for _, c := range []byte{',', '\t', '|'} {
		if c != active && unquotedIndex(s, c, 0) >= 0 {
			return c
		}
	}
	return 0
}

// keyToken returns the key at the start of c and the index past its colon.
func (d *decoder) keyToken(l *textwire.Line, c string, coff int) (string, int) {
	if strings.HasPrefix(c, `"`) {
		q := closingQuote(c, 0)
		if q < 0 {
			d.fail(l, coff, "unterminated quoted key")
		}
		key := d.unescape(l, c[1:q], coff+1)
		p := q + 1
		for p < len(c) && c[p] == ' ' {
			p++
		}
		if p >= len(c) || c[p] != ':' {
			d.fail(l, coff+p, "missing colon after key")
		}
		return key, p + 1
	}
	colon := unquotedIndex(c, ':', 0)
	if colon < 0 {
		d.fail(l, coff+len(c), "missing colon after key %s", textwire.Excerpt(c))
	}
	return strings.Trim(c[:colon], " "), colon + 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
