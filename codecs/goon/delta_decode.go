package goon

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// DecodeDelta implements delta.Codec: it reads the GOON form of a delta
// under the codec's Limits. Errors are *wire.DecodeError naming the line
// ("goon: line 9: @moved: expected at=P before the node"); a limit passed
// matches errors.Is(err, wire.ErrLimit). What it builds, its copy of the
// input included, is charged to a delta.Meter: past MaxExpansion times
// the input plus wire.ExpansionAllowance bytes in memory it refuses at the
// line it reached. The delta is not trusted:
// delta.Patch checks it against its base and result fingerprints.
func (c *Codec) DecodeDelta(data []byte) (*delta.Delta, error) {
	if int64(len(data)) > c.limits.MaxInputBytes {
		return nil, &wire.DecodeError{Codec: Name, Offset: c.limits.MaxInputBytes, Limit: "MaxInputBytes",
			Msg: "input of " + strconv.Itoa(len(data)) + " bytes is longer than the limit of " + strconv.FormatInt(c.limits.MaxInputBytes, 10)}
	}
	data = bytes.TrimPrefix(data, bom)
	m := delta.NewMeter(c.limits, len(data))
	m.Scratch(int64(len(data))) // the parser's copy of the input
	p := deltaParser{parser: parser{src: string(data), lim: c.limits, meter: m.Response()}, m: m}
	return p.parseDelta()
}

// deltaParser reads a delta with the parser of a response, charging what
// it builds to m (the parser's meter is m's Response).
type deltaParser struct {
	parser
	m *delta.Meter
}

// refused is the error of a charge to p.m that did not fit.
func (p *deltaParser) refused() error {
	return &wire.DecodeError{Codec: Name, Line: p.line, Msg: p.m.Msg(), Limit: p.m.LimitName()}
}

// SniffDelta is the confidence that prefix opens the GOON form of a delta:
// 0.99 when its first line is "@delta" or "@delta unchanged ..." (after an
// optional byte order mark and blank lines), 0 otherwise. Sniff rates a
// delta 0.
func (c *Codec) SniffDelta(prefix []byte) float64 {
	if isDelta(prefix) {
		return 0.99
	}
	return 0
}

// isDelta reports whether prefix opens a GOON delta.
func isDelta(prefix []byte) bool {
	t, ok := wire.SniffText(prefix)
	if !ok {
		return false
	}
	return bytes.HasPrefix(t, []byte(deltaMarker+"\n")) || bytes.HasPrefix(t, []byte(deltaMarker+"\r\n")) ||
		bytes.HasPrefix(t, []byte(deltaMarker+" unchanged "))
}

var _ delta.Codec = (*Codec)(nil)

func (p *deltaParser) parseDelta() (*delta.Delta, error) {
	if len(p.src) == 0 {
		return nil, lineError(1, "empty input, expected "+deltaMarker)
	}
	if err := p.checkText(); err != nil {
		return nil, err
	}
	p.next()
	d := &delta.Delta{}
	if rest, ok := strings.CutPrefix(p.cur, deltaMarker+" unchanged "); ok {
		h, err := delta.ParseHash(rest)
		if err != nil {
			return nil, p.errf("@delta unchanged: " + err.Error())
		}
		if p.next() {
			return nil, p.errf("a line after \"@delta unchanged\", which is the whole document")
		}
		d.Base, d.Result = h, h
		return d, nil
	}
	if p.cur != deltaMarker {
		return nil, p.errf("expected " + deltaMarker + ", found " + textwire.Excerpt(p.cur))
	}
	if err := p.deltaHeader(d); err != nil {
		return nil, err
	}
	last := -1
	var rowAt []int
	content := false
	for p.cur != "" {
		i := deltaSection(p.cur)
		switch {
		case i < 0:
			return nil, p.errf("unknown section " + textwire.Excerpt(p.cur) + " in a delta")
		case i <= last:
			return nil, p.errf("section " + textwire.Excerpt(p.cur) + " out of order or repeated (the order is " + strings.Join(deltaSections, " ") + ")")
		}
		last = i
		marker, markerLine := p.cur, p.line
		var err error
		switch name := deltaSections[i]; name {
		case secRows:
			err = p.deltaRows(&d.Rows, &rowAt)
		case secContent:
			err = p.deltaContent(d, marker, rowAt)
			content = true
		case secEdgesRemoved, secEdgesMoved, secEdgesAdded:
			err = p.deltaEdges(&d.Edges, name)
		default:
			err = p.deltaNodes(&d.Nodes, name)
		}
		if err != nil {
			return nil, err
		}
		empty := p.line == markerLine || p.line == markerLine+1 && p.cur != ""
		if empty && deltaSections[i] != secContent {
			return nil, lineError(markerLine, marker+" is empty (a delta leaves out an empty section)")
		}
	}
	if !content && len(rowAt) > 0 {
		return nil, p.errf("rows added_at, but no " + secContent + " holds them")
	}
	return d, nil
}

