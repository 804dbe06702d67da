package binary

import (
	stdjson "encoding/json"
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// The baseline is encoding/json marshalling and unmarshalling the same
// response as map[string]any (its canonical JSON shape), in the same run.
// Sub-benchmarks: encoding_json, json (graphwire's canonical codec),
// msgpack, cbor, and msgpack_notable / cbor_notable (the layout without its
// string table, kept to measure the table).

type benchCodec struct {
	name   string
	encode func(dst []byte, r *wire.GraphResponse) ([]byte, error)
	decode func(b []byte) (*wire.GraphResponse, error)
}

func benchCodecs() []benchCodec {
	return []benchCodec{
		{"json", json.AppendEncode, json.Decode},
		{"msgpack", Default(Msgpack).AppendEncode, Default(Msgpack).Decode},
		{"cbor", Default(CBOR).AppendEncode, Default(CBOR).Decode},
		{"msgpack_notable", func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
			return Default(Msgpack).write(dst, r, false, 0, nil)
		}, Default(Msgpack).Decode},
		{"cbor_notable", func(dst []byte, r *wire.GraphResponse) ([]byte, error) {
			return Default(CBOR).write(dst, r, false, 0, nil)
		}, Default(CBOR).Decode},
	}
}

func canonicalMap(b *testing.B, r *wire.GraphResponse) ([]byte, map[string]any) {
	canonical, err := json.Encode(r)
	if err != nil {
		b.Fatal(err)
	}
	var m map[string]any
	if err := stdjson.Unmarshal(canonical, &m); err != nil {
		b.Fatal(err)
	}
	return canonical, m
}

func BenchmarkEncode(b *testing.B) {
	benchEach(b, func(_ []byte, m map[string]any) error {
		_, err := stdjson.Marshal(m)
		return err
	}, func(c benchCodec, r *wire.GraphResponse, buf []byte) error {
		_, err := c.encode(buf[:0], r)
		return err
	})
}

func BenchmarkDecode(b *testing.B) {
	benchEach(b, func(canonical []byte, _ map[string]any) error {
		var m map[string]any
		return stdjson.Unmarshal(canonical, &m)
	}, func(c benchCodec, _ *wire.GraphResponse, data []byte) error {
		_, err := c.decode(data)
		return err
	})
}

// benchEach runs, for each case, baseline on its canonical JSON and its
// map, then op for each codec on the response and its encoding.
func benchEach(b *testing.B, baseline func(canonical []byte, m map[string]any) error, op func(c benchCodec, r *wire.GraphResponse, data []byte) error) {
	for _, bc := range benchCases() {
		canonical, m := canonicalMap(b, bc.resp)
		benchRun(b, "encoding_json/"+bc.name, len(canonical), func() error { return baseline(canonical, m) })
		for _, c := range benchCodecs() {
			data, err := c.encode(nil, bc.resp)
			if err != nil {
				b.Fatal(err)
			}
			benchRun(b, c.name+"/"+bc.name, len(data), func() error { return op(c, bc.resp, data) })
		}
	}
}

func benchRun(b *testing.B, name string, wireBytes int, op func() error) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		b.ReportMetric(float64(wireBytes), "wire-bytes")
		for b.Loop() {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSizes checks the size goal (at most 0.6x canonical JSON) on the
// benchmark cases and that the string table pays for itself, and logs the
// figures (go test -run Sizes -v). Sizes do not depend on the race
// detector, which would only slow its round trips of 10,000 nodes on one
// goroutine severalfold; .ci/run runs it without -race.
func TestSizes(t *testing.T) {
	if testsupport.Race {
		t.Skip("sizes are the same without the race detector; .ci/run runs this without -race")
	}
	for _, bc := range benchCases() {
		canonical, err := json.Encode(bc.resp)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range formats {
			with, err := Default(f).AppendEncode(nil, bc.resp)
			if err != nil {
				t.Fatal(err)
			}
			without, err := Default(f).write(nil, bc.resp, false, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Default(f).Decode(without) // the decoder reads both
			if err != nil {
				t.Fatal(err)
			}
			if diff := wiretest.Diff(bc.resp, got, wire.Exact); diff != "" {
				t.Fatalf("%s without table: round trip (-want +got):\n%s", f, diff)
			}
			ratio := float64(len(with)) / float64(len(canonical))
			t.Logf("%-20s %-8s json %8d  table %8d (%.3fx json)  no table %8d (%.3fx json)  table saves %.1f%%",
				bc.name, f, len(canonical), len(with), ratio, len(without),
				float64(len(without))/float64(len(canonical)), 100*(1-float64(len(with))/float64(len(without))))
			if ratio > 0.6 {
				t.Errorf("%s %s: %d bytes is %.3fx canonical JSON, want at most 0.6x", bc.name, f, len(with), ratio)
			}
			if len(with) >= len(without) {
				t.Errorf("%s %s: the string table does not pay: %d >= %d bytes", bc.name, f, len(with), len(without))
			}
		}
	}
}
