package tokens

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// TokenizerModule is the module, at the version in go.mod, that supplies
// the o200k and cl100k vocabularies. A test keeps it in step with go.mod.
const TokenizerModule = "github.com/tiktoken-go/tokenizer v0.10.0"

// The counter names.
const (
	O200k  = "o200k"  // o200k_base BPE (GPT-4o and later); the headline count
	Cl100k = "cl100k" // cl100k_base BPE (GPT-4, GPT-3.5)
	Chars  = "chars"  // estimate: code points × 10 / 35
	Words  = "words"  // estimate: word-and-punctuation count
)

// ErrUnknownCounter is matched (errors.Is) by the error of Get for a name
// that is not a counter.
var ErrUnknownCounter = errors.New("unknown token counter")

// Counter counts the tokens of a text.
//
// Implementations are safe for concurrent use. Text is read as UTF-8: the
// tokenizers count invalid UTF-8 as if each maximal invalid sequence were
// U+FFFD (what a UTF-8 decoder such as JavaScript's TextDecoder yields); the
// estimates count each invalid byte as one character.
type Counter interface {
	// Name is the counter's short name: o200k, cl100k, chars or words.
	Name() string
	// Estimate reports whether the count is a heuristic rather than a real
	// tokenizer's.
	Estimate() bool
	// Description is one line saying what is counted.
	Description() string
	// Count returns the number of tokens in text.
	Count(text []byte) (int, error)
}

// SegmentCounter is a Counter that can count a text once and say how many
// of its tokens lie in each of its segments: what a caller that prices
// many texts made of the same segments (fit) remembers, so that a segment
// is tokenized once. The real tokenizers are SegmentCounters; the
// estimates are not.
type SegmentCounter interface {
	Counter
	// CountSegments tokenizes text once and returns, for each segment,
	// the number of tokens that lie in it; ends[i] is the offset where
	// segment i ends (ascending, the last one len(text)). ok is false,
	// and counts is nil, when the tokens do not fall within segments: a
	// token spans a boundary, or invalid UTF-8 (which counts as U+FFFD)
	// moves the offsets.
	CountSegments(text []byte, ends []int) (counts []int, ok bool, err error)
}

// Names returns every counter name: the real tokenizers first (o200k,
// cl100k), then the estimates (chars, words).
func Names() []string { return []string{O200k, Cl100k, Chars, Words} }

// Get returns the counter named name (case-insensitive).
func Get(name string) (Counter, error) {
	switch strings.ToLower(name) {
	case O200k, "o200k_base":
		return o200k, nil
	case Cl100k, "cl100k_base":
		return cl100k, nil
	case Chars:
		return charsCounter, nil
	case Words:
		return wordsCounter, nil
	}
	return nil, fmt.Errorf("tokens: %w %q (have: %s)", ErrUnknownCounter, name, strings.Join(Names(), ", "))
}

// All returns every counter, in the order of Names.
func All() []Counter {
	out := make([]Counter, 0, 4)
	for _, n := range Names() {
		c, _ := Get(n)
		out = append(out, c)
	}
	return out
}

var (
	o200k  = &bpe{name: O200k, encoding: tokenizer.O200kBase, desc: "o200k_base BPE vocabulary (GPT-4o, GPT-4.1, o-series, GPT-5)"}
	cl100k = &bpe{name: Cl100k, encoding: tokenizer.Cl100kBase, desc: "cl100k_base BPE vocabulary (GPT-4, GPT-3.5)"}
)

// bpe is a real byte-pair-encoding tokenizer. The vocabulary is compiled
// into the binary and loaded on first use.
type bpe struct {
	name     string
	encoding tokenizer.Encoding
	desc     string

	once  sync.Once
	codec tokenizer.Codec
	err   error
}

func (b *bpe) Name() string        { return b.name }
func (b *bpe) Estimate() bool      { return false }
func (b *bpe) Description() string { return b.desc }

func (b *bpe) load() (tokenizer.Codec, error) {
	b.once.Do(func() {
		c, err := tokenizer.Get(b.encoding)
		if err != nil {
			b.err = fmt.Errorf("tokens: %s: %w", b.name, err)
			return
		}
		// Count what a UTF-8 reader sees. The codec never treats special-token
		// text such as <|endoftext|> as a special token: it is ordinary text,
		// as it must be when it occurs in data.
		c.SetErrorMode(tokenizer.ErrorModeReplace)
		b.codec = c
	})
	return b.codec, b.err
}