func deltaSection(line string) int {
	for i, s := range deltaSections {
		if line == s || s == secContent && strings.HasPrefix(line, s+" ") {
			return i
		}
	}
	return -1
}

// deltaHeader reads base:, result:, query_type: and the optional
// format_version:, in that order, leaving the first section marker (or
// "") in p.cur.
func (p *deltaParser) deltaHeader(d *delta.Delta) error {
	fields := [...]string{"base", "result", "query_type", "format_version"}
	f := 0
	err := p.eachLine(func() error {
		key, val, ok := strings.Cut(p.cur, ":")
		if !ok {
			return p.errf("expected key:value in the delta's header, found " + textwire.Excerpt(p.cur))
		}
		for f < len(fields) && fields[f] != key {
			if f < 3 {
				return p.errf("expected " + fields[f] + ": in the delta's header, found " + textwire.Excerpt(p.cur))
			}
			f++
		}
		if f == len(fields) {
			return p.errf("unknown or repeated header field " + textwire.Excerpt(key) + " in a delta")
		}
		f++
		var err error
		switch key {
		case "base":
			d.Base, err = delta.ParseHash(val)
		case "result":
			d.Result, err = delta.ParseHash(val)
		case "query_type":
			if d.QueryType = wire.QueryType(val); !d.QueryType.Valid() {
				return p.errf("unknown query_type " + textwire.Excerpt(val))
			}
		case "format_version":
			if d.FormatVersion, err = jsonString(val); err == nil && d.FormatVersion == "" {
				return p.errf(`format_version:"" (an empty format_version is left out)`)
			}
		}
		if err != nil {
			return p.errf(key + ": " + err.Error())
		}
		return nil
	})
	if err != nil {
		return err
	}
	if f < 3 {
		return p.errf("the delta's header ends without " + fields[f] + ":")
	}
	if d.Base == d.Result {
		return p.errf("base and result are equal: such a delta is the one line \"@delta unchanged " + d.Base.String() + "\"")
	}
	return nil
}

// jsonString reads a JSON string literal, the whole of s.
func jsonString(s string) (string, error) {
	r, err := wire.DecodeJSON([]byte(`{"format_version":`+s+`,"query_type":"search"}`), wire.Limits{MaxStringBytes: len(s) + 1})
	if err != nil {
		return "", errors.New("expected a JSON string, found " + textwire.Excerpt(s))
	}
	return r.FormatVersion, nil
}

// deltaPrefix reads the "at=P " (when at is wanted) and "n=K " prefixes
// of p.cur and leaves the rest in p.cur; at is -1 when not wanted.
func (p *deltaParser) deltaPrefix(section string, wantAt, allowN bool) (at, n int, err error) {
	at = -1
	if wantAt {
		if at, err = p.prefixInt(section, "at=", 0); err != nil {
			return 0, 0, err
		}
		if at < 0 {
			return 0, 0, p.errf(section + ": expected at=POSITION first, found " + textwire.Excerpt(p.cur))
		}
	} else if strings.HasPrefix(p.cur, "at=") {
		return 0, 0, p.errf(section + ": at= has no place here (nothing is placed)")
	}
	if allowN {
		if n, err = p.prefixInt(section, "n=", 1); err != nil {
			return 0, 0, err
		}
		n = max(n, 0)
	} else if strings.HasPrefix(p.cur, "n=") {
		return 0, 0, p.errf(section + ": n= has no place here (an added element has no occurrence number)")
	}
	return at, n, nil
}

