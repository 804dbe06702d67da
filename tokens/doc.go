// Package tokens counts what a text costs an LLM reader, behind one small
// interface, Counter.
//
// Two counters are real byte-pair-encoding tokenizers, run offline through
// github.com/tiktoken-go/tokenizer, whose vocabularies are compiled into
// the binary (no network at run time):
//
//   - o200k: o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5), the headline;
//   - cl100k: cl100k_base (GPT-4, GPT-3.5).
//
// Their counts equal those of an independent implementation (the npm
// package gpt-tokenizer); a test in bench/scorecard compares them on the
// whole corpus and every format of it. Special-token text in data, such as
// "<|endoftext|>", is ordinary text: it is counted as the characters it is
// made of, never as a special token. The module drops U+007F (DEL) from
// what it counts; the counters count a DEL exactly as the reference
// tokenizer does, through a stand-in character the module handles (see
// delStandIn).
//
// No tokenizer is published for current Claude models, so none is
// approximated here: the counts are o200k and cl100k.
//
// Two counters are estimates, kept because the source documents used them
// and labelled as such wherever they appear:
//
//   - chars: Unicode code points × 10 / 35 (characters ÷ 3.5), rounded
//     down;
//   - words: each maximal run of [A-Za-z0-9_.] is one token, each other
//     character that is not white space is one token.
package tokens
