package wirehttp

import (
	"maps"
	"mime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// offer is one codec the server can answer with, its media type parsed
// once when the Server is built.
type offer struct {
	codec  wire.Codec
	info   wire.Info
	typ    string // "text", lower case
	sub    string // "x-goon", lower case
	full   string // "text/x-goon", lower case
	params map[string]string
	memo   *paramMemo
}

func newOffer(c wire.Codec, info wire.Info) (offer, error) {
	full, params, err := mime.ParseMediaType(info.MediaType)
	if err != nil {
		return offer{}, err
	}
	typ, sub, _ := strings.Cut(full, "/")
	return offer{codec: c, info: info, typ: typ, sub: sub, full: full, params: params, memo: &paramMemo{}}, nil
}

// paramMemo remembers, per offer, the specificity that the parameter text
// of a range of the offer's own type earned, so that the Accept field a
// client sends on every request is matched by wirecodec.MediaTypeMatches once.
// It is copy-on-write and holds at most maxMemo texts of at most
// maxMemoKey bytes, so clients cannot make it grow.
type paramMemo struct {
	mu  sync.Mutex
	tab atomic.Pointer[map[string]int]
}

const maxMemo = 64

// maxMemoKey is the longest parameter text the memo keeps: clients that
// send long ones pay for matching them on each request, not in memory.
const maxMemoKey = 256

// paramSpec is the specificity of a range of o's type and subtype with the
// parameter text raw: specExact when it holds no parameter, specParamed
// plus their count when wirecodec.MediaTypeMatches accepts them, 0 otherwise.
func (o *offer) paramSpec(raw string) int {
	if t := o.memo.tab.Load(); t != nil {
		if spec, ok := (*t)[raw]; ok {
			return spec
		}
	}
	spec := 0
	if params, ok := parseParams(raw); ok {
		switch {
		case len(params) == 0: // only empty parameters (";;")
			spec = specExact
		case wirecodec.MediaTypeMatches(o.info, o.full, params):
			spec = specParamed + len(params)
		}
	}
	o.memo.mu.Lock()
	defer o.memo.mu.Unlock()
	if len(raw) > maxMemoKey {
		return spec
	}
	old := o.memo.tab.Load()
	if old == nil || len(*old) < maxMemo {
		next := map[string]int{}
		if old != nil {
			next = maps.Clone(*old)
		}
		next[strings.Clone(raw)] = spec
		o.memo.tab.Store(&next)
	}
	return spec
}

// Specificity of a media range that matched an offer; more specific
// ranges override less specific ones (RFC 9110 §12.5.1).
const (
	specAny     = 1 // */*
	specType    = 2 // text/*
	specExact   = 3 // text/x-goon
	specParamed = 4 // text/x-goon; version=1.0.0 (plus one per parameter)
)

// MaxAcceptRanges is the most elements of the Accept field (all its
// field lines read as one list) that negotiation considers; the elements
// past it are ignored. Clients send a handful.
const MaxAcceptRanges = 64

// mediaRange is one element of an Accept header.
type mediaRange struct {
	typ, sub string // lower case; "*" for a wildcard
	params   string // the raw parameter text before the weight, "" if none
	q        int    // weight in thousandths, 0..1000
}

// rangeMatch is the most specific range found so far for one offer.
type rangeMatch struct {
	spec int // 0: no range matched
	q    int
}

// choose returns the index into offers of the codec the Accept field
// values prefer, or -1 when none is acceptable. For each offer, the most
// specific matching range gives its weight (ranges of equal specificity:
// the first listed); the highest weight above zero wins, and ties go to
// the order of offers (the server's preference). Elements that do not
// parse are skipped; parsed reports whether any element parsed, so that a
// field with nothing usable in it can be treated as absent.
//
// Only the first MaxAcceptRanges non-empty elements are considered, the
// rest of the field ignored, so that the work is bounded whatever the
// header's size; considered reports how many were.
func choose(values []string, offers []offer, best []rangeMatch) (idx int, parsed bool, considered int) {
	for i := range best {
		best[i] = rangeMatch{}
	}
	for _, v := range values {
		for len(v) > 0 && considered < MaxAcceptRanges {
			var el string
			el, v = cutQuoted(v, ',')
			if trimOWS(el) == "" {
				continue
			}
			considered++
			mr, ok := parseRange(el)
			if !ok {
				continue
			}
			parsed = true
			for i := range offers {
				spec := matchRange(mr, &offers[i])
				if spec > best[i].spec {
					best[i] = rangeMatch{spec: spec, q: mr.q}
				}
			}
		}
	}
	idx = -1
	for i, m := range best {
		if m.spec > 0 && m.q > 0 && (idx < 0 || m.q > best[idx].q) {
			idx = i
		}
	}
	return idx, parsed, considered
}

// matchRange reports how specifically mr matches o, 0 when it does not.
// Parameters are compared by wirecodec.MediaTypeMatches: each parameter of the
// range must equal the codec's (a charset of utf-8 on a text codec aside).
func matchRange(mr mediaRange, o *offer) int {
	switch {
	case mr.typ == "*" && mr.sub == "*":
		if mr.params == "" {
			return specAny
		}
	case mr.sub == "*":
		if mr.typ != o.typ {
			return 0
		}
		if mr.params == "" {
			return specType
		}
	default:
		if mr.typ != o.typ || mr.sub != o.sub {
			return 0
		}
		if mr.params == "" {
			return specExact
		}
	}
	if mr.typ != "*" && mr.sub != "*" {
		return o.paramSpec(mr.params)
	}
	// A wildcard with parameters: the parameters still have to hold.
	params, ok := parseParams(mr.params)
	if !ok {
		return 0
	}
	if !wirecodec.MediaTypeMatches(o.info, o.full, params) {
		return 0
	}
	if mr.typ == "*" {
		return specAny
	}
	return specType
}

// cutQuoted splits s at its first sep outside a quoted string (a
// separator inside quotes, escaped or not, does not split): the Accept
// header's ',' between elements and ';' between parameters.
func cutQuoted(s string, sep byte) (before, after string) {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case !inQuote && c == sep:
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// parseRange parses one Accept element: a media range, its parameters and
// an optional weight. Parameters after the weight (RFC 7231's accept-ext)
// are ignored.
func parseRange(el string) (mediaRange, bool) {
	el = trimOWS(el)
	if el == "" {
		return mediaRange{}, false
	}
	head, params, _ := strings.Cut(el, ";")
	typ, sub, ok := strings.Cut(trimOWS(head), "/")
	if !ok || !isToken(typ) || !isToken(sub) || (typ == "*" && sub != "*") {
		return mediaRange{}, false
	}
	mr := mediaRange{typ: lower(typ), sub: lower(sub), q: 1000}
	// Find the weight: a parameter named q (case-insensitive).
	rest := params
	start := 0
	for rest != "" {
		var p string
		p, rest = cutQuoted(rest, ';')
		name, val, _ := strings.Cut(trimOWS(p), "=")
		if strings.EqualFold(trimOWS(name), "q") {
			q, ok := parseQ(trimOWS(val))
			if !ok {
				return mediaRange{}, false
			}
			mr.q = q
			mr.params = trimOWS(params[:start])
			return mr, true
		}
		start = len(params) - len(rest)
	}
	mr.params = trimOWS(params)
	return mr, true
}

// parseParams parses "a=1; b=\"x y\"" into a map with lower-case names.
// Empty parameters (";;") are allowed, as RFC 9110 allows them.
func parseParams(s string) (map[string]string, bool) {
	out := make(map[string]string, 2)
	for s != "" {
		var p string
		p, s = cutQuoted(s, ';')
		p = trimOWS(p)
		if p == "" {
			continue
		}
		name, val, ok := strings.Cut(p, "=")
		if !ok || !isToken(name) {
			return nil, false
		}
		if len(val) > 0 && val[0] == '"' {
			v, ok := unquote(val)
			if !ok {
				return nil, false
			}
			val = v
		} else if !isToken(val) {
			return nil, false
		}
		out[lower(name)] = val
	}
	return out, true
}

// unquote decodes an RFC 9110 quoted-string that is the whole of s.
func unquote(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	s = s[1 : len(s)-1]
	if !strings.ContainsRune(s, '\\') {
		return s, !strings.ContainsRune(s, '"')
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			if i+1 == len(s) {
				return "", false
			}
			i++
			c = s[i]
		} else if c == '"' {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// parseQ parses an RFC 9110 qvalue into thousandths: "0", "0.5", "1.000".
func parseQ(s string) (int, bool) {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	q := int(s[0]-'0') * 1000
	if len(s) == 1 {
		return q, true
	}
	if s[1] != '.' {
		return 0, false
	}
	scale := 100
	for i := 2; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' || (s[0] == '1' && d != '0') {
			return 0, false
		}
		q += int(d-'0') * scale
		scale /= 10
	}
	return q, true
}

// trimOWS trims RFC 9110 optional whitespace (spaces and tabs).
func trimOWS(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// isToken reports whether s is a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// lower lower-cases ASCII s without allocating when it already is.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
