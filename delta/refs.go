package delta

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/internal/textwire"
	"github.com/graphwire/graphwire/wire"
)

// References in a document: the nodes a response references leave its
// content and are named in sent_earlier and sent_earlier_at (see the
// package doc, "Sessions").

// referencedDocument is the header and content that carry r with the
// nodes at positions refs (ascending, in range, each once) as references.
func referencedDocument(r *wire.GraphResponse, refs []int) ([]Field, *wire.GraphResponse) {
	if len(refs) == 0 {
		return nil, r
	}
	content := *r
	content.Nodes = make([]wire.Node, 0, len(r.Nodes)-len(refs))
	type group struct {
		typ string
		at  []int
	}
	var groups []group
	index := map[string]int{}
	k := 0
	for i := range r.Nodes {
		if k < len(refs) && refs[k] == i {
			k++
			g, ok := index[r.Nodes[i].Type]
			if !ok {
				g = len(groups)
				index[r.Nodes[i].Type] = g
				groups = append(groups, group{typ: r.Nodes[i].Type})
			}
			groups[g].at = append(groups[g].at, i)
			continue
		}
		content.Nodes = append(content.Nodes, r.Nodes[i])
	}
	var text []byte
	at := make([]int, 0, len(refs))
	for gi, g := range groups {
		if gi > 0 {
			text = append(text, "; "...)
		}
		text = appendType(text, g.typ)
		for _, i := range g.at {
			text = append(text, ' ')
			text = strconv.AppendInt(text, r.Nodes[i].ID, 10)
			at = append(at, i)
		}
	}
	return []Field{{Name: FieldSentEarlier, Text: string(text)}, {Name: FieldSentEarlierAt, Ints: at}}, &content
}

// plainType reports whether t is written as it is in sent_earlier.
func plainType(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func appendType(b []byte, t string) []byte {
	if plainType(t) {
		return append(b, t...)
	}
	return textwire.JSON.AppendQuoted(b, t)
}

// referenced is the response a document's header and content carry, each
// reference a node of its type and id with nil properties, and the
// positions of the references, ascending; a document without references
// is its content.
func referenced(h []Field, content *wire.GraphResponse) (*wire.GraphResponse, []int, error) {
	v := fieldMap(h)
	text, hasText := v[FieldSentEarlier]
	at, hasAt := v[FieldSentEarlierAt]
	if !hasText && !hasAt {
		if content == nil {
			return nil, nil, errors.New("delta: the document has no content")
		}
		return content, nil, nil
	}
	if content == nil {
		return nil, nil, errors.New("delta: references without content")
	}
	nodes, err := parseSentEarlier(text.Text, len(at.Ints))
	if err != nil {
		return nil, nil, err
	}
	if len(nodes) != len(at.Ints) {
		return nil, nil, errors.New("delta: sent_earlier names " + strconv.Itoa(len(nodes)) + " nodes and sent_earlier_at " + strconv.Itoa(len(at.Ints)) + " positions")
	}
	total := len(content.Nodes) + len(nodes)
	out := *content
	out.Nodes = make([]wire.Node, total)
	taken := make([]bool, total)
	for k, i := range at.Ints {
		if i < 0 || i >= total || taken[i] {
			return nil, nil, errors.New("delta: sent_earlier_at[" + strconv.Itoa(k) + "]: position " + strconv.Itoa(i) +
				" is outside the response's " + strconv.Itoa(total) + " nodes or named twice")
		}
		taken[i] = true
		out.Nodes[i] = nodes[k]
	}
	j := 0
	for i := range out.Nodes {
		if !taken[i] {
			out.Nodes[i] = content.Nodes[j]
			j++
		}
	}
	refs := slices.Clone(at.Ints)
	slices.Sort(refs)
	return &out, refs, nil
}

// parseSentEarlier reads sent_earlier's text: at most max nodes (the
// positions given), so that the text allocates by what the header holds.
func parseSentEarlier(s string, max int) ([]wire.Node, error) {
	var nodes []wire.Node
	for i := 0; ; {
		typ, n, err := readType(s[i:])
		if err != nil {
			return nil, err
		}
		i += n
		ids := 0
		for i < len(s) && s[i] == ' ' {
			j := i + 1
			for j < len(s) && s[j] != ' ' && s[j] != ';' {
				j++
			}
			id, err := strconv.ParseInt(s[i+1:j], 10, 64)
			if err != nil {
				return nil, errors.New("delta: sent_earlier: " + strconv.Quote(short(s[i+1:j])) + " is not an id (a decimal integer)")
			}
			if len(nodes) == max {
				return nil, errors.New("delta: sent_earlier names more nodes than sent_earlier_at has positions (" + strconv.Itoa(max) + ")")
			}
			nodes = append(nodes, wire.Node{Type: typ, ID: id})
			ids++
			i = j
		}
		if ids == 0 {
			return nil, errors.New("delta: sent_earlier: type " + strconv.Quote(short(typ)) + " has no ids")
		}
		if i == len(s) {
			return nodes, nil
		}
		if !strings.HasPrefix(s[i:], "; ") {
			return nil, errors.New("delta: sent_earlier: \"; \" expected before " + strconv.Quote(short(s[i:])))
		}
		i += 2
	}
}

// readType reads the type that opens s: a run of letters, digits and
// underscores, or a JSON string; and the bytes it took.
func readType(s string) (string, int, error) {
	if strings.HasPrefix(s, `"`) {
		end := 1 // the first quote not escaped
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return "", 0, errors.New("delta: sent_earlier: an unterminated type " + strconv.Quote(short(s)))
		}
		lit := s[:end+1]
		t, _, serr := textwire.JSONString([]byte(lit), lit, 0, len(lit))
		if serr != nil {
			return "", 0, errors.New("delta: sent_earlier: type " + strconv.Quote(short(lit)) + " is not a JSON string: " + serr.Msg)
		}
		return t, end + 1, nil
	}
	n := 0
	for n < len(s) && s[n] != ' ' && s[n] != ';' {
		n++
	}
	if !plainType(s[:n]) {
		return "", 0, errors.New("delta: sent_earlier: " + strconv.Quote(short(s[:n])) + " is not a type (letters, digits, underscores, or a JSON string)")
	}
	return s[:n], n, nil
}

// short is s cut to a short excerpt for an error message.
func short(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}

// AppendReferenced appends r to dst as a document of c with the nodes at
// positions refs (ascending, in range, each once, as Session.Mark returns
// them) written as references; with no refs it appends what AppendEncode
// appends. Positions out of order or range are an *wire.EncodeError.
// Session.Encode is the usual way in: it chooses refs and remembers r.
func AppendReferenced(c DocumentCodec, dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	if r != nil {
		for k, i := range refs {
			if i < 0 || i >= len(r.Nodes) || k > 0 && i <= refs[k-1] {
				return dst, &wire.EncodeError{Codec: codecName(c), Path: "nodes",
					Msg: "reference " + strconv.Itoa(k) + " is to node " + strconv.Itoa(i) + ": references are positions of the nodes, ascending, each once"}
			}
		}
	}
	if r == nil || len(refs) == 0 {
		return c.AppendDocument(dst, nil, r)
	}
	h, content := referencedDocument(r, refs)
	return c.AppendDocument(dst, h, content)
}
