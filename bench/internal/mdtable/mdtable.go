// Package mdtable renders the markdown tables of the scorecard and the
// speed report, through olekukonko/tablewriter, and formats their numbers.
package mdtable

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Render writes a markdown table to w: the first leftCols columns aligned
// left, the rest (numbers) right. A cell holding '|' or a newline would break
// the table, so it is an error.
func Render(w io.Writer, head []string, rows [][]string, leftCols int) error {
	align := make(tw.Alignment, len(head))
	for i := range align {
		align[i] = tw.AlignRight
		if i < leftCols {
			align[i] = tw.AlignLeft
		}
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithAlignment(align),
	)
	t.Header(head)
	for _, r := range rows {
		for _, cell := range r {
			if strings.ContainsAny(cell, "|\n") {
				return fmt.Errorf("table cell %q holds a '|' or a newline", cell)
			}
		}
		if err := t.Append(r); err != nil {
			return err
		}
	}
	return t.Render()
}

// Group formats n with thousands separators: 12,345.
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	digits := strings.TrimPrefix(s, "-")
	out := make([]byte, 0, len(s)+len(digits)/3)
	if len(digits) < len(s) {
		out = append(out, '-')
	}
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, digits[i])
	}
	return string(out)
}
