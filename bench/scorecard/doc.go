// Package scorecard measures what each wire format costs a reader of the
// corpus — bytes, o200k and cl100k tokens, the two estimates the source
// documents used — and writes it as scorecard.md at the module root.
//
// # Rows
//
// One row per registered codec (the baseline, compact canonical JSON,
// first) and two peer rows: json-pretty, the canonical JSON indented by
// two spaces, and toon-plain, the canonical JSON document converted to TOON
// as the reference TOON library does (what a user gets without a
// graph-aware layout). Binary codecs have bytes only. Every row also
// records whether the format reads back to the same response (exact, equal
// with numbers by value, or lossy), and the losses table says what each
// format drops, so that no row is read as like for like when it is not.
//
// # Regenerating and checking
//
//	go run ./cmd/wirebench scorecard          # rewrite scorecard.md
//	go run ./cmd/wirebench scorecard -check   # exit 1 with a diff summary if stale
//
// The file is byte-stable: it holds no timings, dates or map order, and
// the same corpus and codecs give the same bytes on any machine and any
// number of CPUs. The test suite runs the check against the committed
// file, and compares every token count with the npm package
// gpt-tokenizer (GPTTokenizerVersion), an independent implementation.
//
// No tokenizer is published for current Claude models; the scorecard says
// so rather than approximating one.
package scorecard
