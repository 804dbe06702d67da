package corpus

import (
	"slices"

	"github.com/graphwire/graphwire/wire"
)

// The corpus profiles: the same cases with different property sets, so that
// a saving can be read against how much of a response is values.
const (
	// Lean keeps what GKG's own fixtures show: identity columns, a state
	// and a short title; no timestamps and no long text.
	Lean = "lean"
	// Dated is Lean plus the timestamps (ClickHouse datetimes and dates).
	Dated = "dated"
	// TextHeavy keeps every property: long markdown descriptions,
	// adversarial text, error logs, microsecond timestamps.
	TextHeavy = "text-heavy"
)

// Profiles returns the profile names in report order: the leanest first.
func Profiles() []string { return []string{Lean, Dated, TextHeavy} }

// leanKeys are the properties each entity type keeps in the Lean profile:
// its identity columns, its state and a short title, as GKG's reference
// cases select them.
var leanKeys = map[string][]string{
	User:          {"username", "name", "state"},
	Group:         {"name", "full_path"},
	Project:       {"name", "full_path"},
	MergeRequest:  {"iid", "title", "state"},
	Issue:         {"iid", "title", "state"},
	Pipeline:      {"iid", "status", "ref"},
	Vulnerability: {"title", "severity", "state"},
}

// timestampKeys are the properties Dated adds to Lean.
var timestampKeys = []string{
	"created_at", "updated_at", "merged_at", "closed_at", "finished_at",
	"detected_at", "resolved_at", "last_activity_at", "last_activity_on", "due_date",
}

// keeps reports whether a property of an entity type stays in profile.
func keeps(profile, typ, key string) bool {
	switch profile {
	case Lean:
		return slices.Contains(leanKeys[typ], key)
	case Dated:
		return slices.Contains(leanKeys[typ], key) || slices.Contains(timestampKeys, key)
	}
	return true
}

// project cuts r down to profile in place: node properties (of nodes and
// of row cells) the profile does not keep are removed, and in Lean the
// aggregate columns over a timestamp are removed with their cells. Text
// heavy is the generated response unchanged.
func project(profile string, r *wire.GraphResponse) {
	if profile == TextHeavy {
		return
	}
	node := func(n *wire.Node) {
		var kept []wire.Property
		for _, p := range n.Properties {
			if keeps(profile, n.Type, p.Key) {
				kept = append(kept, p)
			}
		}
		n.Properties = kept
	}
	for i := range r.Nodes {
		node(&r.Nodes[i])
	}
	drop := map[string]bool{}
	if profile == Lean {
		var cols []wire.Column
		for _, c := range r.Columns {
			if c.Property.Valid && slices.Contains(timestampKeys, c.Property.V) {
				drop[c.Name] = true
				continue
			}
			cols = append(cols, c)
		}
		if r.Columns != nil && cols == nil {
			cols = []wire.Column{}
		}
		r.Columns = cols
	}
	done := map[*wire.Node]bool{} // row cells may share a node
	for i, row := range r.Rows {
		var cells wire.Row
		for _, c := range row {
			if drop[c.Name] {
				continue
			}
			if c.Node != nil && !done[c.Node] {
				done[c.Node] = true
				node(c.Node)
			}
			cells = append(cells, c)
		}
		r.Rows[i] = cells
	}
}
