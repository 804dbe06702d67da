package wiretest

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// MaxErrorLen bounds the text of a decode error WantDecodeError accepts.
const MaxErrorLen = 300

// Where a DecodeCase's error may be, besides a line number (0: an offset).
const (
	AnyLine  = -1 // at any line (Line > 0)
	Anywhere = -2 // at any line or offset
)

// LimitSuite is the limit suite of one codec, over inputs in its own
// format: errors bounded and positioned, each limit refusing one step past
// it, decoding linear in the input, the encoder refusing what its decoder
// would refuse. Each codec's limits_test.go fills one in.
type LimitSuite struct {
	Codec string                                  // the codec's name, as its errors carry it
	New   func(l wire.Limits) (wire.Codec, error) // the codec under l

	// TextInput are valid documents that must decode the same with a
	// leading UTF-8 byte order mark and with CRLF line ends (text formats
	// only; leave it empty for a binary format). With ReencodeLF, the
	// decoded response must also encode back to the document itself.
	TextInput  map[string][]byte
	ReencodeLF bool

	// Decode are inputs checked by DecodeHostile under their Limits.
	Decode []DecodeCase
	// Encode are responses the encoder refuses, besides sharedEncodeCases.
	Encode []EncodeCase
	// Scaling are shapes checked by Scaling, with MaxElements math.MaxInt32.
	Scaling []ScalingShape
	// Written, when set, sees each response the encoder wrote under the
	// symmetry check's small limits, and its encoding.
	Written func(t *rapid.T, l wire.Limits, r *wire.GraphResponse, enc []byte)
}

// DecodeCase is one input of a LimitSuite: it decodes (Msg and Limit
// empty; Check sees the response) or fails as WantDecodeError(Line, Msg,
// Limit) asks (CheckErr sees the error).
type DecodeCase struct {
	Name     string
	In       []byte
	Build    func() []byte // when set, makes In as the case runs
	Limits   wire.Limits
	Line     int
	Msg      string
	Limit    string
	Check    func(t *testing.T, r *wire.GraphResponse)
	CheckErr func(t *testing.T, de *wire.DecodeError)
}

// EncodeCase is a response the encoder, configured with Limits, refuses
// with a *wire.EncodeError naming Limit at Path.
type EncodeCase struct {
	Name   string
	Limits wire.Limits
	R      *wire.GraphResponse
	Limit  string
	Path   string
}

// ScalingShape is one input shape for Scaling: Build(n) is about n bytes.
type ScalingShape struct {
	Name  string
	Build func(n int) []byte
}

// RunLimits runs s, each part as a subtest of t.
func RunLimits(t *testing.T, s LimitSuite) {
	t.Helper()
	if len(s.TextInput) > 0 {
		t.Run("TextInput", func(t *testing.T) { s.textInput(t) })
	}
	t.Run("Decode", func(t *testing.T) {
		for _, c := range s.Decode {
			t.Run(c.Name, func(t *testing.T) { s.decode(t, c) })
		}
	})
	t.Run("Encode", func(t *testing.T) {
		for _, c := range append(sharedEncodeCases(), s.Encode...) {
			t.Run(c.Name, func(t *testing.T) { s.encode(t, c) })
		}
	})
	t.Run("Symmetry", func(t *testing.T) { s.symmetry(t) })
	if len(s.Scaling) > 0 {
		t.Run("Scaling", func(t *testing.T) {
			wide := s.codec(t, wire.Limits{MaxElements: math.MaxInt32})
			for _, sh := range s.Scaling {
				t.Run(sh.Name, func(t *testing.T) {
					Scaling(t, sh.Name, sh.Build, func(in []byte) error { _, err := wide.Decode(in); return err })
				})
			}
		})
	}
}

