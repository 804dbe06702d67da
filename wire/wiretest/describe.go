package wiretest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// ByteDiff describes the first offset where b differs from a, in context.
func ByteDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-40)
	return fmt.Sprintf("(lengths %d and %d) at offset %d:\n  want …%s\n   got …%s",
		len(a), len(b), i, Quote(a[lo:min(len(a), i+40)]), Quote(b[lo:min(len(b), i+40)]))
}

// Quote renders data for a failure message as a quoted string, or hex when
// it is mostly binary, cut to its first and last 600 bytes.
func Quote(data []byte) string {
	const keep = 600
	if len(data) > 2*keep+64 {
		return fmt.Sprintf("%s + …(%d bytes)… + %s", Quote(data[:keep]), len(data)-2*keep, Quote(data[len(data)-keep:]))
	}
	printable := 0
	for _, c := range data {
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			printable++
		}
	}
	if len(data) == 0 || printable*10 >= len(data)*8 {
		return fmt.Sprintf("%q", data)
	}
	return fmt.Sprintf("hexBytes(%q)", fmt.Sprintf("%x", data))
}

// Describe renders r for a failure message, one field per line.
func Describe(r *wire.GraphResponse) string {
	if r == nil {
		return "<nil>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "format_version=%q query_type=%q\n", r.FormatVersion, r.QueryType)
	nodes := func(ind string, n wire.Node) {
		fmt.Fprintf(&b, "%snode %q %d", ind, n.Type, n.ID)
		if n.Properties == nil {
			b.WriteString(" (nil properties)")
		}
		b.WriteByte('\n')
		for _, p := range n.Properties {
			fmt.Fprintf(&b, "%s  %q = %v\n", ind, p.Key, p.Value)
		}
	}
	fmt.Fprintf(&b, "nodes (%d, nil=%v):\n", len(r.Nodes), r.Nodes == nil)
	for _, n := range r.Nodes {
		nodes("  ", n)
	}
	fmt.Fprintf(&b, "edges (%d, nil=%v):\n", len(r.Edges), r.Edges == nil)
	for _, e := range r.Edges {
		fmt.Fprintf(&b, "  %q %d -[%q]-> %q %d depth=%s path_id=%s step=%s\n", e.From, e.FromID, e.Type, e.To, e.ToID, opt(e.Depth), opt(e.PathID), opt(e.Step))
	}
	if r.Columns != nil {
		fmt.Fprintf(&b, "columns (%d):\n", len(r.Columns))
		for _, c := range r.Columns {
			fmt.Fprintf(&b, "  %q fn=%q target=%s property=%s\n", c.Name, c.Function, opt(c.Target), opt(c.Property))
		}
	}
	if r.GroupColumns != nil {
		fmt.Fprintf(&b, "group_columns (%d):\n", len(r.GroupColumns))
		for _, g := range r.GroupColumns {
			fmt.Fprintf(&b, "  %q kind=%q node=%q property=%s entity=%s\n", g.Name, g.Kind, g.Node, opt(g.Property), opt(g.Entity))
		}
	}
	if r.Rows != nil {
		fmt.Fprintf(&b, "rows (%d):\n", len(r.Rows))
		for i, row := range r.Rows {
			fmt.Fprintf(&b, "  row %d:\n", i)
			for _, c := range row {
				if c.Node != nil {
					fmt.Fprintf(&b, "    %q = ", c.Name)
					nodes("", *c.Node)
				} else {
					fmt.Fprintf(&b, "    %q = %v\n", c.Name, c.Value)
				}
			}
		}
	}
	if r.Pagination != nil {
		p := r.Pagination
		fmt.Fprintf(&b, "pagination has_more=%v total_rows=%s truncated=%s next_cursor=%s\n", p.HasMore, opt(p.TotalRows), opt(p.Truncated), opt(p.NextCursor))
	}
	return b.String()
}

// opt renders an optional field: "-" when absent, a string quoted.
func opt[T int64 | bool | string](o wire.Opt[T]) string {
	if !o.Valid {
		return "-"
	}
	if s, ok := any(o.V).(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(o.V)
}

// NameContains reports whether a property key or a cell name of r (in a
// node, a row or a row's node) contains s.
func NameContains(r *wire.GraphResponse, s string) bool {
	props := func(n *wire.Node) bool {
		return slices.ContainsFunc(n.Properties, func(p wire.Property) bool { return strings.Contains(p.Key, s) })
	}
	for i := range r.Nodes {
		if props(&r.Nodes[i]) {
			return true
		}
	}
	for _, row := range r.Rows {
		for _, c := range row {
			if strings.Contains(c.Name, s) || c.Node != nil && props(c.Node) {
				return true
			}
		}
	}
	return false
}
