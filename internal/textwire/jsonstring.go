package textwire

import (
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// plainJSON[c] is true for the bytes a JSON string literal holds as they
// are: ASCII other than '"', '\\' and control characters.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// StringError is a bad JSON string literal: the offset in the input where
// the fault is, what is wrong, and whether the fault is only that the
// decoded string would pass the caller's bound.
type StringError struct {
	Off     int
	Msg     string
	TooLong bool
}

func (e *StringError) Error() string { return e.Msg }

// JSONString reads the JSON string literal whose opening quote is at
// data[start]. It returns the decoded text and the offset just past the
// closing quote. Invalid UTF-8 reads as U+FFFD, escapes as JSONUnescaping
// says; a control character is an error.
//
// When the literal has no escape and is valid UTF-8, the text shares the
// memory of src (data as a string, or "" to have it copied); otherwise it
// is a new string. max bounds the decoded length in bytes, checked as the
// text grows, so no allocation passes it: past it the error has TooLong
// set and Off at the opening quote.
func JSONString(data []byte, src string, start, max int) (string, int, *StringError) {
	i := start + 1
	// Fast path: no escapes, valid UTF-8.
	for i < len(data) {
		for i < len(data) && plainJSON[data[i]] {
			i++
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		if c == '"' {
			if i-start-1 > max {
				return "", 0, tooLong(start, max)
			}
			if src == "" {
				return string(data[start+1 : i]), i + 1, nil
			}
			return src[start+1 : i], i + 1, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
			continue
		}
		i++
	}
	return jsonStringSlow(data, start, i, max)
}

// jsonStringSlow continues JSONString at data[i], the first byte that
// needs more than a copy.
func jsonStringSlow(data []byte, start, i, max int) (string, int, *StringError) {
	if i-start-1 > max {
		return "", 0, tooLong(start, max)
	}
	// The decoded string is at most as long as the rest of the literal,
	// except where invalid bytes grow into U+FFFD; it is checked against
	// max as it grows, so the buffer need not be larger than max.
	end := i
	for end < len(data) && data[end] != '"' {
		if data[end] == '\\' {
			end++
		}
		end++
	}
	buf := make([]byte, i-start-1, min(min(end, len(data))-start, max)+8)
	copy(buf, data[start+1:i])
	for i < len(data) {
		if len(buf) > max {
			return "", 0, tooLong(start, max)
		}
		c := data[i]
		switch {
		case c == '"':
			// buf is not used again: the string may share its memory.
			return unsafe.String(unsafe.SliceData(buf), len(buf)), i + 1, nil
		case c < 0x20:
			return "", 0, &StringError{Off: i, Msg: "control character 0x" + strconv.FormatUint(uint64(c), 16) + " in string"}
		case c == '\\':
			// The escape is read from at most the next 12 bytes.
			n, r, err := JSONUnescaping.escape(unsafe.String(unsafe.SliceData(data[i:]), min(len(data)-i, 12)), 0)
			if err != nil {
				if i+1 >= len(data) {
					return "", 0, &StringError{Off: len(data), Msg: "unterminated string"}
				}
				return "", 0, &StringError{Off: i + err.Off, Msg: err.Msg + " in string"}
			}
			buf = utf8.AppendRune(buf, r)
			i += n
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				buf = append(buf, "\ufffd"...)
			} else {
				buf = append(buf, data[i:i+size]...)
			}
			i += size
		default:
			buf = append(buf, c)
			i++
		}
	}
	return "", 0, &StringError{Off: len(data), Msg: "unterminated string"}
}

func tooLong(start, max int) *StringError {
	return &StringError{Off: start, Msg: "a string longer than " + strconv.Itoa(max) + " bytes", TooLong: true}
}

// SkipJSONSpace returns the offset of the first byte of data at or after
// off that is not JSON whitespace (space, tab, LF, CR).
func SkipJSONSpace(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\n', '\r':
			off++
		default:
			return off
		}
	}
	return off
}
