package wire

import "errors"

// Schema reports which shape p has: 2 for schema v2's {has_more,
// total_rows} (GOON 1.0.0), 5 for schema v5's {has_more, truncated,
// next_cursor?} (what GKG serves today), 0 for neither (a mix of the two,
// or one missing a field its schema requires; Check says why), which no
// built-in codec writes or reads.
func (p *Pagination) Schema() int {
	switch {
	case p.TotalRows.Valid && !p.Truncated.Valid && !p.NextCursor.Valid:
		return 2
	case p.Truncated.Valid && !p.TotalRows.Valid:
		return 5
	}
	return 0
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
