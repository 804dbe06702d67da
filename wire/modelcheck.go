package wire

import (
	"strconv"

	"github.com/graphwire/graphwire/internal/keyset"
)

// The model's own rules, which every built-in decoder enforces whatever
// the format, and which Limits.Check therefore checks for every encoder
// (see Check):
//
//   - the query type is one of QueryTypes;
//   - a group column's kind is GroupByNode or GroupByProperty;
//   - a Pagination follows schema v2 or v5 (Pagination.Check);
//   - no property of a node, or of a row's node reference, is named
//     "type" or "id", and no two properties of one node share a key;
//   - no two cells of one row share a name.
//
// What a single format cannot carry (a NaN in JSON, a type name with a
// space in GOON, a string that is not UTF-8 in msgpack and cbor) is the
// codec's own rule: Validate reaches it through CheckEncode.

// pairwiseKeys is the longest sequence whose repeats Check finds by
// comparing every pair, without allocating.
const pairwiseKeys = 32

// firstRepeat returns the index of the first of n keys that repeats an
// earlier one, or -1.
func firstRepeat(n int, key func(int) string) int {
	if n > pairwiseKeys {
		return keyset.FirstRepeat(n, key)
	}
	for i := 1; i < n; i++ {
		k := key(i)
		for j := range i {
			if key(j) == k {
				return i
			}
		}
	}
	return -1
}

// header checks the enumerations and the pagination of r.
func (c *checker) header(codec string, r *GraphResponse) error {
	if !r.QueryType.Valid() {
		return c.fail(codec, "", "invalid query type "+strconv.Quote(string(r.QueryType)), &path{key: "query_type"})
	}
	if pg := r.Pagination; pg != nil {
		if err := pg.Check(); err != nil {
			return c.fail(codec, "", err.Error(), &path{key: "pagination"})
		}
	}
	return nil
}

// groupKind checks the kind of the group column at p.
func (c *checker) groupKind(codec string, k GroupKind, p *path) error {
	if k.Valid() {
		return nil
	}
	kp := p.key1("kind")
	return c.fail(codec, "", "invalid group kind "+strconv.Quote(string(k)), &kp)
}

// propKeys checks the keys of the properties of the node at p: none
// reserved, none twice.
func (c *checker) propKeys(codec string, ps []Property, p *path) error {
	if c.keysPassed(ps) {
		return nil
	}
	for j := range ps {
		if k := ps[j].Key; k == "type" || k == "id" {
			props := p.key1("properties")
			at := props.key1(k)
			return c.fail(codec, "", "property named "+strconv.Quote(k), &at)
		}
	}
	if j := firstRepeat(len(ps), func(i int) string { return ps[i].Key }); j >= 0 {
		props := p.key1("properties")
		at := props.key1(ps[j].Key)
		return c.fail(codec, "", "duplicate property "+strconv.Quote(ps[j].Key), &at)
	}
	c.keysOK[c.keysNext] = ps
	c.keysNext = (c.keysNext + 1) % keySlots
	return nil
}

// keySlots is how many property lists that passed propKeys the checker
// remembers: as many as the node types a response usually interleaves.
const keySlots = 8

// keysPassed reports whether ps has the keys of a property list that
// passed propKeys.
func (c *checker) keysPassed(ps []Property) bool {
	for i := range c.keysOK {
		if SameKeys(ps, c.keysOK[i]) {
			return true
		}
	}
	return false
}

// SameKeys reports whether a and b hold properties of the same keys in
// the same order: whether two nodes can share a table's header (TOON,
// GCF), or a property list can pass the model's check of keys as one
// that passed before.
func SameKeys(a, b []Property) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key {
			return false
		}
	}
	return true
}

// cellNames checks that no two cells of the row at p share a name.
func (c *checker) cellNames(codec string, row Row, p *path) error {
	if sameNames(row, c.cellsOK) {
		return nil
	}
	if j := firstRepeat(len(row), func(i int) string { return row[i].Name }); j >= 0 {
		return c.fail(codec, "", "duplicate cell "+strconv.Quote(row[j].Name), p)
	}
	c.cellsOK = row
	return nil
}

// sameNames reports whether a and b hold cells of the same names in the
// same order.
func sameNames(a, b Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}
