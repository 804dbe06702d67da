package goon_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// genOptions: every query type, NaN and ±Inf included (GOON drops them).
var genOptions = wiretest.Options{NonFinite: true}

func mustEncode(t *rapid.T, r *wire.GraphResponse) []byte {
	t.Helper()
	b, err := goon.Encode(r)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return b
}

// The fixed point of SPEC §5: encode(decode(encode(r))) == encode(r).
func TestPropertyFixedPoint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(genOptions).Draw(t, "response")
		first := mustEncode(t, r)
		d, err := goon.Decode(first)
		if err != nil {
			t.Fatalf("Decode of the encoder's output: %v\n%s", err, first)
		}
		second := mustEncode(t, d)
		if !bytes.Equal(first, second) {
			t.Fatalf("fixed point broken:\nfirst:\n%s\nsecond:\n%s", first, second)
		}
	})
}

// Shuffling nodes, edges, properties and (aggregation) row cells does not
// change the output; aggregation keeps the server's node and row order, so
// there only edges, properties and cells are shuffled.
func TestPropertyShuffleInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(genOptions).Draw(t, "response")
		want := mustEncode(t, r)
		s := clone(r)
		agg := s.QueryType == wire.Aggregation
		if !agg {
			s.Nodes = rapid.Permutation(s.Nodes).Draw(t, "nodes")
		}
		s.Edges = rapid.Permutation(s.Edges).Draw(t, "edges")
		for i := range s.Nodes {
			s.Nodes[i].Properties = rapid.Permutation(s.Nodes[i].Properties).Draw(t, "props")
		}
		for _, row := range s.Rows {
			for j := range row {
				if n := row[j].Node; n != nil {
					n.Properties = rapid.Permutation(n.Properties).Draw(t, "cell props")
				}
			}
			if agg {
				copy(row, rapid.Permutation(row).Draw(t, "cells"))
			}
		}
		if got := mustEncode(t, s); !bytes.Equal(got, want) {
			t.Fatalf("shuffled input encodes differently:\nwant:\n%s\ngot:\n%s", want, got)
		}
	})
}

// Encoding is pure: the same bytes every time, and the response untouched.
func TestPropertyPurity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(genOptions).Draw(t, "response")
		before := clone(r)
		a := mustEncode(t, r)
		b := mustEncode(t, r)
		if !bytes.Equal(a, b) {
			t.Fatalf("two encodes differ:\n%s\n---\n%s", a, b)
		}
		if diff := wiretest.Diff(before, r, wire.Exact); diff != "" {
			t.Fatalf("Encode changed its input (-before +after):\n%s", diff)
		}
		prefix := []byte("prefix")
		c, err := goon.AppendEncode(prefix, r)
		if err != nil || !bytes.Equal(c[:6], prefix) || !bytes.Equal(c[6:], a) {
			t.Fatalf("AppendEncode does not append the same bytes (err %v)", err)
		}
	})
}

// The text's shape: starts with @header\n, every line ends with \n, no
// blank line, valid UTF-8, no control character but the line feeds (so no
// raw \r or \t).
func TestPropertyTextShape(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(genOptions).Draw(t, "response")
		out := mustEncode(t, r)
		checkShape(t, out)
	})
}

func checkShape(t interface{ Fatalf(string, ...any) }, out []byte) {
	if !bytes.HasPrefix(out, []byte("@header\n")) {
		t.Fatalf("output does not start with @header\\n:\n%s", out)
	}
	if len(out) == 0 || out[len(out)-1] != '\n' {
		t.Fatalf("output does not end with a newline:\n%s", out)
	}
	if i := bytes.Index(out, []byte("\n\n")); i >= 0 {
		t.Fatalf("blank line at byte %d:\n%s", i+1, out)
	}
	if !utf8.Valid(out) {
		t.Fatalf("invalid UTF-8:\n%q", out)
	}
	for i, c := range out {
		if (c < 0x20 && c != '\n') || c == 0x7f {
			t.Fatalf("control character %q at byte %d:\n%q", c, i, out)
		}
	}
}

// With arbitrary names (spaces, quotes, unicode), Encode either refuses the
// response with a *wire.EncodeError and appends nothing, or writes text that
// holds every property above.
func TestPropertyAwkwardNames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true}).Draw(t, "response")
		dst := []byte("x")
		out, err := goon.AppendEncode(dst, r)
		if err != nil {
			var ee *wire.EncodeError
			if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "goon: ") {
				t.Fatalf("error %v (%T) is not a *wire.EncodeError", err, err)
			}
			if string(out) != "x" {
				t.Fatalf("failed AppendEncode changed dst to %q", out)
			}
			return
		}
		out = out[1:]
		checkShape(t, out)
		d, err := goon.Decode(out)
		if err != nil {
			t.Fatalf("Decode: %v\n%s", err, out)
		}
		if again := mustEncode(t, d); !bytes.Equal(again, out) {
			t.Fatalf("fixed point broken:\n%s\n---\n%s", out, again)
		}
	})
}

// clone deep-copies a response (values are immutable and shared).
func clone(r *wire.GraphResponse) *wire.GraphResponse {
	c := *r
	c.Nodes = cloneNodes(r.Nodes)
	c.Edges = append([]wire.Edge(nil), r.Edges...)
	if r.Columns != nil {
		c.Columns = append([]wire.Column{}, r.Columns...)
	}
	if r.GroupColumns != nil {
		c.GroupColumns = append([]wire.GroupColumn{}, r.GroupColumns...)
	}
	if r.Rows != nil {
		c.Rows = make([]wire.Row, len(r.Rows))
		for i, row := range r.Rows {
			c.Rows[i] = make(wire.Row, len(row))
			for j, cell := range row {
				if cell.Node != nil {
					n := cloneNodes([]wire.Node{*cell.Node})[0]
					cell.Node = &n
				}
				c.Rows[i][j] = cell
			}
		}
	}
	if r.Pagination != nil {
		p := *r.Pagination
		c.Pagination = &p
	}
	return &c
}

func cloneNodes(ns []wire.Node) []wire.Node {
	if ns == nil {
		return nil
	}
	out := make([]wire.Node, len(ns))
	for i, n := range ns {
		n.Properties = append([]wire.Property(nil), n.Properties...)
		out[i] = n
	}
	return out
}
