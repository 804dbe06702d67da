package binary

import (
	"bytes"
	"testing"

	"github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

func TestRoundTripReference(t *testing.T) {
	for _, c := range testsupport.ReferenceCases(t) {
		r, err := json.Decode(c.JSON)
		if err != nil {
			t.Fatalf("%s: json decode: %v", c.Name, err)
		}
		for _, f := range formats {
			t.Run(c.Name+"/"+f.String(), func(t *testing.T) { roundTrip(t, Default(f), r) })
		}
	}
}

// crossCodec runs json -> msgpack -> cbor -> json and wants the canonical
// JSON bytes back.
func crossCodec(t *testing.T, canonical []byte) {
	t.Helper()
	r, err := wire.DecodeWith("json", canonical)
	if err != nil {
		t.Fatalf("json decode: %v", err)
	}
	mp, err := wire.EncodeWith("msgpack", r)
	if err != nil {
		t.Fatalf("msgpack encode: %v", err)
	}
	r2, err := wire.DecodeWith("msgpack", mp)
	if err != nil {
		t.Fatalf("msgpack decode: %v", err)
	}
	cb, err := wire.EncodeWith("cbor", r2)
	if err != nil {
		t.Fatalf("cbor encode: %v", err)
	}
	r3, err := wire.DecodeWith("cbor", cb)
	if err != nil {
		t.Fatalf("cbor decode: %v", err)
	}
	back, err := wire.EncodeWith("json", r3)
	if err != nil {
		t.Fatalf("json encode: %v", err)
	}
	if !bytes.Equal(back, canonical) {
		t.Fatalf("json -> msgpack -> cbor -> json changed the bytes:\n in: %s\nout: %s", canonical, back)
	}
}

func TestCrossCodec(t *testing.T) {
	t.Run("reference", func(t *testing.T) {
		for _, c := range testsupport.ReferenceCases(t) {
			r, err := json.Decode(c.JSON)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			canonical, err := json.Encode(r) // the reference files are canonical up to layout
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			t.Run(c.Name, func(t *testing.T) { crossCodec(t, canonical) })
		}
	})
	t.Run("generated", func(t *testing.T) {
		gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true})
		for seed := 0; seed < 500; seed++ {
			canonical, err := json.Encode(gen.Example(seed))
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			crossCodec(t, canonical)
		}
	})
	t.Run("bench", func(t *testing.T) {
		for _, bc := range benchCases() {
			canonical, err := json.Encode(bc.resp)
			if err != nil {
				t.Fatal(err)
			}
			crossCodec(t, canonical)
		}
	})
}
