package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// canonicalCodec is canonical JSON under a media type: application/json
// (whose encoding ends by itself) or another (read to the end).
type canonicalCodec struct{ name, mediaType string }

func (c canonicalCodec) Info() wire.Info { return wire.Info{Name: c.name, MediaType: c.mediaType} }
func (c canonicalCodec) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return jsoncodec.AppendEncode(dst, r)
}
func (c canonicalCodec) Decode(data []byte) (*wire.GraphResponse, error) {
	return jsoncodec.DecodeWithin(data, wire.Limits{})
}

// streamRegistry holds "json" (application/json) and "whole" (the same
// bytes under a media type that does not say where an encoding ends).
func streamRegistry(t testing.TB, l wire.Limits) *wire.Registry {
	t.Helper()
	reg, err := wire.NewRegistry(l)
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(canonicalCodec{"json", "application/json"})
	reg.Register(canonicalCodec{"whole", "text/x-whole"})
	return reg
}

// streamResponse is the canonical JSON of a small response whose text
// holds what a scan for the end must step over: quotes, backslashes and
// brackets inside strings.
func streamResponse(t testing.TB, id int64) []byte {
	t.Helper()
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Edges: []wire.Edge{},
		Nodes: []wire.Node{{Type: "Note", ID: id, Properties: []wire.Property{
			wire.Prop("text", wire.String(`a "quoted" }] {[ \ back\slash\\" end`)),
			wire.Prop("n", wire.Int(id)),
		}}}}
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func canonical(t testing.TB, r *wire.GraphResponse) string {
	t.Helper()
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Two JSON responses on one stream are read one after the other, then
// io.EOF, whatever the reader's chunks (one byte at a time, half of what
// is asked); InputOffset is just past each.
func TestDecoderReadsResponsesOneAfterAnother(t *testing.T) {
	reg := streamRegistry(t, wire.Limits{})
	first, second := streamResponse(t, 1), streamResponse(t, 2)
	stream := string(first) + "\n" + string(second) + " \n"
	for name, rd := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(stream) },
		"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(stream)) },
		"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(stream)) },
		"data+EOF": func() io.Reader { return iotest.DataErrReader(strings.NewReader(stream)) },
	} {
		d, err := reg.NewDecoder("json", rd())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		var offsets []int64
		for {
			r, err := d.Decode()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: response %d: %v", name, len(got)+1, err)
			}
			got = append(got, canonical(t, r))
			offsets = append(offsets, d.InputOffset())
		}
		if d := cmp.Diff([]string{string(first), string(second)}, got); d != "" {
			t.Errorf("%s: responses (-want +got):\n%s", name, d)
		}
		if d := cmp.Diff([]int64{int64(len(first)), int64(len(first) + 1 + len(second))}, offsets); d != "" {
			t.Errorf("%s: offsets (-want +got):\n%s", name, d)
		}
	}
}

// A reader that blocks after the first response still gives it: the
// Decoder stops at the end of the JSON value. DecodeFrom, which reads the
// stream to its end, is still waiting.
func TestDecoderReturnsBeforeTheStreamEnds(t *testing.T) {
	reg := streamRegistry(t, wire.Limits{})
	first := streamResponse(t, 1)
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write(first) //nolint:errcheck // read below
	d, err := reg.NewDecoder("json", pr)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		r, err := d.Decode()
		if err == nil && canonical(t, r) != string(first) {
			err = errors.New("not the response written")
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Decode waits for the stream to end after a whole response")
	}
	// The next one arrives later, on the same stream.
	go pw.Write(streamResponse(t, 2)) //nolint:errcheck // read below
	if r, err := d.Decode(); err != nil || r.Nodes[0].ID != int64(2) {
		t.Fatalf("second response: %v", err)
	}
}

