package fit

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"unicode"
	"unicode/utf8"

	"github.com/graphwire/graphwire/tokens"
)

// Segments splits text where the o200k and cl100k pre-tokenizers always
// start a new piece, so that the token count of text is the sum of the
// counts of its segments:
//
//   - after every line end ("\n"), when no line of text is blank or holds
//     only white space (such a line lets one piece of white space span
//     two line ends);
//   - inside a line longer than LongLine bytes, also before each ASCII
//     digit that follows an ASCII punctuation character: no piece of
//     either pre-tokenizer holds a digit together with a character that is
//     neither a digit nor a letter (white space aside), and none looks
//     behind its start. Compact JSON is one long line; this is what lets
//     it be priced in parts.
//
// Where a segment ends depends only on the bytes around it, so a line
// that occurs in two texts is cut the same way in both. Segments calls
// yield with each segment in order; they concatenate to text. It reports
// false, and yields nothing, when a line of text (other than an empty last
// one) is blank or white space only: such a text is counted whole. The
// package tests check the property on every corpus case, every text codec
// and both tokenizers.
func Segments(text []byte, yield func(seg []byte)) bool {
	if hasBlankLine(text) {
		return false
	}
	for len(text) > 0 {
		end := bytes.IndexByte(text, '\n') + 1
		if end == 0 {
			end = len(text)
		}
		line := text[:end]
		text = text[end:]
		if len(line) <= LongLine {
			yield(line)
			continue
		}
		start := 0
		for i := 1; i < len(line); i++ {
			if c := line[i]; '0' <= c && c <= '9' && isASCIIPunct(line[i-1]) && i > start {
				yield(line[start:i])
				start = i
			}
		}
		yield(line[start:])
	}
	return true
}

// LongLine is the length above which Segments also cuts inside a line.
const LongLine = 256

func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

// hasBlankLine reports whether a line of text (ended by "\n", or the last
// one, when it is not empty) is empty or holds only white space.
func hasBlankLine(text []byte) bool {
	lineStart := 0
	blank := true
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\n' {
			if blank {
				return true
			}
			i++
			lineStart, blank = i, true
			continue
		}
		if c < utf8.RuneSelf {
			if blank && !isASCIISpace(c) {
				blank = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if blank && !unicode.IsSpace(r) {
			blank = false
		}
		i += size
	}
	return lineStart < len(text) && blank
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// pricer counts texts, remembering the count of every pair of segments
// it has tokenized (see verify), so that counting a page whose lines
// mostly occur, in that order, in a text counted before costs little more
// than encoding it.
type pricer struct {
	counter tokens.Counter
	split   tokens.SegmentCounter // nil: learn counts segment by segment
	memo    map[string]int        // segments priced alone (price)
	// pairs and seed: see verify.
	pairs map[pairKey]int
	seed  maphash.Seed
	// Counted is the number of bytes given to the tokenizer so far.
	counted int
}

func newPricer(c tokens.Counter) (*pricer, error) {
	split, _ := c.(tokens.SegmentCounter)
	return &pricer{counter: c, split: split, memo: make(map[string]int), seed: maphash.MakeSeed()}, nil
}

// segmentEnds returns the offsets at which text's segments end, or false
// when text does not split into segments.
func segmentEnds(text []byte) ([]int, bool) {
	var ends []int
	off := 0
	ok := Segments(text, func(seg []byte) { off += len(seg); ends = append(ends, off) })
	return ends, ok
}

// learn counts text and remembers the count of each pair of its
// segments, tokenizing text once: each token is credited to the segment
// it lies in (tokens.SegmentCounter). Where that cannot be done (invalid
// UTF-8, whose replacement moves the offsets, or a token across a segment
// boundary), it prices text segment by segment instead.
func (p *pricer) learn(text []byte) (int, error) {
	if p.split == nil {
		return p.price(text)
	}
	ends, ok := segmentEnds(text)
	if !ok {
		return p.exact(text)
	}
	counts, ok, err := p.split.CountSegments(text, ends)
	if err != nil {
		return 0, fmt.Errorf("fit: %w", err)
	}
	if !ok {
		return p.price(text)
	}
	p.counted += len(text)
	total := 0
	for _, n := range counts {
		total += n
	}
	p.rememberPairs(text, ends, counts, len(ends), true)
	return total, nil
}

// price returns the token count of text: the sum of its segments' counts,
// or, when text is not segmented (a blank line), its count as a whole.
func (p *pricer) price(text []byte) (int, error) {
	total := 0
	var err error
	ok := Segments(text, func(seg []byte) {
		if err != nil {
			return
		}
		if n, hit := p.memo[string(seg)]; hit {
			total += n
			return
		}
		var n int
		n, err = p.counter.Count(seg)
		p.counted += len(seg)
		p.memo[string(seg)] = n
		total += n
		if err == nil && p.split != nil {
			// Counted alone: its count in front of the end of a text
			// (see verify).
			p.rememberLast(seg, n)
		}
	})
	if err != nil {
		return 0, err
	}
	if !ok {
		return p.exact(text)
	}
	return total, nil
}

// exact counts text in one piece.
func (p *pricer) exact(text []byte) (int, error) {
	p.counted += len(text)
	return p.counter.Count(text)
}
