package goon

import (
	"slices"
	"strings"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

type headerField struct {
	set   bool
	line  int
	value string
}

const (
	fQueryType = iota
	fVersion
	fNodes
	fEdges
	fHasMore
	fTotalRows
	fTruncated
	fNextCursor
	fRows
	fGroupBy
	fAggregations
	numFields
)

var fieldNames = [numFields]string{"query_type", "goon_version", "nodes", "edges", "has_more", "total_rows", "truncated", "next_cursor", "rows", "group_by", "aggregations"}

func (p *parser) parseHeader() error {
	last := -1
	for {
		ok, err := p.body()
		if err != nil {
			return err
		}
		if !ok {
			if p.cur == "" && !(p.doc && p.contentLen == 0) {
				return p.errf("input ends, expected @nodes")
			}
			break
		}
		key, val, ok := strings.Cut(p.cur, ":")
		if !ok {
			return p.errf("expected a header field key:value, found " + textwire.Excerpt(p.cur))
		}
		f := slices.Index(fieldNames[:], key)
		k, docField := delta.FieldKind(key)
		switch {
		case f < 0 && docField && p.doc && last < 0: // a document's field, before GOON's own
			if err := p.documentField(key, val, k); err != nil {
				return err
			}
			continue
		case f < 0:
			if docField {
				return p.errf("document header field " + key + " among GOON's header fields (a document's fields come first, and DecodeDocument reads them)")
			}
			return p.errf("unknown header field " + textwire.Excerpt(key))
		case p.header[f].set:
			return p.errf("duplicate header field " + textwire.Clip(key))
		case f < last:
			return p.errf("header field " + textwire.Clip(key) + " out of order (after " + fieldNames[last] + ")")
		}
		last = f
		p.header[f] = headerField{set: true, line: p.line, value: val}
		if err := p.headerValue(f, val); err != nil {
			return err
		}
	}
	for _, f := range [...]int{fQueryType, fVersion, fNodes, fEdges} {
		if !p.header[f].set && !p.fragment {
			return p.errf("header has no " + fieldNames[f] + " field")
		}
	}
	if err := p.pagination(); err != nil {
		return err
	}
	// A fragment without a query type is an aggregation when it declares
	// rows or columns (encoder.layout).
	p.agg = p.r.QueryType == wire.Aggregation ||
		p.fragment && p.r.QueryType == "" && (p.header[fRows].set || p.header[fGroupBy].set || p.header[fAggregations].set)
	p.paths = p.r.QueryType == wire.PathFinding
	if !p.agg {
		for _, f := range [...]int{fRows, fGroupBy, fAggregations} {
			if h := p.header[f]; h.set {
				return lineError(h.line, fieldNames[f]+" in a "+string(p.r.QueryType)+" response (only aggregation has it)")
			}
		}
	}
	return nil
}

func (p *parser) headerValue(f int, val string) error {
	switch f {
	case fQueryType:
		q := wire.QueryType(val)
		if !q.Valid() {
			return p.errf("unknown query_type " + textwire.Excerpt(val))
		}
		p.r.QueryType = q
	case fVersion:
		if !supportedVersion(val) {
			return p.errf("unsupported goon_version " + textwire.Excerpt(val) + " (this decoder reads " + minMajor + ".x.y to " + maxMajor + ".x.y)")
		}
	case fNodes, fEdges, fRows:
		n, ok := parseInt(val)
		if !ok || n < 0 {
			return p.errf("expected a count after " + fieldNames[f] + ":, found " + textwire.Excerpt(val))
		}
		if n > int64(p.lim.MaxElements) {
			return p.checkElements(p.lim.MaxElements+1, fieldNames[f])
		}
	case fHasMore:
		if val != "true" {
			return p.errf("expected has_more:true, found " + textwire.Excerpt(val))
		}
	case fTotalRows:
		if _, ok := parseInt(val); !ok {
			return p.errf("expected an integer after total_rows:, found " + textwire.Excerpt(val))
		}
	case fTruncated:
		if val != "true" {
			return p.errf("expected truncated:true, found " + textwire.Excerpt(val))
		}
	case fNextCursor:
		return p.cursor(val)
	case fGroupBy:
		return p.groupBy(val)
	case fAggregations:
		return p.aggregations(val)
	}
	return nil
}

// cursor reads next_cursor's value; quoted text the encoder would write
// bare gains one fillRune, as a quoted value does.
func (p *parser) cursor(val string) error {
	t, quoted, err := p.headerString(val, "next_cursor")
	if err != nil {
		return err
	}
	if quoted && cursorBare(t) {
		t += string(fillRune)
	}
	p.cursorText = t
	return nil
}

// headerString reads the string value of the header field what, as
// appendCursor writes it (quoted reports how), within MaxStringBytes.
func (p *parser) headerString(val, what string) (s string, quoted bool, err error) {
	if val == "" {
		return "", false, p.errf("expected a token after " + what + ":")
	}
	if val[0] != '"' {
		for i := 0; i < len(val); i++ {
			if !bareByte[val[i]] {
				return "", false, p.errf("unexpected " + quoteByte(val[i]) + " in the bare " + what + " (such tokens are quoted)")
			}
		}
		return val, false, p.checkString(len(val), what)
	}
	t, n, err := p.unquote(val)
	if err != nil {
		return "", false, err
	}
	if n != len(val) {
		return "", false, p.errf("unexpected " + quoteByte(val[n]) + " after the quoted " + what)
	}
	return t, true, p.checkString(len(t), what)
}

// pagination builds the response's pagination from the header fields read
// (see the package documentation, The text).
func (p *parser) pagination() error {
	hm, tr, tt, nc := p.header[fHasMore], p.header[fTotalRows], p.header[fTruncated], p.header[fNextCursor]
	switch {
	case tr.set && tt.set:
		return lineError(tt.line, "truncated (schema v5) in a header with total_rows (schema v2)")
	case tr.set && nc.set:
		return lineError(nc.line, "next_cursor (schema v5) in a header with total_rows (schema v2)")
	case tr.set:
		n, _ := parseInt(tr.value)
		p.r.Pagination = &wire.Pagination{HasMore: hm.set, TotalRows: wire.Some[int64](n)}
	case hm.set || tt.set || nc.set:
		pg := &wire.Pagination{HasMore: hm.set, Truncated: wire.Some(tt.set)}
		if nc.set {
			pg.NextCursor = wire.Some(p.cursorText)
		}
		p.r.Pagination = pg
	}
	return nil
}

// The goon_version majors Decode reads.
const (
	minMajor = "1"
	maxMajor = "4"
)

// supportedVersion reports whether v is MAJOR.MINOR.PATCH, decimals
// without leading zeros, the major from minMajor to maxMajor.
func supportedVersion(v string) bool {
	if len(v) > 3*19+2 { // three int64 decimals: no split of a long value
		return false
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 || len(parts[0]) != 1 || parts[0] < minMajor || parts[0] > maxMajor {
		return false
	}
	for _, s := range parts[1:] {
		if n, ok := parseInt(s); !ok || n < 0 {
			return false
		}
	}
	return true
}

// descriptors calls each for each name(inner) descriptor of the list val
// until an error; one that is not name(inner) is an error expecting form.
func (p *parser) descriptors(val, form string, each func(d, name, inner string) error) error {
	// One at a time: splitting a line of commas costs 16 bytes a byte.
	for rest, more := val, true; more; {
		var d string
		d, rest, more = strings.Cut(rest, ",")
		name, inner, ok := descriptor(d)
		if !ok {
			return p.errf("expected " + form + ", found " + textwire.Excerpt(d))
		}
		if err := each(d, name, inner); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) groupBy(val string) error {
	return p.descriptors(val, "a group descriptor name(node[:Entity]) or name(property[:property])", func(d, name, inner string) error {
		kind, detail, hasDetail := strings.Cut(inner, ":")
		if hasDetail && !isName(detail) {
			return p.errf("bad group descriptor " + textwire.Excerpt(d))
		}
		g := wire.GroupColumn{Name: name}
		switch kind {
		case "node":
			g.Kind = wire.GroupByNode
			if hasDetail {
				g.Entity = wire.Some(detail)
			}
		case "property":
			g.Kind = wire.GroupByProperty
			g.Property = wire.Some(name)
			if hasDetail {
				g.Property = wire.Some(detail)
			}
		default:
			return p.errf("unknown group kind " + textwire.Excerpt(kind) + " in " + textwire.Excerpt(d))
		}
		if err := p.addColumn(name, g.Kind == wire.GroupByNode); err != nil {
			return err
		}
		p.r.GroupColumns = append(p.r.GroupColumns, g)
		return nil
	})
}

func (p *parser) aggregations(val string) error {
	return p.descriptors(val, "an aggregation descriptor name(function[:target[.property]])", func(d, name, inner string) error {
		c := wire.Column{Name: name}
		fn, rest, hasTarget := strings.Cut(inner, ":")
		c.Function = fn
		bad := !isName(fn)
		if hasTarget {
			target, prop, hasProp := strings.Cut(rest, ".")
			c.Target = wire.Some(target)
			bad = bad || !isName(target)
			if hasProp {
				c.Property = wire.Some(prop)
				bad = bad || !isName(prop)
			}
		}
		if bad {
			return p.errf("bad aggregation descriptor " + textwire.Excerpt(d))
		}
		if err := p.addColumn(name, false); err != nil {
			return err
		}
		p.r.Columns = append(p.r.Columns, c)
		return nil
	})
}

func (p *parser) addColumn(name string, nodeKind bool) error {
	if err := p.checkElements(len(p.cols)+1, "columns"); err != nil {
		return err
	}
	if err := p.checkString(len(name), "column name"); err != nil {
		return err
	}
	if p.column(name) >= 0 {
		return p.errf("column name " + textwire.Clip(name) + " repeats")
	}
	p.cols = append(p.cols, rowCol{name: name, nodeKind: nodeKind})
	if p.colIndex != nil {
		p.colIndex[name] = len(p.cols) - 1
	} else if len(p.cols) > 16 {
		p.colIndex = make(map[string]int, 2*len(p.cols))
		for i, c := range p.cols {
			p.colIndex[c.name] = i
		}
	}
	return nil
}

// column returns the index of the column named name, or -1.
func (p *parser) column(name string) int {
	if p.colIndex != nil {
		if i, ok := p.colIndex[name]; ok {
			return i
		}
		return -1
	}
	for i, c := range p.cols {
		if c.name == name {
			return i
		}
	}
	return -1
}
