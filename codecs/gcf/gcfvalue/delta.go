package gcfvalue

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// KeyedSet is a set of rows with one identity field (spec §10a.1): the
// unit of pack_root and of the generic delta.
type KeyedSet struct {
	Name   string   // the section name of its full payload
	Key    string   // the identity field; every row holds a unique scalar there
	Fields []string // the declared fields: a table declares these first, in order
	Rows   []*jsonvalue.Object
}

// Root returns the set's gcf-pack-root-v1 (PackRoot of its rows).
func (s *KeyedSet) Root() (string, error) { return PackRoot(s.Rows) }

// index maps each row's identity to its position, refusing a row without
// a scalar identity and a repeated identity.
func (s *KeyedSet) index() (map[string]int, error) {
	m := make(map[string]int, len(s.Rows))
	for i, r := range s.Rows {
		k, err := rowIdentity(r, s.Key)
		if err != nil {
			return nil, fmt.Errorf("gcf: row %d: %w", i, err)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("gcf: row %d: a repeated identity %s: %w", i, displayIdentity(r, s.Key), KindDuplicateKey)
		}
		m[k] = i
	}
	return m, nil
}

func rowIdentity(r *jsonvalue.Object, key string) (string, error) {
	v, ok := r.Get(key)
	if !ok || !isScalar(v) || isNull(v) {
		return "", fmt.Errorf("no scalar identity field %q: %w", key, KindSyntax)
	}
	return identityKey(toNumber(v)), nil
}

func displayIdentity(r *jsonvalue.Object, key string) string {
	v, _ := r.Get(key)
	b, _ := appendCanonical(nil, v, 0)
	return excerpt(string(b))
}

// AppendFull appends the full, delta-participating payload of s (spec
// §10a): the header "GCF profile=generic [tool=T] pack_root=R key=K" and
// the table "## name [N]{@key,...}".
func AppendFull(dst []byte, s *KeyedSet, tool string, opts Options) ([]byte, error) {
	if _, err := s.index(); err != nil {
		return dst, err
	}
	root, err := s.Root()
	if err != nil {
		return dst, err
	}
	var pairs []string
	if tool != "" {
		pairs = append(pairs, "tool="+tool)
	}
	pairs = append(pairs, "pack_root="+root, "key="+s.Key)
	body := &jsonvalue.Object{Members: []jsonvalue.Member{{Key: s.Name, Value: values(s.Rows)}}}
	return encodeWith(dst, pairs, body, s.Key, map[string][]string{s.Name: s.Fields}, opts)
}

// AppendUnchanged appends the header-only payload that tells a consumer
// holding root that it still holds the current set of count rows (spec
// §10a.4).
func AppendUnchanged(dst []byte, root string, count int) []byte {
	dst = append(dst, "GCF profile=generic unchanged=true pack_root="...)
	dst = append(dst, root...)
	dst = append(dst, " count="...)
	dst = strconv.AppendInt(dst, int64(count), 10)
	return append(dst, '\n')
}

// Delta is a generic delta payload (spec §10a.2): the rows added, the rows
// changed (each replaces the base row of its identity) and the identities
// removed, from the set whose root is BaseRoot to the set whose root is
// NewRoot.
type Delta struct {
	Tool     string // the header's tool=, "" for none
	Key      string
	Fields   []string // the declared fields of the added and changed tables
	BaseRoot string
	NewRoot  string
	Added    []*jsonvalue.Object
	Changed  []*jsonvalue.Object
	Removed  []Value // identity values
	Savings  string  // the header's savings= ("81%"), "" for none
}

// Empty reports whether the delta changes nothing.
func (d *Delta) Empty() bool { return len(d.Added)+len(d.Changed)+len(d.Removed) == 0 }

// SavingsPercent is the savings= value of a delta of deltaTokens against
// a full payload of fullTokens: the saving rounded to a whole percent.
func SavingsPercent(deltaTokens, fullTokens int) string {
	if fullTokens <= 0 {
		return "0%"
	}
	return strconv.Itoa(int(math.Round(100*(1-float64(deltaTokens)/float64(fullTokens))))) + "%"
}

