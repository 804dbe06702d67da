package goon

import (
	"strconv"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// Encode errors are *wire.EncodeError values with Codec "goon". Besides
// the limits (see Security), GOON refuses a response it cannot carry: an
// invalid query type or group kind, a name that is not a GOON name (entity
// and relationship types, property keys, column names and aliases must be
// ASCII letters, digits and underscores, since the line grammar is built
// from them), a property named "id" or "type", or two properties of one
// node with the same key.
//
// Decode errors are *wire.DecodeError values with Codec "goon" and the
// 1-based line: "goon: line 7: expected ...". A limit passed sets the
// error's Limit, so errors.Is(err, wire.ErrLimit) holds. Input quoted in a
// message is cut by textwire.Excerpt.

// notName is the encode error for a name outside GOON's name rule.
func notName(path, what, s string) error {
	return &wire.EncodeError{Codec: Name, Path: path, Msg: what + " " + strconv.Quote(s) + " is not a GOON name (ASCII letters, digits, '_')"}
}

// badKey is the encode error for a property key GOON cannot write.
func (e *encoder) badKey(n *wire.Node, k string, class uint8) error {
	if class == classReserved {
		return &wire.EncodeError{Codec: Name, Path: nodePath(n), Msg: "property named " + strconv.Quote(k) + " (reserved for the node itself)"}
	}
	return notName(nodePath(n), "property key", k)
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

// tooBig is the error for a response whose materialised size passes the
// meter's limit at line: MaxMaterializedBytes, or MaxExpansion times the
// input.
func (p *parser) tooBig(line int) error {
	return &wire.DecodeError{Codec: Name, Line: line, Msg: p.meter.Msg(), Limit: p.meter.LimitName()}
}

// limitErr is a positioned error for the Limits field limit.
func (p *parser) limitErr(limit, msg string) error {
	return &wire.DecodeError{Codec: Name, Line: p.line, Msg: msg, Limit: limit}
}

// checkString refuses a string (a value, key or name) longer than the
// MaxStringBytes limit.
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
