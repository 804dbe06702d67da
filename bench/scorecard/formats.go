package scorecard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	_ "github.com/graphwire/graphwire/codecs" // every built-in codec
	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// Baseline is the format every saving is measured against: compact
// canonical JSON.
const Baseline = cjson.Name

// Format is one row of the scorecard: a registered codec, or a peer that
// readers compare against (json-pretty, toon-plain).
type Format struct {
	Name string
	// Peer is true for a row that is not a registered codec.
	Peer bool
	// Text is true when the output is text a model reads, so that token
	// counts apply. Binary formats have bytes only.
	Text bool
	// Loses says, in one line, what the format does not carry of a
	// response, so that no row is read as like for like when it is not.
	Loses string

	// encode turns a response (and its canonical JSON) into the format.
	encode func(r *wire.GraphResponse, canonical []byte) ([]byte, error)
	// decode reads the format back; nil when it cannot be read back into a
	// response.
	decode func(data []byte) (*wire.GraphResponse, error)
	// values returns the texts the format writes for the response's
	// values, for the token anatomy; nil when not known for the format.
	values valueWriter
	// budgets is set for a registered text codec: the token-budget
	// survey pages the response with it (package fit).
	budgets bool
}

// valueWriters are the value writers of the registered text codecs whose
// way of writing a value the anatomy knows.
var valueWriters = map[string]valueWriter{
	"json": jsonValues,
	"goon": goonValues,
	"toon": toonValues,
	"gcf":  gcfValues,
}

// Encode returns the format's bytes for r, whose canonical JSON is
// canonical.
func (f Format) Encode(r *wire.GraphResponse, canonical []byte) ([]byte, error) {
	return f.encode(r, canonical)
}

// losses describes what each built-in format loses. A codec registered
// without an entry here is listed as "not described"; the round-trip
// column measures it all the same.
var losses = map[string]string{
	"json":    "nothing: the baseline, canonical JSON (ids as strings)",
	"goon":    "lossy by design: title/description/name/body/note over 200 code points and other strings over 1,000 truncated, read back as the kept text ending in ... with the original length as a key_len property; nulls and empty strings dropped from node rows; NaN/Inf dropped; ClickHouse datetimes in T-form; whole floats and digit-only strings read back as integers, quoted text that would be bare gains a U+001A; lists (node properties and aggregation cells alike) read back as their JSON text, a string; nodes and properties reordered; a path edge's source read from the edge before it, path edges without depth; format_version, group-column node aliases, a metric's property without a target, an empty row and duplicate edges not carried",
	"toon":    "number kind only: TOON has one number type, so an int and a float of the same value read back alike",
	"gcf":     "number kind only: GCF writes a number by value, so 2.0 reads back as 2; a property or cell whose name holds '>' reads back after its row's other members",
	"msgpack": "nothing (binary: no token count)",
	"cbor":    "nothing (binary: no token count)",
}

// peerLosses describes the peer rows.
var peerLosses = map[string]string{
	"json-pretty": "nothing: the canonical JSON indented by 2 spaces",
	"toon-plain":  "number kind only: the canonical JSON document in TOON as the reference TOON library writes it (no graph-aware layout); 7.0 reads back as 7",
}

// isText reports whether a media type is text a model reads: text/*,
// JSON, and a +json or +text suffix (GCF's application/vnd.gcf+text).
func isText(mediaType string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(mediaType), ";")
	mt = strings.TrimSpace(mt)
	return strings.HasPrefix(mt, "text/") || mt == "application/json" || strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+text")
}

// Formats returns the scorecard's rows: the baseline first, then the other
// registered text codecs by name, the text peers json-pretty and
// toon-plain, and last the registered binary codecs by name.
func Formats() []Format {
	var out []Format
	var rest, binary []Format
	for _, info := range wire.List() {
		c, err := wire.Lookup(info.Name)
		if err != nil {
			continue // unregistered between List and Lookup: cannot happen
		}
		loses, ok := losses[info.Name]
		if !ok {
			loses = "not described; see the round-trip column"
		}
		f := Format{
			Name:   info.Name,
			Text:   isText(info.MediaType),
			Loses:  loses,
			encode: func(r *wire.GraphResponse, _ []byte) ([]byte, error) { return c.AppendEncode(nil, r) },
			decode: c.Decode,
			values: valueWriters[info.Name],
		}
		f.budgets = f.Text
		switch {
		case info.Name == Baseline:
			out = append(out, f)
		case f.Text:
			rest = append(rest, f)
		default:
			binary = append(binary, f)
		}
	}
	out = append(out, rest...)
	out = append(out, Format{
		Name:   "json-pretty",
		Peer:   true,
		Text:   true,
		Loses:  peerLosses["json-pretty"],
		encode: func(_ *wire.GraphResponse, canonical []byte) ([]byte, error) { return prettyJSON(canonical) },
		decode: cjson.Decode,
		values: jsonValues,
	})
	out = append(out, peers()...)
	return append(out, binary...)
}

// prettyJSON indents canonical JSON by two spaces, as JSON.stringify(v,
// null, 2) and json.MarshalIndent do. Number and string literals are kept
// as written.
func prettyJSON(canonical []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, canonical, "", "  "); err != nil {
		return nil, fmt.Errorf("scorecard: json-pretty: %w", err)
	}
	return b.Bytes(), nil
}