// prefixInt reads "key=V " at the start of p.cur, V an int from low to
// MaxInt32; -1 when p.cur does not start with key.
func (p *deltaParser) prefixInt(section, key string, low int64) (int, error) {
	rest, ok := strings.CutPrefix(p.cur, key)
	if !ok {
		return -1, nil
	}
	tok, rest, ok := strings.Cut(rest, " ")
	v, isInt := parseInt(tok)
	if !ok || !isInt || v < low || v > math.MaxInt32 {
		return 0, p.errf(section + ": expected " + key + "N (" + strconv.FormatInt(low, 10) + " to 2147483647) and a space, found " + textwire.Excerpt(p.cur))
	}
	p.cur = rest
	return int(v), nil
}

var deltaNodeGroups = groupKind{header: "a node group Type(count):", orphan: "a node line before its Type(n): group", items: "lines"}

func (p *deltaParser) deltaNodes(o *delta.NodeOps, section string) error {
	count := 0
	return p.grouped(&deltaNodeGroups, func(typ string) error {
		count++
		if err := p.checkElements(count, section[1:]+" nodes"); err != nil {
			return err
		}
		placed := section == secMoved || section == secAdded
		at, n, err := p.deltaPrefix(section, placed, section != secAdded)
		if err != nil {
			return err
		}
		if section == secRemoved || section == secMoved {
			id, ok := parseInt(p.cur)
			if !ok {
				return p.errf(section + ": expected a node id (a decimal int64) alone, found " + textwire.Excerpt(p.cur))
			}
			k := delta.NodeKey{Type: typ, ID: id, N: n}
			if section == secRemoved {
				o.Removed, ok = delta.Append(p.m, o.Removed, k)
			} else {
				o.Moved, ok = delta.Append(p.m, o.Moved, delta.Move[delta.NodeKey]{Key: k, At: at})
			}
			if !ok {
				return p.refused()
			}
			return nil
		}
		node, err := p.nodeRow(typ)
		if err != nil {
			return err
		}
		if !p.meter.Node(&node) {
			return p.tooBig(p.line)
		}
		p.restored = 0
		ok := p.m.Fits()
		if section == secChanged && ok {
			o.Changed, ok = delta.Append(p.m, o.Changed, delta.Changed{N: n, Node: node})
		} else if ok {
			o.Added, ok = delta.Append(p.m, o.Added, delta.Placed[wire.Node]{At: at, Item: node})
		}
		if !ok {
			return p.refused()
		}
		return nil
	})
}

var deltaEdgeGroups = groupKind{header: "an edge group REL(count):", orphan: "an edge line before its REL(n): group", items: "edges"}

func (p *deltaParser) deltaEdges(o *delta.EdgeOps, section string) error {
	count := 0
	return p.grouped(&deltaEdgeGroups, func(typ string) error {
		count++
		if err := p.checkElements(count, section[1:]); err != nil {
			return err
		}
		at, n, err := p.deltaPrefix(section, section != secEdgesRemoved, section != secEdgesAdded)
		if err != nil {
			return err
		}
		e, err := p.edgeLine(typ)
		if err != nil {
			return err
		}
		if !p.meter.Edge(&e) {
			return p.tooBig(p.line)
		}
		ok := p.m.Fits()
		switch {
		case !ok:
		case section == secEdgesRemoved:
			o.Removed, ok = delta.Append(p.m, o.Removed, delta.EdgeKey{Edge: e, N: n})
		case section == secEdgesMoved:
			o.Moved, ok = delta.Append(p.m, o.Moved, delta.Move[delta.EdgeKey]{Key: delta.EdgeKey{Edge: e, N: n}, At: at})
		default:
			o.Added, ok = delta.Append(p.m, o.Added, delta.Placed[wire.Edge]{At: at, Item: e})
		}
		if !ok {
			return p.refused()
		}
		return nil
	})
}

