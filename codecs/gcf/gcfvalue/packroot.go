package gcfvalue

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// PackRootPrefix is the algorithm prefix of a gcf-pack-root-v1 root.
const PackRootPrefix = "sha256:"

// PackRoot returns the gcf-pack-root-v1 root of a set of rows (spec
// §10a.3): one record "R\tfield\tvalue\t...\n" per row, its members
// ordered by the bytes of their names; the records sorted by their bytes
// and hashed with SHA-256, written "sha256:" and 64 lowercase hex digits.
// Row order does not change the root.
//
// A value is written as the spec says for scalars: null "-", true and
// false, numbers in canonical form (§2.3.1), strings always quoted (§2.2).
// Two cases the spec leaves open are settled here: a member absent from a
// row has no field in its record (so absent differs from null), and a
// nested value is written as compact JSON with its object members sorted
// by name, strings quoted and numbers canonical as above (so it cannot be
// mistaken for a scalar, which never starts with '{' or '[').
//
// It returns an error wrapping KindUnsupported for a string that is not
// UTF-8 or a number that is NaN or infinite.
func PackRoot(rows []*jsonvalue.Object) (string, error) {
	records := make([][]byte, 0, len(rows))
	for _, r := range rows {
		rec, err := rowRecord(r)
		if err != nil {
			return "", err
		}
		records = append(records, rec)
	}
	slices.SortFunc(records, bytes.Compare)
	h := sha256.New()
	for _, r := range records {
		h.Write(r)
	}
	return PackRootPrefix + hex.EncodeToString(h.Sum(nil)), nil
}

// rowRecord is the canonical record of one row.
func rowRecord(r *jsonvalue.Object) ([]byte, error) {
	rec := []byte{'R'}
	var err error
	for _, m := range sortedMembers(r) {
		if !utf8.ValidString(m.Key) {
			return nil, fmt.Errorf("gcf: pack root: a field name that is not UTF-8: %w", KindUnsupported)
		}
		rec = append(rec, '\t')
		rec = append(rec, m.Key...)
		rec = append(rec, '\t')
		if rec, err = appendCanonical(rec, m.Value, 0); err != nil {
			return nil, err
		}
	}
	return append(rec, '\n'), nil
}

// sortedMembers returns o's members ordered by the bytes of their keys.
func sortedMembers(o *jsonvalue.Object) []jsonvalue.Member {
	ms := slices.Clone(o.Members)
	slices.SortStableFunc(ms, func(a, b jsonvalue.Member) int { return strings.Compare(a.Key, b.Key) })
	return ms
}

// appendCanonical writes v in the canonical hashing form of rowRecord.
func appendCanonical(dst []byte, v Value, depth int) ([]byte, error) {
	if depth > 10_000 {
		return nil, fmt.Errorf("gcf: pack root: a value nested too deep: %w", KindUnsupported)
	}
	var err error
	switch x := toNumber(v).(type) {
	case nil:
		return append(dst, '-'), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case jsonvalue.Number:
		if !x.IsInt() && (math.IsNaN(x.Float64()) || math.IsInf(x.Float64(), 0)) {
			return nil, fmt.Errorf("gcf: pack root: NaN or an infinite number: %w", KindUnsupported)
		}
		return appendNumber(dst, x), nil
	case string:
		if !utf8.ValidString(x) {
			return nil, fmt.Errorf("gcf: pack root: a string that is not UTF-8: %w", KindUnsupported)
		}
		return appendQuoted(dst, x), nil
	case []Value:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendCanonical(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case *jsonvalue.Object:
		if x == nil {
			return append(dst, '-'), nil
		}
		dst = append(dst, '{')
		for i, m := range sortedMembers(x) {
			if i > 0 {
				dst = append(dst, ',')
			}
			if !utf8.ValidString(m.Key) {
				return nil, fmt.Errorf("gcf: pack root: a key that is not UTF-8: %w", KindUnsupported)
			}
			dst = appendQuoted(dst, m.Key)
			dst = append(dst, ':')
			if dst, err = appendCanonical(dst, m.Value, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return nil, fmt.Errorf("gcf: pack root: a value of Go type %T: %w", v, KindUnsupported)
}
