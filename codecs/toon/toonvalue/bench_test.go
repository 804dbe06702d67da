package toonvalue

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

var benchDoc = flag.String("bench-doc", "", "TestWriteBenchDocument writes the benchmark document (JSON) to this file")

// benchRecord is one row of the benchmark document: a uniform object with a
// nested uniform object, so that it encodes as a TOON table with a field
// group.
type benchRecord struct {
	ID          int64     `json:"id"`
	Login       string    `json:"login"`
	Name        string    `json:"name"`
	Email       string    `json:"email"`
	Active      bool      `json:"active"`
	Score       float64   `json:"score"`
	CreatedAt   string    `json:"created_at"`
	Repo        benchRepo `json:"repo"`
	Description string    `json:"description"`
}

type benchRepo struct {
	Name  string `json:"name"`
	Stars int64  `json:"stars"`
}

var words = strings.Fields("graph wire node edge merge request pipeline project group user issue vulnerability token format table row column value, quote \"x\" naïve 日本 emoji👋")

// benchRecords returns a deterministic array of records of about size bytes
// of compact JSON.
func benchRecords(size int) []benchRecord {
	r := rand.New(rand.NewPCG(1, 2))
	var recs []benchRecord
	n := 0
	for n < size {
		var desc strings.Builder
		for range 4 + r.IntN(12) {
			if desc.Len() > 0 {
				desc.WriteByte(' ')
			}
			desc.WriteString(words[r.IntN(len(words))])
		}
		rec := benchRecord{
			ID:          r.Int64N(1 << 40),
			Login:       fmt.Sprintf("user_%d", r.IntN(100000)),
			Name:        words[r.IntN(len(words))] + " " + words[r.IntN(len(words))],
			Email:       fmt.Sprintf("u%d@example.com", r.IntN(100000)),
			Active:      r.IntN(2) == 0,
			Score:       float64(r.IntN(100000)) / 100,
			CreatedAt:   fmt.Sprintf("2024-%02d-%02dT%02d:%02d:%02dZ", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60)),
			Repo:        benchRepo{Name: "repo-" + words[r.IntN(len(words))], Stars: r.Int64N(50000)},
			Description: desc.String(),
		}
		b, _ := json.Marshal(rec)
		n += len(b) + 1
		recs = append(recs, rec)
	}
	return recs
}

type benchData struct {
	records []benchRecord
	json    []byte          // compact JSON of records
	any     any             // json.Unmarshal of json
	value   jsonvalue.Value // ParseJSON of json
	toon    []byte          // Marshal of value
}

var benchOnce = sync.OnceValue(func() *benchData {
	d := &benchData{records: benchRecords(1 << 20)}
	var err error
	if d.json, err = json.Marshal(d.records); err != nil {
		panic(err)
	}
	if err = json.Unmarshal(d.json, &d.any); err != nil {
		panic(err)
	}
	if d.value, err = jsonvalue.Parse(d.json); err != nil {
		panic(err)
	}
	if d.toon, err = Marshal(d.value, EncodeOptions{}); err != nil {
		panic(err)
	}
	return d
})

// TestWriteBenchDocument writes the benchmark document for
// testdata/bench-reference.mjs when -bench-doc is given.
func TestWriteBenchDocument(t *testing.T) {
	if *benchDoc == "" {
		t.Skip("no -bench-doc file given")
	}
	if err := os.WriteFile(*benchDoc, benchOnce().json, 0o644); err != nil {
		t.Fatal(err)
	}
}

// benchOps runs each op as the benchmark <name>/array1MB, each reading or
// writing the JSON text's bytes.
func benchOps(b *testing.B, n int, ops []benchOp) {
	for _, op := range ops {
		b.Run(op.name+"/array1MB", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				if err := op.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type benchOp struct {
	name string
	run  func() error
}

// BenchmarkEncode compares Marshal of the ~1 MB array of objects with
// encoding/json's Marshal of the same data as structs and as the generic
// any tree (maps, whose keys encoding/json sorts).
func BenchmarkEncode(b *testing.B) {
	d := benchOnce()
	var buf []byte
	benchOps(b, len(d.json), []benchOp{
		{"toon", func() (err error) { buf, err = AppendMarshal(buf[:0], d.value, EncodeOptions{}); return err }},
		{"toon-alloc", func() error { _, err := Marshal(d.value, EncodeOptions{}); return err }},
		{"json-struct", func() error { _, err := json.Marshal(d.records); return err }},
		{"json-any", func() error { _, err := json.Marshal(d.any); return err }},
	})
}

// BenchmarkDecode compares Unmarshal of the TOON text of the document with
// encoding/json's Unmarshal of its JSON text into structs and into any.
func BenchmarkDecode(b *testing.B) {
	d := benchOnce()
	benchOps(b, len(d.json), []benchOp{
		{"toon", func() error { _, err := Unmarshal(d.toon, DecodeOptions{}); return err }},
		{"json-struct", func() error { var recs []benchRecord; return json.Unmarshal(d.json, &recs) }},
		{"json-any", func() error { var v any; return json.Unmarshal(d.json, &v) }},
		{"toon-fromjson", func() error { _, err := jsonvalue.Parse(d.json); return err }},
	})
}
