package fit

import (
	"fmt"
	"hash/maphash"
)

// The count of a served page is its tokenizer's count, and checking it by
// counting every page whole would cost, over a walk, a second count of
// the whole response. verify gets the same number for little more than
// the page's new lines.
//
// The pre-tokenizers cut a text into pieces from left to right, and each
// piece is tokenized alone; a text's count is the sum over its pieces.
// When a text is tokenized once and no token (so no piece) crosses a
// segment boundary (tokens.SegmentCounter reports that), every segment
// starts a piece, and the pieces of a segment A followed by B are found
// from A and B alone: nothing before A's start matters, and the scan
// that ends A's last piece looks into B at most (a piece reaching past B
// would cross A|B). So in any text where A starts a piece and is followed
// by B, A holds the same pieces, and the same count, as in a text
// tokenized before where A was followed by B, with no piece across A|B.
//
// The pricer therefore remembers, for every pair of consecutive segments
// of a text tokenized in one pass (the whole, and every stretch verify
// counts), the count of the first in front of the second. verify walks a
// page's segments: a segment whose pair with its successor is known
// counts what it counted there; a stretch of segments whose pairs are not
// known (header lines, the cursor line, the seams around them) is
// tokenized in one pass together with the next segment, whose pair is
// known, or up to the page's end. The page's first segment starts a piece
// (the text starts there), and each segment after one counted either way
// starts one too, so the sum is the page's count. Should a token cross a
// boundary of a stretch, or the text not be cut into segments, the page
// is counted whole.

// pairKey names two consecutive segments by their hashes (128 bits); a
// last segment's successor is endOfText.
type pairKey struct{ a, b uint64 }

// endOfText stands for "no segment follows" in a pairKey.
const endOfText = 0x9e3779b97f4a7c15

// rememberPairs records the counts of segments [0, len(ends)) of text,
// tokenized in one pass, each in front of its successor; the last one in
// front of the end of text only when last is set (the text is a whole
// text, not a stretch cut out of one).
func (p *pricer) rememberPairs(text []byte, ends, counts []int, upto int, last bool) {
	if p.pairs == nil {
		p.pairs = make(map[pairKey]int, len(ends))
	}
	start := 0
	prev := uint64(0)
	for i, end := range ends {
		h := maphash.Bytes(p.seed, text[start:end])
		if i > 0 && i-1 < upto {
			p.pairs[pairKey{prev, h}] = counts[i-1]
		}
		prev, start = h, end
	}
	if last && len(ends) > 0 && len(ends)-1 < upto {
		p.pairs[pairKey{prev, endOfText}] = counts[len(ends)-1]
	}
}

// rememberLast records the count of seg tokenized alone: its count as the
// last segment of any text.
func (p *pricer) rememberLast(seg []byte, n int) {
	if p.pairs == nil {
		p.pairs = map[pairKey]int{}
	}
	p.pairs[pairKey{maphash.Bytes(p.seed, seg), endOfText}] = n
}

// verify returns the tokenizer's count of text, tokenizing only the
// stretches of segments whose pairs it has not seen tokenized together.
func (p *pricer) verify(text []byte) (int, error) {
	if p.split == nil {
		return p.exact(text)
	}
	ends, ok := segmentEnds(text)
	if !ok {
		return p.exact(text)
	}
	m := len(ends)
	hashes := make([]uint64, m+1)
	start := 0
	for i, end := range ends {
		hashes[i] = maphash.Bytes(p.seed, text[start:end])
		start = end
	}
	hashes[m] = endOfText
	begin := func(i int) int {
		if i == 0 {
			return 0
		}
		return ends[i-1]
	}
	total := 0
	for i := 0; i < m; {
		if n, ok := p.pairs[pairKey{hashes[i], hashes[i+1]}]; ok {
			total += n
			i++
			continue
		}
		// A stretch from segment a (which starts a piece) to the first
		// segment b whose pair is known, or to the end.
		a, b := i, i+1
		for b < m {
			if _, ok := p.pairs[pairKey{hashes[b], hashes[b+1]}]; ok {
				break
			}
			b++
		}
		stop := b + 1 // tokenize segment b with the stretch: a's pieces need it
		if b == m {
			stop = m
		}
		lo := begin(a)
		local := make([]int, stop-a)
		for j := range local {
			local[j] = ends[a+j] - lo
		}
		counts, ok, err := p.split.CountSegments(text[lo:ends[stop-1]], local)
		if err != nil {
			return 0, fmt.Errorf("fit: %w", err)
		}
		p.counted += ends[stop-1] - lo
		if !ok {
			return p.exact(text)
		}
		used := b - a // segments a..b-1, each in front of its own successor
		if b == m {
			used = m - a
		}
		for _, n := range counts[:used] {
			total += n
		}
		p.rememberPairs(text[lo:ends[stop-1]], local, counts, used, b == m)
		i = a + used
	}
	return total, nil
}
