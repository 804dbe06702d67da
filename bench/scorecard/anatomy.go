package scorecard

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/goon"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// valueAt is one value of a response where a format writes it: the key it
// is written under (a property key or a cell name), whether it is a row
// cell rather than a node property, and the value.
type valueAt struct {
	key  string
	cell bool
	v    wire.Value
}

// valuesOf lists the values of r: every property value of every node,
// then, row by row, every cell value and every property of a node cell.
// With onceNodeCells, a node cell's properties are listed only the first
// time its node (type and id) appears in the rows, for a format that writes
// each such node once.
func valuesOf(r *wire.GraphResponse, onceNodeCells bool) []valueAt {
	var out []valueAt
	for _, n := range r.Nodes {
		for _, p := range n.Properties {
			out = append(out, valueAt{key: p.Key, v: p.Value})
		}
	}
	seen := map[string]bool{}
	for _, row := range r.Rows {
		for _, c := range row {
			if c.Node == nil {
				out = append(out, valueAt{key: c.Name, cell: true, v: c.Value})
				continue
			}
			if onceNodeCells {
				k := c.Node.Type + ":" + strconv.FormatInt(c.Node.ID, 10)
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			for _, p := range c.Node.Properties {
				out = append(out, valueAt{key: p.Key, v: p.Value})
			}
		}
	}
	return out
}

// A valueWriter returns the texts a format writes for the values of a
// response, one per value it writes (a list's elements one by one where
// the format writes them as separate items), without the quotes that
// delimit a string.
type valueWriter func(r *wire.GraphResponse) ([]string, error)

// jsonValues: canonical JSON literals; a string's text is its escaped
// contents; list elements one by one.
func jsonValues(r *wire.GraphResponse) ([]string, error) {
	var out []string
	var add func(v wire.Value)
	add = func(v wire.Value) {
		switch v.Kind() {
		case wire.KindNull:
			out = append(out, "null")
		case wire.KindBool:
			out = append(out, strconv.FormatBool(v.Bool()))
		case wire.KindInt:
			out = append(out, strconv.FormatInt(v.Int(), 10))
		case wire.KindFloat:
			if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
				out = append(out, "null")
			} else {
				out = append(out, string(textwire.AppendFloat(nil, f)))
			}
		case wire.KindString:
			q := textwire.JSON.AppendQuoted(nil, v.Text())
			out = append(out, string(q[1:len(q)-1]))
		case wire.KindList:
			for _, e := range v.List() {
				add(e)
			}
		}
	}
	for _, va := range valuesOf(r, false) {
		add(va.v)
	}
	return out, nil
}

// toonValues: TOON primitives as the TOON encoder writes them (quoted only
// where TOON requires it, the quotes then left out); list elements one by
// one.
func toonValues(r *wire.GraphResponse) ([]string, error) {
	return scalarTexts(r, func(v jsonvalue.Value) ([]byte, error) {
		return toonvalue.Marshal(v, toonvalue.EncodeOptions{})
	})
}

