package gcfvalue

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
)

// codecName is the Codec field of every error this package returns, so
// errors read "gcf: line N, column M: ...".
const codecName = "gcf"

// Kind is the category of a GCF error: the strict-mode conditions of spec
// §16.5 under the names the conformance suite uses ("count_mismatch",
// "invalid_missing", ...), and a few of this package's own (KindSyntax,
// KindOutOfRange, KindRootMismatch, KindDelta, KindUnsupported). A
// *wire.DecodeError or *wire.EncodeError from this package wraps its Kind:
// errors.Is(err, gcfvalue.KindCountMismatch) tests for one, ErrorKind
// returns it.
type Kind string

func (k Kind) Error() string { return string(k) }

// The kinds of spec §16.5, §2.3.2 and §10a.5.
const (
	KindMissingHeader          Kind = "missing_header"
	KindMissingProfile         Kind = "missing_profile"
	KindUnknownProfile         Kind = "unknown_profile"
	KindMalformedHeaderField   Kind = "malformed_header_field"
	KindDuplicateHeaderField   Kind = "duplicate_header_field"
	KindUnterminatedQuote      Kind = "unterminated_quote"
	KindInvalidEscape          Kind = "invalid_escape"
	KindTrailingCharacters     Kind = "trailing_characters"
	KindInvalidMissing         Kind = "invalid_missing"
	KindInvalidAttachment      Kind = "invalid_attachment_marker"
	KindInvalidSurrogate       Kind = "invalid_surrogate"
	KindInvalidUTF8            Kind = "invalid_utf8"
	KindDuplicateKey           Kind = "duplicate_key"
	KindDuplicateFieldName     Kind = "duplicate_field_name"
	KindRowWidthMismatch       Kind = "row_width_mismatch"
	KindCountMismatch          Kind = "count_mismatch"
	KindInvalidCount           Kind = "invalid_count"
	KindTabIndentation         Kind = "tab_indentation"
	KindInvalidIndent          Kind = "invalid_indent"
	KindInvalidItemID          Kind = "invalid_item_id"
	KindOrphanAttachment       Kind = "orphan_attachment"
	KindOrphanInlineAttachment Kind = "orphan_inline_attachment"
	KindMissingAttachment      Kind = "missing_attachment"
	KindDuplicateAttachment    Kind = "duplicate_attachment"
	KindInlineWidthMismatch    Kind = "inline_width_mismatch"
	KindInvalidNodeLine        Kind = "invalid_node_line"
	KindInvalidSymbolID        Kind = "invalid_symbol_id"
	KindInvalidScore           Kind = "invalid_score"
	KindInvalidEdgeSyntax      Kind = "invalid_edge_syntax"
	KindUnknownEdgeReference   Kind = "unknown_edge_reference"
	KindMalformedDelta         Kind = "malformed_delta"

	// KindOutOfRange: an integer outside int64, or a number outside
	// float64 (spec §2.3.2), on either side.
	KindOutOfRange Kind = "out_of_range"
	// KindRootMismatch: a delta's base_root is not the held root, or the
	// applied result does not hash to its new_root (spec §10a.5).
	KindRootMismatch Kind = "root_mismatch"
	// KindDelta: a delta operation contradicts the base (an added identity
	// already present, a changed or removed one absent; spec §10a.5).
	KindDelta Kind = "contradictory_delta"
	// KindSyntax: a line that fits no production of the grammar.
	KindSyntax Kind = "syntax"
	// KindLimit: input past one of the wire.Limits (errors.Is(err,
	// wire.ErrLimit) too).
	KindLimit Kind = "limit"
	// KindUnsupported: a value the encoder cannot carry (NaN, ±Inf, a
	// Go type that is not a Value).
	KindUnsupported Kind = "unsupported_value"
)

// ErrorKind returns the Kind err wraps, or "" when it wraps none.
func ErrorKind(err error) Kind {
	var k Kind
	if errors.As(err, &k) {
		return k
	}
	return ""
}

// failure carries a decode error through a panic to the recover of the
// entry point; it never escapes the package.
type failure struct{ err *wire.DecodeError }

// maxExcerpt bounds the input an error message quotes.
const maxExcerpt = 40

// excerpt returns s cut to at most maxExcerpt bytes on a rune boundary,
// quoted.
func excerpt(s string) string {
	if len(s) > maxExcerpt {
		n := maxExcerpt
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}

func failAt(line, col int, kind Kind, msg string) {
	panic(failure{&wire.DecodeError{Codec: codecName, Line: line, Column: max(col, 1), Msg: msg, Err: kind}})
}

func failLimitAt(line, col int, limit, msg string) {
	panic(failure{&wire.DecodeError{Codec: codecName, Line: line, Column: max(col, 1), Msg: msg, Limit: limit, Err: KindLimit}})
}

// recoverFailure turns a failure panic into its error; other panics go on.
func recoverFailure(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}

// encodeError is the error of an encoder refusing a value at path.
func encodeError(path string, kind Kind, msg string) *wire.EncodeError {
	return &wire.EncodeError{Codec: codecName, Path: path, Msg: msg, Err: kind}
}