func (b *bpe) Count(text []byte) (int, error) {
	c, err := b.load()
	if err != nil {
		return 0, err
	}
	n, err := c.Count(string(delStandIn(text)))
	if err != nil {
		return 0, fmt.Errorf("tokens: %s: %w", b.name, err)
	}
	return n, nil
}

func (b *bpe) CountSegments(text []byte, ends []int) ([]int, bool, error) {
	if len(ends) == 0 || ends[len(ends)-1] != len(text) || !utf8.Valid(text) {
		return nil, false, nil
	}
	c, err := b.load()
	if err != nil {
		return nil, false, err
	}
	// delStandIn replaces byte for byte: the offsets stay.
	_, toks, err := c.Encode(string(delStandIn(text)))
	if err != nil {
		return nil, false, fmt.Errorf("tokens: %s: %w", b.name, err)
	}
	counts := make([]int, len(ends))
	off, seg := 0, 0
	for _, tk := range toks {
		for seg < len(ends) && off >= ends[seg] {
			seg++
		}
		if seg == len(ends) || off+len(tk) > ends[seg] {
			return nil, false, nil
		}
		counts[seg]++
		off += len(tk)
	}
	if off != len(text) {
		return nil, false, nil
	}
	return counts, true, nil
}

// DEL (U+007F) is one character the tokenizer module drops: the
// character classes of its compiled pre-tokenizer pattern leave U+007F out
// of [^\r\n\p{L}\p{N}] and [^\s\p{L}\p{N}], so no piece matches it and
// it is skipped uncounted ("\x7f" counts 0 tokens, tiktoken 1). The
// reference pre-tokenizer puts it where it puts every other control
// character that is not white space, and its BPE never merges it: in both
// vocabularies the only token holding byte 0x7F is the byte alone.
//
// delStandIn therefore counts a text with DEL as the same text with each
// DEL replaced by standIn, U+0002: a control character in exactly the
// classes of the pattern that DEL is in, which the module matches
// correctly, and which likewise no token but its own byte holds. The
// pieces are then those of the reference pre-tokenizer, and each piece
// splits into as many tokens as it would with DEL, the stand-in being
// a token of its own where DEL would be. Both facts about the
// vocabularies are checked by the tests. A text without DEL is counted as
// it is.
const standIn = 0x02

func delStandIn(text []byte) []byte {
	if bytes.IndexByte(text, 0x7f) < 0 {
		return text
	}
	out := bytes.Clone(text)
	for i, c := range out {
		if c == 0x7f {
			out[i] = standIn
		}
	}
	return out
}

// estimate is a Counter that estimates: its name, what it counts, and the
// count. Its values are pointers, so Counters stay comparable.
type estimate struct {
	name, description string
	count             func(text []byte) int
}

func (e *estimate) Name() string                   { return e.name }
func (e *estimate) Estimate() bool                 { return true }
func (e *estimate) Description() string            { return e.description }
func (e *estimate) Count(text []byte) (int, error) { return e.count(text), nil }

// charsCounter is the characters ÷ 3.5 estimate: code points × 10 / 35,
// rounded down.
var charsCounter = &estimate{
	name:        Chars,
	description: "estimate: Unicode code points × 10 / 35 (characters ÷ 3.5), rounded down",
	count:       func(text []byte) int { return utf8.RuneCount(text) * 10 / 35 },
}

// wordsCounter is the word-and-punctuation estimate: each maximal run of
// [A-Za-z0-9_.] is one token, and each other rune that is not white space
// is one token.
var wordsCounter = &estimate{
	name:        Words,
	description: "estimate: each run of [A-Za-z0-9_.] is one token, each other non-space character one",
	count:       countWords,
}

func countWords(text []byte) int {
	n := 0
	inWord := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case isWordByte(c):
				if !inWord {
					n++
					inWord = true
				}
			case isASCIISpace(c):
				inWord = false
			default:
				n++
				inWord = false
			}
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		i += size
		inWord = false
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.'
}

func isASCIISpace(c byte) bool {
	return unicode.IsSpace(rune(c))
}
