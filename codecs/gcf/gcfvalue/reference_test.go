package gcfvalue_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/codecs/gcf"
	"github.com/graphwire/graphwire/codecs/gcf/gcfvalue"
	gjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/internal/toongen"
)

// The generic JSON value's names this file uses beyond gcfvalue's own API,
// in one place.
type (
	jsonObject = jsonvalue.Object
	jsonNumber = jsonvalue.Number
)

var (
	// appendJSON writes a value as compact JSON text.
	appendJSON = jsonvalue.Append
	// jsonFloat makes a float64 number.
	jsonFloat = jsonvalue.Float
	// jsonEqual compares two values: numbers by value, members in order.
	jsonEqual = jsonvalue.Equal
	// parseHostJSON reads JSON as a host parser does: an integer literal
	// outside int64 becomes the nearest float64 (gcfvalue.ParseJSON refuses
	// it, spec §2.3.2).
	parseHostJSON = jsonvalue.Parse
)

// sdkVersion is the version of the TypeScript SDK (@blackwell-systems/gcf)
// the differential test compares against.
const sdkVersion = "2.5.2"

// sdkDocuments is the number of generated documents the differential test
// checks (a tenth of it with -short).
const sdkDocuments = 2000

// departure is a documented point where the SDK departs from the spec. The
// test never takes a disagreement on trust: a case counts under a
// departure only when the departure's model, applied to our side, makes
// the two sides agree (byte for byte on encode, by value on decode), or,
// for a departure in the form of the text (flattening, schemas), when the
// document meets the departure's condition and each decoder reads the
// SDK's text to the document (with the differences the departure names).
type departure struct {
	name    string
	section string // in the GCF spec, v3.5.3
	reason  string
}

