package wire

import "errors"

// PaginationSchema names the response schema whose pagination shape a
// Pagination follows.
type PaginationSchema int

const (
	// PaginationInvalid is a Pagination that follows neither schema (see
	// Pagination.Schema): a mix of the two, or one missing a field its
	// schema requires. No built-in codec writes or reads one.
	PaginationInvalid PaginationSchema = iota
	// PaginationV2 is {has_more, total_rows}: schema v2, GOON 1.0.0.
	PaginationV2
	// PaginationV5 is {has_more, truncated, next_cursor?}: schema v5, what
	// GKG serves today.
	PaginationV5
)

func (s PaginationSchema) String() string {
	switch s {
	case PaginationV2:
		return "v2"
	case PaginationV5:
		return "v5"
	}
	return "invalid"
}

// Schema reports which shape p has. The two shapes are exactly the two
// published schemas' pagination objects, both of which require every field
// but next_cursor:
//
//   - v2: TotalRows present, Truncated and NextCursor absent;
//   - v5: Truncated present, TotalRows absent, NextCursor present or not.
//
// Anything else is PaginationInvalid: TotalRows beside Truncated or
// NextCursor (two schemas in one object), NextCursor without Truncated (v5
// requires truncated), or HasMore alone (v2 requires total_rows, v5
// truncated, so HasMore alone is neither, and reading it as either would
// invent a field). Check says what is wrong with an invalid one.
func (p *Pagination) Schema() PaginationSchema {
	switch {
	case p.TotalRows.Valid && !p.Truncated.Valid && !p.NextCursor.Valid:
		return PaginationV2
	case p.Truncated.Valid && !p.TotalRows.Valid:
		return PaginationV5
	}
	return PaginationInvalid
}

// Check returns nil when p follows schema v2 or v5, or else an error
// saying what is wrong in terms of the wire fields. Every built-in encoder
// refuses, and every built-in decoder rejects, a pagination that fails
// Check, each with its own error type and position around this message.
func (p *Pagination) Check() error {
	switch {
	case p.TotalRows.Valid && p.Truncated.Valid:
		return errors.New("total_rows (schema v2) together with truncated (schema v5)")
	case p.TotalRows.Valid && p.NextCursor.Valid:
		return errors.New("total_rows (schema v2) together with next_cursor (schema v5)")
	case p.NextCursor.Valid && !p.Truncated.Valid:
		return errors.New("next_cursor without truncated (schema v5 requires truncated)")
	case !p.TotalRows.Valid && !p.Truncated.Valid:
		return errors.New("neither total_rows (schema v2) nor truncated (schema v5)")
	}
	return nil
}