func (s LimitSuite) codec(t testing.TB, l wire.Limits) wire.Codec {
	t.Helper()
	c, err := s.New(l)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// WantDecodeError checks that err is a one-line *wire.DecodeError of
// codec, at most MaxErrorLen bytes, at line (or AnyLine, Anywhere),
// containing msg and naming limit ("" for none).
func WantDecodeError(t testing.TB, err error, codec string, line int, msg, limit string) {
	t.Helper()
	de, bad := decodeErrorOf(err)
	if de == nil {
		t.Fatal(bad)
	}
	text := err.Error()
	if bad != nil || len(text) > MaxErrorLen {
		t.Errorf("error is %d bytes or more than one line: %.400q", len(text), text)
	}
	lineOK := de.Line == line || (line == AnyLine && de.Line > 0) || line == Anywhere
	if de.Codec != codec || !lineOK || !strings.Contains(text, msg) {
		t.Errorf("error %.400q (line %d)\nwant a %s error at line %d containing %q", text, de.Line, codec, line, msg)
	}
	if de.Limit != limit || (limit != "") != errors.Is(err, wire.ErrLimit) {
		t.Errorf("error %.200q names limit %q, want %q", text, de.Limit, limit)
	}
}

func (s LimitSuite) textInput(t *testing.T) {
	c := s.codec(t, wire.Limits{})
	for name, text := range s.TextInput {
		want, err := c.Decode(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		crlf := bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
		for variant, in := range map[string][]byte{
			"bom":      append([]byte("\xef\xbb\xbf"), text...),
			"crlf":     crlf,
			"bom_crlf": append([]byte("\xef\xbb\xbf"), crlf...),
		} {
			got, err := c.Decode(in)
			if err != nil {
				t.Errorf("%s/%s: %v", name, variant, err)
				continue
			}
			if diff := cmp.Diff(want, got, CmpOptions(wire.Exact)...); diff != "" {
				t.Errorf("%s/%s: decoded differently (-lf +%s):\n%s", name, variant, variant, diff)
			}
			if !s.ReencodeLF {
				continue
			}
			if again, err := c.AppendEncode(nil, got); err != nil || !bytes.Equal(again, text) {
				t.Errorf("%s/%s: re-encoding gave %v\n%s\nwant\n%s", name, variant, err, again, text)
			}
		}
	}
}

func (s LimitSuite) decode(t *testing.T, c DecodeCase) {
	codec := s.codec(t, c.Limits)
	in := c.In
	if c.Build != nil {
		in = c.Build()
	}
	out, bad := DecodeHostile(codec, in, Bounds{})
	if bad != nil {
		t.Fatalf("%v\ninput (%d bytes): %.200s", bad, len(in), Quote(in))
	}
	t.Logf("input %d bytes: %v, %d bytes allocated", len(in), out.Elapsed.Round(time.Millisecond), out.Alloc)
	r, err := out.Response, out.Err
	if c.Msg == "" && c.Limit == "" {
		if err != nil {
			t.Fatal(err)
		}
		if c.Check != nil {
			c.Check(t, r)
		}
		return
	}
	WantDecodeError(t, err, s.Codec, c.Line, c.Msg, c.Limit)
	if de, _ := decodeErrorOf(err); c.CheckErr != nil && de != nil {
		c.CheckErr(t, de)
	}
}

// sharedEncodeCases are the refusals every codec's encoder owes.
func sharedEncodeCases() []EncodeCase {
	one := func(props ...wire.Property) *wire.GraphResponse {
		return &wire.GraphResponse{FormatVersion: "1", QueryType: wire.Search, Nodes: []wire.Node{{Type: "N", ID: 1, Properties: props}}}
	}
	deep := wire.ListOf(wire.ListOf(wire.ListOf()))
	return []EncodeCase{
		{"depth", wire.Limits{MaxDepth: 2}, one(wire.Prop("l", deep)), "MaxDepth", "nodes[0].properties.l[0][0]"},
		{"string", wire.Limits{MaxStringBytes: 3}, one(wire.Prop("s", wire.String("abcd"))), "MaxStringBytes", "nodes[0].properties.s"},
		{"elements", wire.Limits{MaxElements: 1}, one(wire.Prop("a", wire.Int(1)), wire.Prop("b", wire.Int(1))), "MaxElements", "nodes[0].properties"},
		{"output", wire.Limits{MaxInputBytes: 50}, one(wire.Prop("s", wire.String(strings.Repeat("a", 40)))), "MaxInputBytes", ""},
	}
}

// encode checks that the encoder refuses c (Refused), naming the limit
// and the path, and that EncodeTo, where the codec streams, writes no byte.
func (s LimitSuite) encode(t *testing.T, c EncodeCase) {
	codec := s.codec(t, c.Limits)
	if err := Refused(codec, c.R); err != nil {
		t.Fatal(err)
	}
	_, err := codec.AppendEncode(nil, c.R)
	var ee *wire.EncodeError
	if !errors.As(err, &ee) || ee.Codec != s.Codec || ee.Limit != c.Limit || ee.Path != c.Path || !errors.Is(err, wire.ErrLimit) {
		t.Fatalf("error %v, want a %s *wire.EncodeError for %s at %q", err, s.Codec, c.Limit, c.Path)
	}
	if se, ok := codec.(wirecodec.StreamEncoder); ok {
		var w bytes.Buffer
		if err := se.EncodeTo(&w, c.R); err == nil || w.Len() != 0 {
			t.Errorf("EncodeTo: error %v, wrote %d bytes", err, w.Len())
		}
	}
}

// symmetry checks that, under small limits, the decoder reads back
// whatever the encoder writes.
func (s LimitSuite) symmetry(t *testing.T) {
	l := wire.Limits{MaxInputBytes: 4000, MaxDepth: 2, MaxElements: 6, MaxStringBytes: 60, MaxMaterializedBytes: 3000}
	codec := s.codec(t, l)
	written := 0
	rapid.Check(t, func(t *rapid.T) {
		r := Response().Draw(t, "response")
		enc, err := codec.AppendEncode(nil, r)
		if err != nil {
			var ee *wire.EncodeError
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T) is not a *wire.EncodeError", err, err)
			}
			return
		}
		written++
		if _, err := codec.Decode(enc); err != nil {
			t.Fatalf("the decoder refuses what the encoder wrote: %v\n%q", err, enc)
		}
		if s.Written != nil {
			s.Written(t, l, r, enc)
		}
	})
	t.Logf("%d responses written and read back under the small limits", written)
	if written == 0 {
		t.Error("no response was written under the small limits")
	}
}