// departures is the table of every way the SDK 2.5.2 departs from the
// spec that the corpus and the generated documents show.
var departures = map[string]departure{
	depJSNumberIn: {depJSNumberIn, "§2.3.2",
		"the SDK reads a JSON integer literal as a JavaScript number: one beyond ±2^53 becomes the nearest double, " +
			"silently (the spec: a value in [2^53, 2^63) must not be silently approximated; one outside int64 is an out-of-range error); " +
			"model: our value with every integer beyond ±2^53 made the nearest float64"},
	depJSNumberOut: {depJSNumberOut, "§2.3.1",
		"the SDK writes a number as JavaScript's String(x): an integer-valued double of magnitude in [2^53, 1e21) in plain digits " +
			"(the spec: a double at or above 2^53 in exponent form, so that plain digits always mean an int64); " +
			"model: those exponent tokens of our text rewritten as digits; our decoder refuses such a token beyond int64 (out_of_range), as §2.3.2 requires"},
	depJSNumberDecode: {depJSNumberDecode, "§2.3.2",
		"the SDK decodes an integer token beyond ±2^53 to the nearest double, silently (the spec: an exact int64, or an out-of-range error); " +
			"model: our decoded value with every integer beyond ±2^53 made the nearest float64"},
	depFlattenOrder: {depFlattenOrder, "§7.4.6.1 rule 1, §7.4.6.3",
		"the SDK flattens a table field whose objects have the same keys in a different order in some rows into path columns, " +
			"so those rows' objects read back in the first row's key order (the spec: flatten only the same keys in the same order; decode(encode(x)) keeps key order); " +
			"checked: both decoders read the SDK's text to one value, the document again up to member order"},
	depProtoKeys: {depProtoKeys, "§7.12, §7.4.6",
		"the SDK never flattens an object holding a key __proto__, constructor or prototype (a guard of its JavaScript host) and writes it as an attachment, " +
			"and its decoder drops a path column with such a segment (the spec reserves no key, and the canonical form flattens such an object as any other); " +
			"checked: both decoders read the SDK's text to one value, the document again; the SDK reads our text to our value without those members " +
			"(and without the objects that held only them)"},
	depBracketKey: {depBracketKey, "§2a.1, §7.5",
		"the SDK's decoder fails on an inline array whose quoted name holds '[' (\"[x]\"[2]: 1,2, which the SDK's own encoder writes): " +
			"it looks for the array header inside the quotes (the spec: a quoted key is a quoted string; any key may name an inline array); " +
			"checked: the SDK's error and such a line in the text; our decoder reads the text"},
	depNotFlattened: {depNotFlattened, "§7.4.6.1, §7.11",
		"the SDK writes as an attachment a field's objects that meet every condition of §7.4.6.1 and that the canonical form flattens: " +
			"its guard against objects with only null leaves resolves a nested leaf by the wrong key chain, so {\"a\":null,\"id\":{\"A\":0},\"A\":null} " +
			"counts as all null (seen by probing 2.5.2); checked: the SDK's text has fewer path columns than ours, and both decoders read it to one value, the document again"},
	depSharedSchema: {depSharedSchema, "§7.4.5.3",
		"a table field whose array in an earlier row is a table and in a later row an expanded array (items not all objects): " +
			"the spec gives the later one no form (.field [N] without {fields} after a shared schema is a table, decoder rule 1), so gcfvalue.Marshal refuses it (unsupported_value); " +
			"the SDK writes .field [N] with expanded @i items and reads them as such, against rule 1; checked: the SDK reads its text to the document"},
	depInlineSchema: {depInlineSchema, "§7.4.5.1, §7.11",
		"not a departure of the SDK but a choice the spec leaves open: where a table cell's object is not flattened, the SDK writes an inline object schema " +
			"(^{fields} and a positional row), an optional optimization; gcfvalue writes the attachment ({} and key=value lines); " +
			"checked: the SDK's text has a ^{ marker and ours none, and both decoders read the SDK's text to one value, the document again"},
	depFlattenNull: {depFlattenNull, "§7.4.6.2 rule 5, §7.4.6.3",
		"the SDK flattens a field whose object holds, below its first level, an object with only null leaves ({\"a\":{\"b\":{\"c\":null},\"d\":1}} as a>b>c and a>d); " +
			"rule 5 (all leaf columns of a nested object -, the object is null) makes that object null, as our decoder reads it, and the SDK's decoder applies the rule " +
			"to the field's object only, so the two decoders read the SDK's text differently (the spec's round trip does not hold for it; gcfvalue does not flatten such a field); " +
			"checked: the SDK reads its text to the document, ours to the document with those objects null"},
	depRefusedIn: {depRefusedIn, "§2.3.2",
		"the document holds an integer literal outside int64, which gcfvalue.ParseJSON refuses (out_of_range) as the spec requires; " +
			"the SDK encodes the nearest double; compared: our encoding of the value a host JSON parser reads, under the two models above"},
}

const (
	depJSNumberIn     = "js-number-in"
	depJSNumberOut    = "js-number-out"
	depJSNumberDecode = "js-number-decode"
	depRefusedIn      = "int-literal-outside-int64"
	depFlattenOrder   = "flatten-despite-key-order"
	depProtoKeys      = "prototype-keys-not-flattened"
	depBracketKey     = "sdk-decode-bracket-key"
	depInlineSchema   = "inline-object-schema"
	depFlattenNull    = "flatten-null-leaf-object"
	depNotFlattened   = "not-flattened"
	depSharedSchema   = "expanded-after-shared-schema"
)

// outcome is what one comparison found: the departures it needed (none
// when the two sides agreed as they are).
type outcome struct {
	departures []string
	identical  bool // our text and the SDK's are the same bytes
}

// tally counts outcomes by kind.
type tally struct {
	mu        sync.Mutex
	compared  int
	agreed    int
	identical int
	byKind    map[string]int
}