// deltaRows reads @rows: removed:, moved: and added_at: lines, in that
// order, each a list of positions separated by spaces (moved: FROM>AT).
func (p *deltaParser) deltaRows(o *delta.RowOps, rowAt *[]int) error {
	keys := [...]string{"removed", "moved", "added_at"}
	k := 0
	return p.eachLine(func() error {
		key, val, ok := strings.Cut(p.cur, ":")
		for ok && k < len(keys) && keys[k] != key {
			k++
		}
		if !ok || k == len(keys) || val == "" {
			return p.errf("@rows: expected removed:, moved: or added_at: (in that order, each once, not empty), found " + textwire.Excerpt(p.cur))
		}
		k++
		count := 0
		for tok := range strings.SplitSeq(val, " ") {
			count++
			if err := p.checkElements(count, "rows "+key); err != nil {
				return err
			}
			var from, at int
			var err error
			ok := true
			if key == "moved" {
				f, a, found := strings.Cut(tok, ">")
				if !found {
					return p.errf("@rows: moved: expected FROM>AT, found " + textwire.Excerpt(tok))
				}
				if from, err = p.position(f); err == nil {
					at, err = p.position(a)
				}
				if err == nil {
					o.Moved, ok = delta.Append(p.m, o.Moved, delta.Move[int]{Key: from, At: at})
				}
			} else if at, err = p.position(tok); err == nil && key == "removed" {
				o.Removed, ok = delta.Append(p.m, o.Removed, at)
			} else if err == nil {
				*rowAt, ok = delta.Append(p.m, *rowAt, at)
			}
			if err != nil {
				return err
			}
			if !ok {
				return p.refused()
			}
		}
		return nil
	})
}

func (p *deltaParser) position(s string) (int, error) {
	v, ok := parseInt(s)
	if !ok || v < 0 || v > math.MaxInt32 {
		return 0, p.errf("@rows: expected a position (0 to 2147483647), found " + textwire.Excerpt(s))
	}
	return int(v), nil
}

// deltaContent reads "@content[ field...]" and its one line of canonical
// JSON: the rows added and the header fields set. It must end the input.
func (p *deltaParser) deltaContent(d *delta.Delta, marker string, rowAt []int) error {
	f := 0
	if names := strings.TrimPrefix(marker, secContent); names != "" {
		for name := range strings.SplitSeq(names[1:], " ") {
			for f < len(setFields) && setFields[f].name != name {
				f++
			}
			if f == len(setFields) {
				return p.errf(secContent + ": expected the fields set, among columns group_columns pagination in that order, found " + textwire.Excerpt(names[1:]))
			}
			d.Set |= setFields[f].bit
			f++
		}
	}
	if !p.next() || p.cur == "" || p.cur[0] == '@' {
		return p.errf(secContent + ": expected a line of canonical JSON")
	}
	line := p.line
	c, err := wire.DecodeJSON([]byte(p.cur), p.lim)
	if err != nil {
		var de *wire.DecodeError
		if errors.As(err, &de) {
			return &wire.DecodeError{Codec: Name, Line: line, Column: int(de.Offset) + 1, Msg: "content: " + de.Msg, Limit: de.Limit}
		}
		return lineError(line, "content: "+err.Error())
	}
	if p.next() {
		return p.errf("a line after " + secContent + "'s JSON, which ends a delta")
	}
	if !p.m.Content(c) {
		return &wire.DecodeError{Codec: Name, Line: line, Msg: "content: " + p.m.Msg(), Limit: p.m.LimitName()}
	}
	p.cur = ""
	switch {
	case c.QueryType != d.QueryType:
		return lineError(line, "content: query_type "+textwire.Clip(string(c.QueryType))+" but the header says "+string(d.QueryType))
	case c.FormatVersion != d.FormatVersion:
		return lineError(line, "content: format_version differs from the header's")
	case len(c.Nodes)+len(c.Edges) > 0:
		return lineError(line, "content: nodes or edges (a GOON delta writes them in its node and edge sections)")
	case len(c.Rows) != len(rowAt):
		return lineError(line, "content: "+strconv.Itoa(len(c.Rows))+" rows, @rows added_at places "+strconv.Itoa(len(rowAt)))
	}
	d.Rows.Present = c.Rows != nil
	for i, at := range rowAt {
		var ok bool
		if d.Rows.Added, ok = delta.Append(p.m, d.Rows.Added, delta.Placed[wire.Row]{At: at, Item: c.Rows[i]}); !ok {
			return p.refused()
		}
	}
	for _, sf := range setFields {
		if has := sf.take(d, c); has && !d.Set.Has(sf.bit) {
			return lineError(line, "content: "+sf.name+" that "+secContent+" does not name as set")
		}
	}
	return nil
}
