package wiretest

import (
	"strings"
	"testing"
)

// TestGeneratorPaginations: the generator draws both schemas' paginations,
// every one in a valid shape, with cursors plain and awkward.
func TestGeneratorPaginations(t *testing.T) {
	gen := Response()
	var none, v2, v5, cursors, awkward int
	for seed := 0; seed < 600; seed++ {
		p := gen.Example(seed).Pagination
		if p == nil {
			none++
			continue
		}
		if err := p.Check(); err != nil {
			t.Fatalf("seed %d: generated pagination %+v: %v", seed, p, err)
		}
		switch p.Schema() {
		case 2:
			v2++
		case 5:
			v5++
		}
		if p.NextCursor.Valid {
			cursors++
			if strings.ContainsAny(p.NextCursor.V, " \"\n\x00\x01") || p.NextCursor.V == "" {
				awkward++
			}
		}
	}
	t.Logf("600 responses: %d without pagination, %d v2, %d v5 (%d with a cursor, %d awkward)", none, v2, v5, cursors, awkward)
	if v2 == 0 || v5 == 0 || cursors == 0 || awkward == 0 || cursors == v5 {
		t.Errorf("%d v2, %d v5, %d cursors, %d awkward: want each kind, and v5 with and without a cursor", v2, v5, cursors, awkward)
	}
}
