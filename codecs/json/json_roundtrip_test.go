package json_test

import (
	"bytes"
	"flag"
	"strconv"
	"sync/atomic"
	"testing"

	gojson "encoding/json"

	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// minRoundTrips is how many generated responses TestRoundTrip checks at
// the least, whatever -rapid.checks says (fewer with -short).
const minRoundTrips = 1000

// roundTrip checks decode→encode→decode on the encoding of r: the first
// decode gives r back exactly, the second encoding is byte for byte the
// first, and the second decode equals the first.
func roundTrip(t interface {
	Fatalf(string, ...any)
	Helper()
}, r *wire.GraphResponse) []byte {
	t.Helper()
	b1, err := encodeJSON(r)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	if !gojson.Valid(b1) {
		t.Fatalf("encoding/json finds the encoding invalid: %s", b1)
	}
	r1, err := decodeJSON(b1)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, b1)
	}
	if diff := wiretest.Diff(r, r1, wire.Exact); diff != "" {
		t.Fatalf("decode(encode(r)) differs from r (-want +got):\n%s\n%s", diff, b1)
	}
	b2, err := encodeJSON(r1)
	if err != nil {
		t.Fatalf("Encode of the decoded response: %v", err)
	}
	if !bytes.Equal(b1, b2) {
		t.Fatalf("encodings differ:\n%s\n%s", b1, b2)
	}
	r2, err := decodeJSON(b2)
	if err != nil {
		t.Fatalf("second Decode: %v", err)
	}
	if diff := wiretest.Diff(r1, r2, wire.Exact); diff != "" {
		t.Fatalf("second decode differs (-first +second):\n%s", diff)
	}
	return b1
}

// TestRoundTrip runs the round trip on at least minRoundTrips generated
// responses with awkward names, every value kind, unicode, control
// characters, ids near ±2^63 and floats like 1.0, 1e21, 5e-324 and -0.0.
func TestRoundTrip(t *testing.T) {
	checks := 100
	if f := flag.Lookup("rapid.checks"); f != nil {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n > 0 {
			checks = n
		}
	}
	rounds := (minRoundTrips + checks - 1) / checks
	if f := flag.Lookup("rapid.seed"); f != nil && f.Value.String() != "0" {
		rounds = 1 // a fixed seed would repeat the same responses
	}
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true})
	var ran atomic.Int64
	for i := 0; i < rounds; i++ {
		t.Run("round"+strconv.Itoa(i), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				ran.Add(1)
				roundTrip(t, gen.Draw(t, "response"))
			})
		})
		if t.Failed() {
			return
		}
	}
	want := int64(minRoundTrips)
	if testing.Short() {
		want /= 5
	}
	if rounds > 1 && ran.Load() < want {
		t.Errorf("ran %d round trips, want at least %d", ran.Load(), want)
	}
	t.Logf("%d generated responses round-tripped", ran.Load())
}

// TestTruncatedGenerated cuts encodings of generated responses after every
// byte: each prefix is an error with an offset, never a response or panic.
func TestTruncatedGenerated(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, MaxNodes: 4, MaxRows: 3})
	docs := [][]byte{[]byte(fullJSON)}
	for seed := 0; seed < 12; seed++ {
		b, err := encodeJSON(gen.Example(seed))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	for i, b := range docs {
		for n := 0; n < len(b); n++ {
			checkDecodeFails(t, "document "+strconv.Itoa(i)+" cut at "+strconv.Itoa(n), b[:n])
		}
		if t.Failed() {
			t.Fatalf("document %d: %s", i, b)
		}
	}
}
