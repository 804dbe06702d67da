package goon

import (
	"strconv"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// notName is the encode error for a name outside GOON's name rule.
func notName(path, what, s string) error {
	return &wire.EncodeError{Codec: Name, Path: path, Msg: what + " " + strconv.Quote(s) + " is not a GOON name (ASCII letters, digits, '_')"}
}

// nodePath is the wirecodec.Path of n, found only once an error is
// certain: nodes[i], or the row cell of a node lifted from rows.
func (e *encoder) nodePath(n *wire.Node) wirecodec.Path {
	r := e.r
	for i := range r.Nodes {
		if &r.Nodes[i] == n {
			return wirecodec.NodePath(i)
		}
	}
	for i, row := range r.Rows {
		for j := range row {
			if row[j].Node == n {
				return wirecodec.RowPath(i).Key(j, row[j].Name)
			}
		}
	}
	return wirecodec.Path{}.Field("nodes")
}

// edgePath is the wirecodec.Path of ed.
func (e *encoder) edgePath(ed *wire.Edge) wirecodec.Path {
	if r := e.r; r != nil {
		for i := range r.Edges {
			if &r.Edges[i] == ed {
				return wirecodec.EdgePath(i)
			}
		}
	}
	return wirecodec.Path{}.Field("edges")
}

// lineError is a decode error at the 1-based line.
func lineError(line int, msg string) error {
	return &wire.DecodeError{Codec: Name, Line: line, Msg: msg}
}

func (p *parser) errf(msg string) error { return lineError(p.line, msg) }

func (p *parser) sectionError(want string) error {
	if !sections[p.cur] {
		return p.errf("unknown section " + textwire.Excerpt(p.cur) + ", expected " + want)
	}
	return p.errf("section " + p.cur + " out of order, expected " + want)
}

var sections = map[string]bool{"@header": true, "@nodes": true, "@edges": true, "@paths": true, "@rows": true}

func (p *parser) groupEnds(typ string, declared, left int, what string) error {
	return p.errf("group " + textwire.Clip(typ) + "(" + strconv.Itoa(declared) + "): ends after " + strconv.Itoa(declared-left) + " " + what)
}

func quoteByte(c byte) string {
	if c < utf8.RuneSelf {
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// tooBig is the error for a response the meter refuses at line.
func (p *parser) tooBig(line int) error {
	return &wire.DecodeError{Codec: Name, Line: line, Msg: p.meter.Msg(), Limit: p.meter.LimitName()}
}

// limitErr is a positioned error for the Limits field limit.
func (p *parser) limitErr(limit, msg string) error {
	return &wire.DecodeError{Codec: Name, Line: p.line, Msg: msg, Limit: limit}
}

// checkString refuses a string longer than MaxStringBytes.
func (p *parser) checkString(n int, what string) error {
	if n > p.lim.MaxStringBytes {
		return p.limitErr("MaxStringBytes", what+" of "+strconv.Itoa(n)+" bytes is longer than the limit of "+strconv.Itoa(p.lim.MaxStringBytes))
	}
	return nil
}

// checkElements refuses a sequence of more than MaxElements items.
func (p *parser) checkElements(n int, what string) error {
	if n > p.lim.MaxElements {
		return p.limitErr("MaxElements", "more than "+strconv.Itoa(p.lim.MaxElements)+" "+what+" (the limit)")
	}
	return nil
}

// checkCount refuses a section of n items where header field f declared
// another count.
func (p *parser) checkCount(f int, section string, n int, items string) error {
	if h := p.header[f]; h.set && strconv.Itoa(n) != h.value { // a fragment may have no count
		return lineError(h.line, fieldNames[f]+":"+textwire.Clip(h.value)+" but "+section+" has "+strconv.Itoa(n)+" "+items)
	}
	return nil
}
