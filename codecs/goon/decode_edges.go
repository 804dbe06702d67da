package goon

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// endpoint parses Type:id, ending at a space, at the start of s.
func (p *parser) endpoint(s, what string) (string, int64, int, error) {
	colon := strings.IndexByte(s, ':')
	if colon < 0 || !isName(s[:colon]) {
		return "", 0, 0, p.errf("expected " + what + " Type:id, found " + textwire.Excerpt(s))
	}
	if err := p.checkString(colon, "type name"); err != nil {
		return "", 0, 0, err
	}
	end := strings.IndexByte(s[colon:], ' ')
	if end < 0 {
		end = len(s)
	} else {
		end += colon
	}
	id, ok := parseInt(s[colon+1 : end])
	if !ok {
		return "", 0, 0, p.errf("bad id " + textwire.Excerpt(s[colon+1:end]) + " in " + what + ", expected a decimal int64")
	}
	return s[:colon], id, end, nil
}

// edgeGroups words the errors of @edges' groups.
var edgeGroups = groupKind{header: "an edge group REL(count):", orphan: "an edge before its REL(n): group", items: "edges"}

// parseEdges reads @edges, or @paths, into the response's edges.
func (p *parser) parseEdges() (err error) {
	minLine, section := minEdgeLine, "@edges"
	if p.paths {
		minLine, section = minPathEdge, "@paths"
	}
	c := newCounted[wire.Edge](p, fEdges, minLine, !p.paths)
	add := func(e wire.Edge) error {
		p.meter.Clean = true // an edge's strings are names
		ok := p.meter.Edge(c.add(e))
		p.meter.Clean = false
		if !ok {
			return p.tooBig(p.line)
		}
		return nil
	}
	if p.paths {
		err = p.parsePaths(add)
	} else {
		err = grouped(p, &edgeGroups, p.edgeLine, add)
	}
	p.r.Edges, err = c.done(p, err, fEdges, section, "edges")
	return err
}

// edgeLine parses "From:id --> To:id[ depth=D][ path_id=P][ step=S]".
func (p *parser) edgeLine(typ string) (wire.Edge, error) {
	s := p.cur
	e := wire.Edge{Type: typ}
	var n int
	var err error
	if e.From, e.FromID, n, err = p.endpoint(s, "source"); err != nil {
		return e, err
	}
	s = s[n:]
	if !strings.HasPrefix(s, " --> ") {
		return e, p.errf("expected \" --> \" after the source")
	}
	s = s[5:]
	if e.To, e.ToID, n, err = p.endpoint(s, "target"); err != nil {
		return e, err
	}
	s = s[n:]
	opts := [...]struct {
		key string
		v   *wire.Opt[int64]
	}{{" depth=", &e.Depth}, {" path_id=", &e.PathID}, {" step=", &e.Step}}
	for _, o := range opts {
		if !strings.HasPrefix(s, o.key) {
			continue
		}
		s = s[len(o.key):]
		end := strings.IndexByte(s, ' ')
		if end < 0 {
			end = len(s)
		}
		v, ok := parseInt(s[:end])
		if !ok {
			return e, p.errf("expected an integer after" + o.key + ", found " + textwire.Excerpt(s[:end]))
		}
		*o.v = wire.Some[int64](v)
		s = s[end:]
	}
	if s != "" {
		return e, p.errf("unexpected " + textwire.Excerpt(s) + " after the edge (expected depth=, path_id=, step= in that order)")
	}
	return e, nil
}

// parsePaths parses "path=P: T:id --REL--> T:id ..." lines, in increasing
// path id; edge k of a path gets step k.
func (p *parser) parsePaths(add func(wire.Edge) error) error {
	var last int64
	first := true
	return p.eachLine(func() error {
		s := p.cur
		if !strings.HasPrefix(s, "path=") {
			return p.errf("expected path=ID: ..., found " + textwire.Excerpt(s))
		}
		colon := strings.IndexByte(s, ':')
		if colon < 0 {
			return p.errf("expected ':' after the path id")
		}
		pid, ok := parseInt(s[5:colon])
		if !ok {
			return p.errf("bad path id " + textwire.Excerpt(s[5:colon]))
		}
		if !first && pid <= last {
			return p.errf("path " + strconv.FormatInt(pid, 10) + " after path " + strconv.FormatInt(last, 10) + " (paths come once each, in increasing id)")
		}
		first, last = false, pid
		s = s[colon+1:]
		if !strings.HasPrefix(s, " ") {
			return p.errf("expected a space after path=" + strconv.FormatInt(pid, 10) + ":")
		}
		from, fromID, n, err := p.endpoint(s[1:], "path start")
		if err != nil {
			return err
		}
		s = s[1+n:]
		if s == "" {
			return p.errf("path " + strconv.FormatInt(pid, 10) + " has no edges")
		}
		for step := int64(0); s != ""; step++ {
			if !strings.HasPrefix(s, " --") {
				return p.errf("expected \" --REL--> \" in the path, found " + textwire.Excerpt(s))
			}
			s = s[3:]
			arrow := strings.Index(s, "--> ")
			if arrow < 0 || !isName(s[:arrow]) {
				return p.errf("expected a relationship --REL--> in the path, found " + textwire.Excerpt(s))
			}
			rel := s[:arrow]
			if err := p.checkString(len(rel), "relationship type"); err != nil {
				return err
			}
			s = s[arrow+4:]
			to, toID, n, err := p.endpoint(s, "path node")
			if err != nil {
				return err
			}
			s = s[n:]
			if err := add(wire.Edge{From: from, FromID: fromID, To: to, ToID: toID, Type: rel,
				PathID: wire.Some[int64](pid), Step: wire.Some[int64](step)}); err != nil {
				return err
			}
			from, fromID = to, toID
		}
		return nil
	})
}