func (t *tally) add(o outcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.compared++
	if o.identical {
		t.identical++
	}
	if len(o.departures) == 0 {
		t.agreed++
		return
	}
	if t.byKind == nil {
		t.byKind = map[string]int{}
	}
	for _, d := range o.departures {
		t.byKind[d]++
	}
}

// check fails the test on a departure kind missing from the table.
func (t *tally) check(tb testing.TB) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k := range t.byKind {
		if _, ok := departures[k]; !ok {
			tb.Errorf("departure %q is not in the table", k)
		}
	}
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var kinds []string
	for k, n := range t.byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	return fmt.Sprintf("%d compared, %d agreed as they are, %d with departures [%s]; %d encoded to the same bytes",
		t.compared, t.agreed, t.compared-t.agreed, strings.Join(kinds, ", "), t.identical)
}

// compareJSON compares the encoding and decoding of one JSON document.
func compareJSON(ref *sdk, jsonText []byte) (outcome, error) {
	var o outcome
	describe := func() string { return fmt.Sprintf("document: %.2000s\n", jsonText) }
	theirs, err := ref.encode(jsonText)
	if err != nil {
		return o, fmt.Errorf("SDK encode failed: %v\n%s", err, describe())
	}
	v, err := gcfvalue.ParseJSON(jsonText)
	if err != nil {
		// Our side refuses an integer outside int64 (§2.3.2); compare the
		// value a host parser reads.
		if gcfvalue.ErrorKind(err) != gcfvalue.KindOutOfRange {
			return o, fmt.Errorf("ParseJSON: %v\n%s", err, describe())
		}
		o.departures = append(o.departures, depRefusedIn)
		if v, err = parseHostJSON(jsonText); err != nil {
			return o, fmt.Errorf("host JSON parse: %v\n%s", err, describe())
		}
	}
	ours, err := gcfvalue.Marshal(v)
	if err != nil {
		if gcfvalue.ErrorKind(err) != gcfvalue.KindUnsupported || !strings.Contains(err.Error(), "shared array schema") {
			return o, fmt.Errorf("Marshal: %v\n%s", err, describe())
		}
		// depSharedSchema: the SDK reads its text to the document.
		o.departures = appendNew(o.departures, depSharedSchema)
		js, err := ref.decode(theirs)
		if err != nil {
			return o, fmt.Errorf("SDK decode of its own text failed: %v\n%sSDK's:\n%s", err, describe(), theirs)
		}
		sv, err := parseHostJSON([]byte(js))
		if err != nil {
			return o, fmt.Errorf("parsing the SDK's decode %q: %v", js, err)
		}
		want, _ := jsNumbers(v)
		if sv, _ = jsNumbers(sv); !equalUnordered(want, sv) {
			return o, fmt.Errorf("the SDK reads its text to another value\n%sSDK's:\n%s\ndecoded: %s", describe(), theirs, js)
		}
		return o, nil
	}
	if o.departures == nil {
		back, err := gcfvalue.Unmarshal(ours)
		if err != nil {
			return o, fmt.Errorf("Unmarshal of our text: %v\n%sours:\n%s", err, describe(), ours)
		}
		if !equalUnordered(v, back) {
			return o, fmt.Errorf("decode(encode(x)) != x\n%sours:\n%sdecoded: %s", describe(), ours, jsonOf(back))
		}
	}
	deps, err := compareText(ref, v, ours, theirs)
	if err != nil {
		return o, fmt.Errorf("%v\n%s", err, describe())
	}
	o.identical = string(ours) == theirs
	o.departures = appendNew(o.departures, deps...)
	return o, nil
}