// Diff returns the delta from base to next: next's rows whose identity
// base lacks (added, in next's order), next's rows that differ from the
// base row of their identity (changed), and base's identities next lacks
// (removed, in base's order). It refuses sets whose key differs.
func Diff(base, next *KeyedSet) (*Delta, error) {
	if base.Key != next.Key {
		return nil, fmt.Errorf("gcf: the sets have different identity fields (%q, %q): %w", base.Key, next.Key, KindMalformedDelta)
	}
	bi, err := base.index()
	if err != nil {
		return nil, err
	}
	ni, err := next.index()
	if err != nil {
		return nil, err
	}
	d := &Delta{Key: next.Key, Fields: next.Fields}
	if d.BaseRoot, err = base.Root(); err != nil {
		return nil, err
	}
	if d.NewRoot, err = next.Root(); err != nil {
		return nil, err
	}
	for _, r := range next.Rows {
		k, _ := rowIdentity(r, next.Key)
		j, ok := bi[k]
		if !ok {
			d.Added = append(d.Added, r)
			continue
		}
		a, _ := rowRecord(base.Rows[j])
		b, _ := rowRecord(r)
		if string(a) != string(b) {
			d.Changed = append(d.Changed, r)
		}
	}
	for _, r := range base.Rows {
		k, _ := rowIdentity(r, base.Key)
		if _, ok := ni[k]; !ok {
			v, _ := r.Get(base.Key)
			d.Removed = append(d.Removed, v)
		}
	}
	return d, nil
}

// AppendDelta appends the delta payload of d (spec §10a.2): the header
// "GCF profile=generic [tool=T] delta=true base_root=B new_root=N key=K
// [savings=S]", then the sections added, changed and removed, each left
// out when empty. Extra header pairs ("name=value"), if any, follow key.
func AppendDelta(dst []byte, d *Delta, opts Options, extra ...string) ([]byte, error) {
	var pairs []string
	if d.Tool != "" {
		pairs = append(pairs, "tool="+d.Tool)
	}
	pairs = append(pairs, "delta=true", "base_root="+d.BaseRoot, "new_root="+d.NewRoot, "key="+d.Key)
	pairs = append(pairs, extra...)
	if d.Savings != "" {
		pairs = append(pairs, "savings="+d.Savings)
	}
	removed := make([]*jsonvalue.Object, len(d.Removed))
	for i, id := range d.Removed {
		removed[i] = &jsonvalue.Object{Members: []jsonvalue.Member{{Key: d.Key, Value: id}}}
	}
	body := &jsonvalue.Object{}
	for _, sec := range []struct {
		name string
		rows []*jsonvalue.Object
	}{{"added", d.Added}, {"changed", d.Changed}, {"removed", removed}} {
		if len(sec.rows) > 0 {
			body.Add(sec.name, values(sec.rows))
		}
	}
	initial := map[string][]string{"added": d.Fields, "changed": d.Fields, "removed": {d.Key}}
	return encodeWith(dst, pairs, body, d.Key, initial, opts)
}

// DecodeDelta decodes a delta payload: a generic document whose header has
// delta=true, base_root, new_root and key, and whose body has only the
// sections added, changed (tables of rows holding the identity) and
// removed (a table of the identity alone). Anything else is an error
// wrapping KindMalformedDelta.
func DecodeDelta(data []byte, opts Options) (*Delta, error) {
	doc, err := DecodeDocument(data, opts)
	if err != nil {
		return nil, err
	}
	return DeltaOf(doc)
}

// DeltaOf reads the delta payload doc, decoded by DecodeDocument, as
// DecodeDelta does: for a caller that decoded it to read its header
// first, so that it is parsed once.
func DeltaOf(doc *Document) (*Delta, error) {
	bad := func(msg string) error { return fmt.Errorf("gcf: delta: %s: %w", msg, KindMalformedDelta) }
	if v, _ := doc.Get("delta"); v != "true" {
		return nil, bad("the header has no delta=true")
	}
	d := &Delta{}
	d.Tool, _ = doc.Get("tool")
	d.Savings, _ = doc.Get("savings")
	var ok bool
	if d.BaseRoot, ok = doc.Get("base_root"); !ok {
		return nil, bad("the header has no base_root")
	}
	if d.NewRoot, ok = doc.Get("new_root"); !ok {
		return nil, bad("the header has no new_root")
	}
	if d.Key, ok = doc.Get("key"); !ok {
		return nil, bad("the header has no key")
	}
	body, ok := doc.Value.(*jsonvalue.Object)
	switch {
	case doc.Value == nil:
		body = &jsonvalue.Object{}
	case !ok || body == nil:
		return nil, bad("the delta's body is not a set of sections")
	}
	for _, m := range body.Members {
		items, ok := m.Value.([]Value)
		if !ok {
			return nil, bad("section " + excerpt(m.Key) + " is not a table")
		}
		var rows []*jsonvalue.Object
		for _, it := range items {
			r, ok := asObject(it)
			if !ok {
				return nil, bad("section " + excerpt(m.Key) + " holds a value that is not a row")
			}
			if _, err := rowIdentity(r, d.Key); err != nil {
				return nil, bad("a row of section " + excerpt(m.Key) + " has no identity")
			}
			rows = append(rows, r)
		}
		switch m.Key {
		case "added":
			d.Added = rows
		case "changed":
			d.Changed = rows
		case "removed":
			for _, r := range rows {
				if r.Len() != 1 {
					return nil, bad("a removed line holds more than the identity")
				}
				d.Removed = append(d.Removed, r.Members[0].Value)
			}
		default:
			return nil, bad("unknown section " + excerpt(m.Key) + " (want added, changed or removed)")
		}
	}
	d.Fields = union(append(slices.Clone(d.Added), d.Changed...), nil)
	return d, nil
}

