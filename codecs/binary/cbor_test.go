package binary

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// cborEnc is the CBOR library's encoder in the forms cborSink writes: RFC
// 8949 core deterministic, a NaN kept as float64 with its payload. Tests
// use it as the oracle of cborSink and to write records the layout does
// not hold.
var cborEnc = func() cbor.EncMode {
	o := cbor.CoreDetEncOptions()
	o.NaNConvert = cbor.NaNConvertNone
	em, err := o.EncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

// newSink returns a fresh sink of format f, nothing kept from other
// encodings, and a function returning what it has written so far.
func newSink(f Format) (sink, func() []byte) {
	if f == CBOR {
		s := &cborSink{}
		return s, func() []byte { return s.b }
	}
	st := encPool.New().(*encState)
	return &st.mp, func() []byte { return st.mp.b }
}

// libraryCBOR re-encodes b with the CBOR library: b read into plain values
// and written in core deterministic form.
func libraryCBOR(t tb, b []byte) []byte {
	var v any
	if err := cbor.Unmarshal(b, &v); err != nil {
		t.Fatalf("the library cannot read the encoding: %v", err)
	}
	return libraryEncode(t, CBOR, v)
}

// TestCBORSinkIsCoreDeterministic: what the codec writes is what the CBOR
// library writes for the same items in core deterministic form, over
// generated responses, special floats and integers at every head width.
func TestCBORSinkIsCoreDeterministic(t *testing.T) {
	check := func(t tb, b []byte) {
		if want := libraryCBOR(t, b); !bytes.Equal(b, want) {
			t.Fatalf("the codec wrote\n%x\nthe library writes\n%x", b, want)
		}
	}
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true, MaxNodes: 40})
	rapid.Check(t, func(t *rapid.T) {
		b, err := Encode(CBOR, gen.Draw(t, "response"))
		if err != nil {
			t.Fatal(err)
		}
		check(t, b)
	})
	var s cborSink
	s.array(0)
	for _, f := range []float64{0, math.Copysign(0, -1), 1, 1.5, 65504, 65505, 1e-8, math.MaxFloat32, math.Pi,
		math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64, 5.960464477539063e-08} {
		s.b = s.b[:0]
		s.float(f)
		check(t, s.b)
	}
	for _, i := range []int64{0, 23, 24, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64,
		-1, -24, -25, -256, -257, -65537, math.MinInt64} {
		s.b = s.b[:0]
		s.integer(i)
		check(t, s.b)
	}
}

// TestCBORNaNPayload: a NaN keeps its float64 bits, payload included.
func TestCBORNaNPayload(t *testing.T) {
	nan := math.Float64frombits(0x7ff8_0000_dead_beef)
	var s cborSink
	s.float(nan)
	want := []byte{0xfb, 0x7f, 0xf8, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xef}
	if !bytes.Equal(s.b, want) {
		t.Fatalf("NaN written as %x, want %x", s.b, want)
	}
}

// TestEncoderReuse checks that what the pooled encoder keeps between
// responses never shows in the bytes: encoding responses one after the
// other, large and small, gives what a fresh sink gives for each.
func TestEncoderReuse(t *testing.T) {
	gen := wiretest.ResponseWith(wiretest.Options{AwkwardNames: true, NonFinite: true, MaxNodes: 40})
	fresh := func(t tb, f Format, r *wire.GraphResponse) []byte {
		s, out := newSink(f)
		e := encoder{sink: s, codec: f.String(), names: map[string]int64{}}
		e.response(r)
		if e.err != nil {
			t.Fatalf("encode: %v", e.err)
		}
		return out()
	}
	check := func(t tb, rs []*wire.GraphResponse) {
		for _, f := range formats {
			var want [][]byte
			for _, r := range rs {
				want = append(want, fresh(t, f, r))
			}
			for pass := 0; pass < 2; pass++ {
				for i, r := range rs {
					got, err := Encode(f, r)
					if err != nil {
						t.Fatalf("%s: response %d: %v", f, i, err)
					}
					if !bytes.Equal(got, want[i]) {
						t.Fatalf("%s: pass %d, response %d: the pooled encoder wrote\n%x\nwant\n%x", f, pass, i, got, want[i])
					}
				}
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, []*wire.GraphResponse{gen.Draw(t, "a"), gen.Draw(t, "b"), gen.Draw(t, "c")})
	})
	large := benchCases()[0].resp
	small := gen.Example(1)
	check(t, []*wire.GraphResponse{small, large, small})
}

// TestMsgpackSinkIsTheLibrarys: every item the msgpack sink writes is
// byte for byte what the msgpack library's Encoder writes for it, at each
// boundary of each form.
func TestMsgpackSinkIsTheLibrarys(t *testing.T) {
	var lib bytes.Buffer
	enc := msgpack.NewEncoder(&lib)
	var s mpSink
	check := func(what string, v any) {
		t.Helper()
		if !bytes.Equal(s.b, lib.Bytes()) {
			t.Fatalf("%s %v: the sink wrote %x, the library %x", what, v, s.b, lib.Bytes())
		}
		s.b = s.b[:0]
		lib.Reset()
	}
	edges := []int64{0, 1, 31, 32, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxInt64}
	for _, e := range edges {
		for _, i := range []int64{e, e - 1, -e, -e - 1, -e + 1} {
			s.integer(i)
			_ = enc.EncodeInt(i)
			check("integer", i)
		}
	}
	s.integer(math.MinInt64)
	_ = enc.EncodeInt(math.MinInt64)
	check("integer", int64(math.MinInt64))
	for _, n := range []int{0, 1, 15, 16, 31, 32, 255, 256, 65535, 65536, 70000} {
		str := strings.Repeat("é", n)[:n]
		s.str(str)
		_ = enc.EncodeString(str)
		check("string of", n)
		s.array(n)
		_ = enc.EncodeArrayLen(n)
		check("array of", n)
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1.5, 0.1, math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff8_0000_dead_beef), math.MaxFloat64, math.SmallestNonzeroFloat64, float64(math.MaxFloat32)} {
		s.float(f)
		if f32 := float32(f); f == f && math.Float64bits(float64(f32)) == math.Float64bits(f) {
			_ = enc.EncodeFloat32(f32)
		} else {
			_ = enc.EncodeFloat64(f)
		}
		check("float", f)
	}
	s.null()
	_ = enc.EncodeNil()
	check("null", nil)
	for _, b := range []bool{false, true} {
		s.boolean(b)
		_ = enc.EncodeBool(b)
		check("bool", b)
	}
}