// compareText compares our text (ours, the encoding of v) with the SDK's
// text for the same value (theirs): byte for byte, or under the departures'
// models; then each side's decoding of the other's text. It returns the
// departures it needed.
func compareText(ref *sdk, v gcfvalue.Value, ours []byte, theirs string) ([]string, error) {
	var deps []string
	describe := func() string { return fmt.Sprintf("ours:\n%s\nSDK's:\n%s\n", ours, theirs) }
	// Encode: as it is, or under the SDK's number model, or (a form
	// departure) a different form of the same value, checked below.
	form := ""
	if string(ours) != theirs {
		jv, changed := jsNumbers(v)
		if changed {
			deps = append(deps, depJSNumberIn)
		}
		modelled, err := gcfvalue.Marshal(jv)
		if err != nil {
			return nil, fmt.Errorf("Marshal of the SDK's number model: %v", err)
		}
		if string(modelled) != theirs {
			if r := jsFormat(modelled); !bytes.Equal(r, modelled) {
				deps = append(deps, depJSNumberOut)
				modelled = r
			}
		}
		if string(modelled) != theirs {
			// The first form whose condition the document meets names the
			// departure (its check also covers the later ones).
			switch {
			case nullObject(v, 0):
				form = depFlattenNull
			case flattenOrder(v):
				form = depFlattenOrder
			case protoKeys(v):
				form = depProtoKeys
			case len(pathColumn.FindAllStringIndex(theirs, -1)) < len(pathColumn.FindAllIndex(ours, -1)):
				form = depNotFlattened
			case inlineSchema.MatchString(theirs) && !inlineSchema.Match(ours):
				form = depInlineSchema
			default:
				return nil, fmt.Errorf("encode differs from the SDK's\n%s(quoted)\nours:  %q\nSDK's: %q", describe(), ours, theirs)
			}
			deps = append(deps, form)
		}
	}
	// sdkDecode decodes text with the SDK; ok is false when the SDK fails
	// on a quoted key holding '[' (depBracketKey).
	sdkDecode := func(text string) (gcfvalue.Value, bool, error) {
		js, err := ref.decode(text)
		if err != nil {
			if bracketKey.MatchString(text) {
				deps = appendNew(deps, depBracketKey)
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("SDK decode failed: %v\n%s", err, describe())
		}
		sv, err := parseHostJSON([]byte(js))
		if err != nil {
			return nil, false, fmt.Errorf("parsing the SDK's decode %q: %v", js, err)
		}
		// JavaScript writes a double beyond 2^53 in its shortest digits
		// (36028797018963984 as 36028797018963980): read them as the
		// double they name.
		sv, _ = jsNumbers(sv)
		return sv, true, nil
	}
	// same compares a decoded value (got) with the value it should be
	// (want): as it is, or as JavaScript numbers hold want
	// (depJSNumberDecode), under the relaxations rel allows.
	same := func(which string, want, got gcfvalue.Value, rel relax) error {
		if equalRelaxed(want, got, 0, rel) {
			return nil
		}
		if jv, _ := jsNumbers(want); equalRelaxed(jv, got, 0, rel) {
			deps = appendNew(deps, depJSNumberDecode)
			return nil
		}
		return fmt.Errorf("%s decodes to another value\n%swant: %s\ngot:  %s", which, describe(), jsonOf(want), jsonOf(got))
	}
	hasProto := protoKeys(v)
	// Decode our text with the SDK: the value we decode, as the SDK's
	// numbers can hold it, without the members of a path column with a
	// prototype segment (depProtoKeys).
	ourValue, err := gcfvalue.Unmarshal(ours)
	if err != nil {
		return nil, fmt.Errorf("Unmarshal of our text: %v\n%s", err, describe())
	}
	if sdkValue, ok, err := sdkDecode(string(ours)); err != nil {
		return nil, err
	} else if ok {
		if err := same("our text, with the SDK,", ourValue, sdkValue, relax{}); err != nil {
			if !hasProto || same("our text, with the SDK,", ourValue, sdkValue, relax{prune: true}) != nil {
				return nil, err
			}
			deps = appendNew(deps, depProtoKeys)
		}
	}
	if theirs == string(ours) {
		return deps, nil
	}
	// Decode the SDK's text with ours and with the SDK: each gives the
	// document (v), as JavaScript numbers hold it, with the member order
	// of tables; the SDK drops a path column with a prototype segment, and
	// our decoder reads an object with only null leaves that the SDK
	// flattened below a field's first level as null (depFlattenNull).
	ourOfTheirs, err := gcfvalue.Unmarshal([]byte(theirs))
	if err != nil {
		// Plain digits beyond int64 (depJSNumberOut) are out of range.
		if gcfvalue.ErrorKind(err) == gcfvalue.KindOutOfRange && contains(deps, depJSNumberOut) {
			return deps, nil
		}
		return nil, fmt.Errorf("Unmarshal of the SDK's text: %v\n%s", err, describe())
	}
	want, _ := jsNumbers(v)
	unordered := true // a table's rows read back in the order of its field union
	// The SDK writes a double beyond 2^53 in its shortest digits, which
	// our decoder reads as an int64 near the double: read it as the double.
	ourOfTheirs, _ = jsNumbers(ourOfTheirs)
	if err := same("the SDK's text, with ours,", want, ourOfTheirs, relax{unordered: unordered, collapse: form == depFlattenNull}); err != nil {
		return nil, err
	}
	if sdkValue, ok, err := sdkDecode(theirs); err != nil {
		return nil, err
	} else if ok {
		if err := same("the SDK's text, with the SDK,", want, sdkValue, relax{unordered: unordered, prune: hasProto}); err != nil {
			return nil, err
		}
	}
	return deps, nil
}

// TestSDKCorpus compares every corpus case with the SDK twice: its
// canonical JSON file as a generic JSON value, and the gcf codec's
// document of its response (the codec's text is compared with the SDK's
// encoding of the value that text decodes to, so the codec writes the
// canonical form a GCF encoder writes for it).
func TestSDKCorpus(t *testing.T) {
	ref := startSDK(t)
	dir := filepath.Join("..", "..", "..", corpus.Dir)
	cases, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	codec := gcf.Default()
	var files, docs tally
	for _, cs := range cases {
		t.Run(cs.ID(), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, cs.Profile, cs.Name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			o, err := compareJSON(ref, data)
			if err != nil {
				t.Fatalf("canonical JSON: %v", err)
			}
			files.add(o)
			text, err := codec.AppendEncode(nil, cs.Response)
			if err != nil {
				t.Fatal(err)
			}
			v, err := gcfvalue.Unmarshal(text)
			if err != nil {
				t.Fatal(err)
			}
			js, err := appendJSON(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := ref.encode(js)
			if err != nil {
				t.Fatalf("SDK encode of the codec's document: %v", err)
			}
			deps, err := compareText(ref, v, text, theirs)
			if err != nil {
				t.Fatalf("codec document: %v", err)
			}
			docs.add(outcome{deps, string(text) == theirs})
		})
	}
	files.check(t)
	docs.check(t)
	t.Logf("corpus JSON files against @blackwell-systems/gcf@%s: %v", sdkVersion, &files)
	t.Logf("gcf codec documents against @blackwell-systems/gcf@%s: %v", sdkVersion, &docs)
}

// TestSDKGenerated compares generated JSON documents (internal/toongen,
// the generator of the TOON differential tests) with the SDK.
func TestSDKGenerated(t *testing.T) {
	ref := startSDK(t)
	want := sdkDocuments
	if testing.Short() {
		want /= 10
	}
	var all tally
	prop := func(rt *rapid.T) {
		o, err := compareJSON(ref, toongen.Document(rt))
		if err != nil {
			rt.Fatalf("%v", err)
		}
		all.add(o)
	}
	start := time.Now()
	for all.compared < want && !t.Failed() {
		rapid.Check(t, prop)
	}
	all.check(t)
	t.Logf("generated documents against @blackwell-systems/gcf@%s in %v: %v", sdkVersion, time.Since(start).Round(time.Millisecond), &all)
}

// TestSDKEdges compares hand-picked documents, so that every tricky
// string, key and number of the generator is covered on every run.
func TestSDKEdges(t *testing.T) {
	ref := startSDK(t)
	var docs []string
	for _, n := range toongen.EdgeNumbers {
		docs = append(docs, `{"n":`+n+`}`, `{"a":[`+n+`,1]}`, `[{"a":`+n+`,"b":1},{"a":2,"b":`+n+`}]`)
	}
	for _, s := range toongen.TrickyStrings {
		q := string(gjson.AppendString(nil, s))
		docs = append(docs, `{"k":`+q+`}`, `{`+q+`:1}`, `{"a":[`+q+`,`+q+`]}`, `[{"a":`+q+`},{"a":"x"}]`, `{`+q+`:[1,2]}`)
	}
	for _, k := range toongen.TrickyKeys {
		q := string(gjson.AppendString(nil, k))
		docs = append(docs, `{`+q+`:{`+q+`:[]}}`, `{"m":{`+q+`:{"v":1},"z":{"v":2}}}`, `[{`+q+`:1,"b":{}}]`,
			`[{"o":{`+q+`:1}},{"o":{`+q+`:2}}]`)
	}
	docs = append(docs, `{}`, `[]`, `[[]]`, `[{}]`, `{"a":{}}`, `{"a":[]}`, `[[],[1],{}]`, `[[1,2],[3]]`, `1`, `"x"`, `null`,
		`{"a":[[{"x":1}]]}`, `[{"a":[{"b":1},{"b":2}],"c":3}]`, `[{"a":{"b":1,"c":2}},{"a":{"c":3,"b":4}}]`,
		`{"x":{"a":{"p":1},"b":{"p":2}},"y":1}`, `[{"m":{"a":{"p":1},"b":{"p":2}},"n":1}]`,
		`[{"id":1,"c":{"n":"a","e":"x"}},{"id":2,"c":{"n":"b","e":"y"}}]`,
		`{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":[1,[2,[3,[4]]]]}}}}}}}}}}`)
	var all tally
	for _, doc := range docs {
		o, err := compareJSON(ref, []byte(doc))
		if err != nil {
			t.Error(err)
			continue
		}
		all.add(o)
	}
	all.check(t)
	t.Logf("edge documents against @blackwell-systems/gcf@%s: %v", sdkVersion, &all)
}

// TestSDKDepartureModels checks the departures' models on their own, so
// that a model that explained too much would be seen.
func TestSDKDepartureModels(t *testing.T) {
	v, err := gcfvalue.ParseJSON([]byte(`{"a":9007199254740993,"b":9007199254740992,"c":[-9007199254740993,1.5]}`))
	if err != nil {
		t.Fatal(err)
	}
	jv, changed := jsNumbers(v)
	if got := jsonOf(jv); !changed || got != `{"a":9007199254740992,"b":9007199254740992,"c":[-9007199254740992,1.5]}` {
		t.Fatalf("jsNumbers = %s, %v", got, changed)
	}
	if _, changed := jsNumbers(jv); changed {
		t.Fatal("jsNumbers changed a value already in the model")
	}
	in := "GCF profile=generic\na=9.007199254740992e+15\nb[3]: 1e+21,-1.5e+20,1.5e+15\n## t [1]{x,y}\n9.2e+18|\"x 9.1e+15\"\n"
	want := "GCF profile=generic\na=9007199254740992\nb[3]: 1e+21,-150000000000000000000,1.5e+15\n## t [1]{x,y}\n9200000000000000000|\"x 9.1e+15\"\n"
	if got := string(jsFormat([]byte(in))); got != want {
		t.Fatalf("jsFormat:\n%s\nwant\n%s", got, want)
	}
	for name, d := range departures {
		if d.name != name || !strings.HasPrefix(d.section, "§") || d.reason == "" {
			t.Errorf("departure %q is not documented: %+v", name, d)
		}
	}
}