// Apply applies d to base atomically (spec §10a.5) and returns the new
// set; base is not modified. It checks, before building anything, that
// base's root is d.BaseRoot (else an error wrapping KindRootMismatch) and
// that no operation contradicts base (an added identity already present,
// a changed or removed one absent, one identity named twice: KindDelta);
// then it replaces the changed rows, drops the removed ones, appends the
// added ones, and checks that the result's root is d.NewRoot
// (KindRootMismatch).
func (d *Delta) Apply(base *KeyedSet) (*KeyedSet, error) {
	if base.Key != d.Key {
		return nil, fmt.Errorf("gcf: delta: key=%s, but the held set is keyed by %s: %w", d.Key, base.Key, KindMalformedDelta)
	}
	root, err := base.Root()
	if err != nil {
		return nil, err
	}
	if root != d.BaseRoot {
		return nil, fmt.Errorf("gcf: delta: base_root %s is not the held root %s: %w", excerpt(d.BaseRoot), root, KindRootMismatch)
	}
	bi, err := base.index()
	if err != nil {
		return nil, err
	}
	// at is the base row the identity of r names, for an operation of
	// kind what: each identity named once, an added one absent from the
	// base, a changed or removed one present.
	named := make(map[string]bool)
	at := func(r *jsonvalue.Object, what string) (int, error) {
		k, err := rowIdentity(r, d.Key)
		if err != nil {
			return 0, err
		}
		j, ok := bi[k]
		switch {
		case what == "added" && ok:
			return 0, fmt.Errorf("gcf: delta: added identity %s already exists in the base: %w", displayIdentity(r, d.Key), KindDelta)
		case what != "added" && !ok:
			return 0, fmt.Errorf("gcf: delta: %s identity %s does not exist in the base: %w", what, displayIdentity(r, d.Key), KindDelta)
		case named[k]:
			return 0, fmt.Errorf("gcf: delta: identity %s is named twice: %w", displayIdentity(r, d.Key), KindDelta)
		}
		named[k] = true
		return j, nil
	}
	for _, r := range d.Added {
		if _, err := at(r, "added"); err != nil {
			return nil, err
		}
	}
	changed := make(map[int]*jsonvalue.Object)
	for _, r := range d.Changed {
		j, err := at(r, "changed")
		if err != nil {
			return nil, err
		}
		changed[j] = r
	}
	removed := make(map[int]bool)
	for _, id := range d.Removed {
		j, err := at(&jsonvalue.Object{Members: []jsonvalue.Member{{Key: d.Key, Value: id}}}, "removed")
		if err != nil {
			return nil, err
		}
		removed[j] = true
	}
	next := &KeyedSet{Name: base.Name, Key: base.Key, Fields: base.Fields}
	for j, r := range base.Rows {
		switch {
		case removed[j]:
		case changed[j] != nil:
			next.Rows = append(next.Rows, changed[j])
		default:
			next.Rows = append(next.Rows, r)
		}
	}
	next.Rows = append(next.Rows, d.Added...)
	got, err := next.Root()
	if err != nil {
		return nil, err
	}
	if got != d.NewRoot {
		return nil, fmt.Errorf("gcf: delta: the applied set's root %s is not new_root %s: %w", got, excerpt(d.NewRoot), KindRootMismatch)
	}
	return next, nil
}

// values returns rows as a []Value.
func values(rows []*jsonvalue.Object) []Value {
	vs := make([]Value, len(rows))
	for i, r := range rows {
		vs[i] = r
	}
	return vs
}