// Errors are the codec's: for the first response exactly Decode's on the
// same bytes; for a later one Decode's on its bytes, with the offset
// counted from the stream's start. A stream cut short is Decode's error
// for the bytes there are.
func TestDecoderErrorsArePositionedInTheStream(t *testing.T) {
	reg := streamRegistry(t, wire.Limits{})
	first := streamResponse(t, 1)
	bad := `{"format_version":"1.2.0","query_type":"walk","nodes":[],"edges":[]}`
	_, wantFirst := jsoncodec.DecodeWithin([]byte(bad), wire.Limits{})
	if wantFirst == nil {
		t.Fatal("the bad response decodes")
	}
	d, err := reg.NewDecoder("json", strings.NewReader(bad+string(first)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Decode()
	if diff := cmp.Diff(wantFirst, err); diff != "" {
		t.Errorf("first response's error (-Decode +Decoder):\n%s", diff)
	}
	if r, err := d.Decode(); err != nil || canonical(t, r) != string(first) {
		t.Errorf("the response after a refused one: %v", err)
	}

	d, err = reg.NewDecoder("json", strings.NewReader(string(first)+"\n"+bad))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decode(); err != nil {
		t.Fatal(err)
	}
	_, err = d.Decode()
	var got, alone *wire.DecodeError
	errors.As(wantFirst, &alone)
	if !errors.As(err, &got) || got.Offset != int64(len(first))+1+alone.Offset || got.Msg != alone.Msg {
		t.Errorf("second response's error %v; want %q at offset %d", err, alone.Msg, int64(len(first))+1+alone.Offset)
	}

	cut := first[:len(first)-5]
	_, want := jsoncodec.DecodeWithin(cut, wire.Limits{})
	d, _ = reg.NewDecoder("json", bytes.NewReader(cut))
	if _, err := d.Decode(); want == nil || fmt.Sprint(err) != want.Error() {
		t.Errorf("cut stream: %v; want %v", err, want)
	}
	for _, empty := range []string{"", " \n\t"} {
		d, _ = reg.NewDecoder("json", strings.NewReader(empty))
		if _, err := d.Decode(); err != io.EOF {
			t.Errorf("stream %q: %v, want io.EOF", empty, err)
		}
	}
	readErr := errors.New("connection reset")
	d, _ = reg.NewDecoder("json", io.MultiReader(bytes.NewReader(first[:10]), iotest.ErrReader(readErr)))
	for range 2 {
		if _, err := d.Decode(); !errors.Is(err, readErr) {
			t.Errorf("failing reader: %v, want %v", err, readErr)
		}
	}
}

// DecodeFrom keeps reading a stream as one response: bytes after the JSON
// value are refused with Decode's very error, and an empty stream gets
// the codec's error, not io.EOF.
func TestDecodeFromReadsTheWholeStream(t *testing.T) {
	reg := streamRegistry(t, wire.Limits{})
	first := streamResponse(t, 1)
	for _, in := range []string{string(first) + " x", string(first) + string(first), "", "  "} {
		_, want := jsoncodec.DecodeWithin([]byte(in), wire.Limits{})
		_, got := reg.DecodeFrom("json", iotest.HalfReader(strings.NewReader(in)))
		if want == nil || cmp.Diff(want, got) != "" {
			t.Errorf("DecodeFrom(%.20q...) = %v, want Decode's error %v", in, got, want)
		}
	}
	r, err := reg.DecodeFrom("json", strings.NewReader(string(first)+"\n"))
	if err != nil || canonical(t, r) != string(first) {
		t.Errorf("DecodeFrom with a final newline: %v", err)
	}
}

// A codec whose encoding does not end by itself is read to the end of the
// stream: one response, then io.EOF.
func TestDecoderReadsAnUndelimitedCodecToTheEnd(t *testing.T) {
	reg := streamRegistry(t, wire.Limits{})
	first := streamResponse(t, 1)
	d, err := reg.NewDecoder("whole", iotest.OneByteReader(bytes.NewReader(first)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Decode()
	if err != nil || canonical(t, r) != string(first) {
		t.Fatalf("whole: %v", err)
	}
	if _, err := d.Decode(); err != io.EOF {
		t.Errorf("after the one response: %v, want io.EOF", err)
	}
	// Two JSON values are not two responses in it: the codec's error.
	d, _ = reg.NewDecoder("whole", bytes.NewReader(append(first, first...)))
	if _, err := d.Decode(); err == nil || !strings.Contains(err.Error(), "after the response") {
		t.Errorf("two values in an undelimited codec: %v", err)
	}
	if _, err := reg.NewDecoder("nope", nil); !errors.Is(err, wire.ErrUnknownCodec) {
		t.Errorf("unknown codec: %v", err)
	}
}

// countingReader counts the bytes it gives.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Each response is bounded by MaxInputBytes: a longer one is refused
// with ErrLimit at the limit's offset in the stream, after reading one
// byte past it and no more; responses within it, one after another, are
// read however long the stream.
func TestDecoderLimit(t *testing.T) {
	first := streamResponse(t, 1)
	max := int64(len(first)) + 10
	reg := streamRegistry(t, wire.Limits{MaxInputBytes: max})
	var stream []byte
	for range 20 {
		stream = append(append(stream, first...), '\n')
	}
	d, _ := reg.NewDecoder("json", bytes.NewReader(stream))
	for i := range 20 {
		if _, err := d.Decode(); err != nil {
			t.Fatalf("response %d of a stream 20 times the limit: %v", i+1, err)
		}
	}
	long := append(bytes.Repeat([]byte(" "), int(max)), first...)
	for _, name := range []string{"json", "whole"} {
		cr := &countingReader{r: bytes.NewReader(append(append([]byte{}, first...), long...))}
		d, _ := reg.NewDecoder(name, cr)
		if name == "json" {
			if _, err := d.Decode(); err != nil {
				t.Fatal(err)
			}
		}
		_, err := d.Decode()
		var de *wire.DecodeError
		start := int64(0)
		if name == "json" {
			start = int64(len(first))
		}
		if !errors.Is(err, wire.ErrLimit) || !errors.As(err, &de) || de.Offset != start+max || de.Limit != "MaxInputBytes" {
			t.Errorf("%s: %v; want ErrLimit at offset %d", name, err, start+max)
		}
		if cr.n > start+max+1 {
			t.Errorf("%s: read %d bytes, want at most %d", name, cr.n, start+max+1)
		}
	}
}

// DecodeFrom and a Decoder of a large body hold at most 16 times the
// input plus 16 MiB at their peak, from a reader that says its length and
// from one that does not.
func TestDecodeFromMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 16 MB body")
	}
	reg := streamRegistry(t, wire.Limits{})
	r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Edges: []wire.Edge{}}
	for i := range 100_000 {
		r.Nodes = append(r.Nodes, wire.Node{Type: "User", ID: int64(i), Properties: []wire.Property{
			wire.Prop("bio", wire.String(strings.Repeat("x", 120))), wire.Prop("n", wire.Int(int64(i)))}})
	}
	body, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	r = nil
	bound := wiretest.DecodeMemoryBound(len(body))
	for name, call := range map[string]func() error{
		"DecodeFrom, bytes.Reader": func() error { _, err := reg.DecodeFrom("json", bytes.NewReader(body)); return err },
		"DecodeFrom, no length":    func() error { _, err := reg.DecodeFrom("json", &countingReader{r: bytes.NewReader(body)}); return err },
		"Decoder, no length": func() error {
			d, err := reg.NewDecoder("json", &countingReader{r: bytes.NewReader(body)})
			if err == nil {
				_, err = d.Decode()
			}
			return err
		},
	} {
		var err error
		f := wiretest.Measure(func() { err = call() })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s of %d bytes: %v (bound %d KiB)", name, len(body), f, bound>>10)
		if f.PeakHeap > bound {
			t.Errorf("%s: peak heap %d KiB, bound %d KiB", name, f.PeakHeap>>10, bound>>10)
		}
	}
}

// FuzzDecoder: a stream read in chunks of one byte gives what it gives
// read whole, response by response (the scan for a value's end does not
// depend on where reads split it), and each response is what Decode
// makes of exactly its bytes.
func FuzzDecoder(f *testing.F) {
	first := streamResponse(f, 1)
	f.Add(append(append(append([]byte{}, first...), '\n'), first...))
	f.Add([]byte(`{"a":"\"}"}{"b":[1,{"c":"\\"}]} 12 "x" [`))
	f.Add([]byte("\xef\xbb\xbf" + string(first)))
	reg := streamRegistry(f, wire.Limits{MaxInputBytes: 4096})
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(rd io.Reader) (out []string) {
			d, err := reg.NewDecoder("json", rd)
			if err != nil {
				t.Fatal(err)
			}
			for len(out) < 100 {
				start := d.InputOffset()
				r, err := d.Decode()
				if err != nil {
					return append(out, err.Error())
				}
				c := canonical(t, r)
				if again, err := jsoncodec.DecodeWithin(data[start:d.InputOffset()], wire.Limits{}); err != nil || canonical(t, again) != c {
					t.Fatalf("response at %d..%d is not Decode's of its bytes: %v", start, d.InputOffset(), err)
				}
				out = append(out, c)
			}
			return out
		}
		whole, bytewise := read(bytes.NewReader(data)), read(iotest.OneByteReader(bytes.NewReader(data)))
		if d := cmp.Diff(whole, bytewise); d != "" {
			t.Errorf("read whole vs one byte at a time (-whole +bytewise):\n%s", d)
		}
	})
}