// scalarTexts writes every scalar of r's values (list elements one by one)
// with write, its quotes left out.
func scalarTexts(r *wire.GraphResponse, write func(jsonvalue.Value) ([]byte, error)) ([]string, error) {
	var out []string
	for _, va := range valuesOf(r, false) {
		err := eachScalar(va.v, func(v jsonvalue.Value) error {
			b, err := write(v)
			if err != nil {
				return err
			}
			if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
				b = b[1 : len(b)-1]
			}
			out = append(out, string(b))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// goonValues: each value as the GOON encoder writes it, found by encoding
// it alone — a node property in a one-node response, a row cell in a
// one-cell aggregation — and cutting the written value out of that line:
// truncation, ClickHouse datetimes in T-form and the dropped nulls and
// empty strings of node rows included; the key_len breadcrumb and a
// string's quotes left out. GOON writes a node that several rows group by
// once.
func goonValues(r *wire.GraphResponse) ([]string, error) {
	var out []string
	for _, va := range valuesOf(r, true) {
		s, err := goonValue(va)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// goonCache memoizes goonValue by key, place and canonical value.
var goonCache sync.Map // string → string

func goonValue(va valueAt) (string, error) {
	ck := string(textwire.JSON.AppendQuoted(nil, va.key)) + strconv.FormatBool(va.cell)
	if va.v.Kind() == wire.KindFloat {
		ck += "f" + strconv.FormatUint(math.Float64bits(va.v.Float()), 16)
	} else {
		ck += "v" + string(wire.AppendValueJSON(nil, va.v))
	}
	if s, ok := goonCache.Load(ck); ok {
		return s.(string), nil
	}
	s, err := goonProbe(va)
	if err != nil {
		return "", err
	}
	goonCache.Store(ck, s)
	return s, nil
}

var breadcrumb = regexp.MustCompile(` [A-Za-z_][A-Za-z0-9_]*_len=[0-9]+$`)

func goonProbe(va valueAt) (string, error) {
	const probeType = "P"
	var r *wire.GraphResponse
	var prefix string
	if va.cell {
		r = &wire.GraphResponse{
			FormatVersion: corpus.FormatVersion, QueryType: wire.Aggregation, Nodes: []wire.Node{}, Edges: []wire.Edge{},
			Columns: []wire.Column{{Name: va.key, Function: "max"}}, GroupColumns: []wire.GroupColumn{},
			Rows: []wire.Row{{{Name: va.key, Value: va.v}}},
		}
		prefix = "\n@rows\n"
	} else {
		r = &wire.GraphResponse{
			FormatVersion: corpus.FormatVersion, QueryType: wire.Search, Edges: []wire.Edge{},
			Nodes: []wire.Node{{Type: probeType, ID: 1, Properties: []wire.Property{{Key: va.key, Value: va.v}}}},
		}
		prefix = "\n" + probeType + "(1):\n1"
	}
	out, err := goon.Encode(r)
	if err != nil {
		return "", fmt.Errorf("goon value of %q: %w", va.key, err)
	}
	i := bytes.Index(out, []byte(prefix))
	if i < 0 {
		if va.cell { // a row that writes nothing: no @rows line
			return "", nil
		}
		return "", fmt.Errorf("goon value of %q: no node line in %q", va.key, out)
	}
	line := out[i+len(prefix):]
	line = line[:bytes.IndexByte(line, '\n')]
	if !va.cell && len(line) == 0 { // a node row omits the value
		return "", nil
	}
	lead := " " // a node line: "1 key=value"
	if va.cell {
		lead = "" // a row line: "key=value"
	}
	s, ok := strings.CutPrefix(string(line), lead+va.key+"=")
	if !ok {
		return "", fmt.Errorf("goon value of %q: unexpected line %q", va.key, line)
	}
	if loc := breadcrumb.FindStringIndex(s); loc != nil && (strings.HasSuffix(s[:loc[0]], "...") || strings.HasSuffix(s[:loc[0]], `..."`)) {
		s = s[:loc[0]]
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	return s, nil
}

// valueCounts memoizes o200k counts of value texts.
var valueCounts sync.Map // string → int

// countValues returns the o200k tokens of texts, each counted alone.
func countValues(texts []string) (int, error) {
	c, err := tokens.Get(tokens.O200k)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, s := range texts {
		if s == "" {
			continue
		}
		if n, ok := valueCounts.Load(s); ok {
			total += n.(int)
			continue
		}
		n, err := c.Count([]byte(s))
		if err != nil {
			return 0, err
		}
		valueCounts.Store(s, n)
		total += n
	}
	return total, nil
}

// ValueTexts returns every distinct value text the anatomy counts, over
// every text format of every case, sorted. The differential tokenizer test
// feeds them to an independent implementation.
func ValueTexts(cases []corpus.Case) ([]string, error) {
	set := map[string]bool{}
	for _, c := range cases {
		for _, f := range Formats() {
			if f.values == nil {
				continue
			}
			texts, err := f.values(c.Response)
			if err != nil {
				return nil, fmt.Errorf("scorecard: %s: %s: %w", c.ID(), f.Name, err)
			}
			for _, s := range texts {
				if s != "" {
					set[s] = true
				}
			}
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}
