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

// BenchmarkEncode compares Marshal of the ~1 MB array of objects with
// encoding/json's Marshal of the same data as structs and as the generic
// any tree (maps, whose keys encoding/json sorts).
func BenchmarkEncode(b *testing.B) {
	d := benchOnce()
	b.Run("toon/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = AppendMarshal(buf[:0], d.value, EncodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "out-bytes")
	})
	b.Run("toon-alloc/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		for b.Loop() {
			if _, err := Marshal(d.value, EncodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-struct/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		for b.Loop() {
			if _, err := json.Marshal(d.records); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-any/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		for b.Loop() {
			if _, err := json.Marshal(d.any); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecode compares Unmarshal of the TOON text of the document with
// encoding/json's Unmarshal of its JSON text into structs and into any.
func BenchmarkDecode(b *testing.B) {
	d := benchOnce()
	b.Run("toon/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		for b.Loop() {
			if _, err := Unmarshal(d.toon, DecodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-struct/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		for b.Loop() {
			var recs []benchRecord
			if err := json.Unmarshal(d.json, &recs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-any/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		for b.Loop() {
			var v any
			if err := json.Unmarshal(d.json, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("toon-fromjson/array1MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(d.json)))
		for b.Loop() {
			if _, err := jsonvalue.Parse(d.json); err != nil {
				b.Fatal(err)
			}
		}
	})
}
