package fit

import (
	"fmt"
	"strconv"
)

// BudgetError is the error of Page when the budget cannot hold the next
// page: not even the smallest page that makes progress (the next unit
// alone, or the empty page of a response with nothing in it) fits.
type BudgetError struct {
	Budget  int    // the budget asked for
	Min     int    // the smallest budget that gives a page here
	Codec   string // codec name
	Counter string // counter name
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("fit: budget %d is below the minimum of %d %s tokens for the next page in %s", e.Budget, e.Min, e.Counter, e.Codec)
}

// CursorError is the error of Page for a cursor it cannot resume from.
type CursorError struct {
	Cursor   string // the cursor as given (Error quotes at most 32 bytes of it)
	Msg      string // what is wrong
	Mismatch bool   // the cursor is well formed but was issued for a different response
	// Upstream is set when the cursor is the response's own next_cursor:
	// the upstream server's cursor, which a last page carries, to be
	// passed to that server rather than to fit.
	Upstream bool
	// Outdated is set when the cursor has the form of one an earlier
	// version of fit issued, which this version no longer reads: the
	// response is to be paged again from its start.
	Outdated bool
}

func (e *CursorError) Error() string {
	c := e.Cursor
	if len(c) > 32 {
		c = c[:32] + "..."
	}
	return "fit: cursor " + strconv.Quote(c) + ": " + e.Msg
}
