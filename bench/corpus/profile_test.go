package corpus

import (
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
)

// identity is what a case is about regardless of profile: its node types
// and ids, edges and row count.
type identity struct {
	Nodes []string
	Edges []wire.Edge
	Rows  int
}

func identityOf(r *wire.GraphResponse) identity {
	var id identity
	for _, n := range r.Nodes {
		id.Nodes = append(id.Nodes, n.Type+":"+itoa(n.ID))
	}
	id.Edges = r.Edges
	id.Rows = len(r.Rows)
	return id
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestProfilesHoldTheSameEntities: a case has the same nodes, edges and
// rows in every profile; only properties differ.
func TestProfilesHoldTheSameEntities(t *testing.T) {
	byID := map[string]map[string]*wire.GraphResponse{}
	for _, c := range generated() {
		if byID[c.Name] == nil {
			byID[c.Name] = map[string]*wire.GraphResponse{}
		}
		byID[c.Name][c.Profile] = c.Response
	}
	for name, profiles := range byID {
		heavy := profiles[TextHeavy]
		if heavy == nil {
			t.Errorf("%s: not in %s", name, TextHeavy)
			continue
		}
		for p, r := range profiles {
			if diff := cmp.Diff(identityOf(heavy), identityOf(r)); diff != "" {
				t.Errorf("%s: %s differs from %s beyond properties (-%s +%s):\n%s", name, p, TextHeavy, TextHeavy, p, diff)
			}
		}
	}
}

// TestProfileProperties: lean keeps identity columns, a state and a short
// title; dated adds timestamps and nothing else; text-heavy keeps long text.
func TestProfileProperties(t *testing.T) {
	longest := map[string]int{}
	timestamps := map[string]int{}
	for _, c := range generated() {
		check := func(n *wire.Node) {
			for _, p := range n.Properties {
				isTS := slices.Contains(timestampKeys, p.Key)
				if isTS {
					timestamps[c.Profile]++
				}
				switch c.Profile {
				case Lean:
					if !slices.Contains(leanKeys[n.Type], p.Key) {
						t.Errorf("%s: %s has %s, not a lean property", c.ID(), n.Type, p.Key)
					}
				case Dated:
					if !slices.Contains(leanKeys[n.Type], p.Key) && !isTS {
						t.Errorf("%s: %s has %s, neither lean nor a timestamp", c.ID(), n.Type, p.Key)
					}
				}
				if p.Value.Kind() == wire.KindString {
					longest[c.Profile] = max(longest[c.Profile], utf8.RuneCountInString(p.Value.Text()))
				}
			}
		}
		for i := range c.Response.Nodes {
			check(&c.Response.Nodes[i])
		}
		for _, row := range c.Response.Rows {
			for _, cell := range row {
				if cell.Node != nil {
					check(cell.Node)
				}
			}
		}
	}
	for _, p := range []string{Lean, Dated} {
		if longest[p] > 120 {
			t.Errorf("%s: a string of %d code points, want none over 120", p, longest[p])
		}
	}
	if longest[TextHeavy] <= 1000 {
		t.Errorf("%s: longest string %d code points, want long text over 1,000", TextHeavy, longest[TextHeavy])
	}
	if timestamps[Lean] != 0 || timestamps[Dated] == 0 {
		t.Errorf("timestamp properties: lean %d, dated %d; want none in lean, some in dated", timestamps[Lean], timestamps[Dated])
	}
}

// TestV5Pagination: some cases of every profile carry the pagination GKG
// serves today (schema v5), some the v2 form.
func TestV5Pagination(t *testing.T) {
	for _, p := range Profiles() {
		v2, v5 := 0, 0
		for _, c := range byProfile(p) {
			pg := c.Response.Pagination
			switch {
			case pg == nil:
			case pg.Truncated.Valid:
				v5++
				if pg.TotalRows.Valid {
					t.Errorf("%s: v5 pagination with total_rows", c.ID())
				}
			default:
				v2++
			}
		}
		if v2 == 0 || v5 < 2 {
			t.Errorf("%s: %d cases with v2 pagination, %d with v5; want both", p, v2, v5)
		}
	}
}
