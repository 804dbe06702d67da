package wirecodec

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/graphwire/graphwire/internal/mediatype"

	"github.com/graphwire/graphwire/wire"
)

// Sniffer is implemented by codecs that can tell their own encoding from
// its first bytes. wire.Registry.Sniff finds it by type assertion; a codec that
// does not implement it is never named by Sniff.
//
// By convention a confidence of 0.9 or more means the bytes open with the
// format's own signature (wirebench's -f auto takes the first guess at 0.5
// or more), lower ones mean weaker signs, and 0 means the bytes cannot be
// this format.
type Sniffer interface {
	// Sniff returns the confidence, from 0 to 1, that prefix (the first
	// bytes of an input, at most SniffLen of them, so possibly cut in the
	// middle of an item) starts an encoding of this codec. It must be
	// fast, must not panic on any bytes, and must not modify or retain
	// prefix.
	Sniff(prefix []byte) float64
}

// SniffText is for the Sniff method of a text format. It returns prefix
// without a leading UTF-8 byte order mark and leading whitespace (space,
// tab, CR, LF), and whether prefix reads as text: valid UTF-8 without
// control characters other than tab, CR and LF. A rune cut off at the end
// of prefix is allowed, since a prefix may end anywhere. The result shares
// prefix's bytes. The text codecs' Sniff methods (json, goon, toon)
// call it.
func SniffText(prefix []byte) (text []byte, ok bool) {
	p := bytes.TrimPrefix(prefix, []byte("\uFEFF"))
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && n <= 1 {
			if !utf8.FullRune(p[i:]) {
				break
			}
			return nil, false
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return nil, false
		}
		i += n
	}
	return bytes.TrimLeft(p, " \t\r\n"), true
}

// StreamEncoder is implemented by codecs that can write an encoding to an
// io.Writer as they produce it, without holding the whole output in
// memory. wire.Registry.EncodeTo finds it by type assertion. Like
// AppendEncode, it checks the whole response before writing its first
// byte, so a *wire.EncodeError means nothing was written; an error from w
// may leave a partial output behind.
type StreamEncoder interface {
	EncodeTo(w io.Writer, r *wire.GraphResponse) error
}

// Checker is implemented by a codec that can say whether it would encode a
// response without encoding it. CheckEncode returns exactly the error
// AppendEncode would return for r (nil when it would succeed), from the
// same code: a codec implements it with the checks its encoder runs, never
// with a second copy of them. Validate finds it by type
// assertion.
type Checker interface {
	CheckEncode(r *wire.GraphResponse) error
}

// SniffLen is how many leading bytes wire.Registry.Sniff gives a
// Sniffer: it costs the same on any input, however long. A codec's Sniff
// method and its tests may rely on seeing no more.
const SniffLen = 512

// ReadLimited reads rd to its end, refusing a stream longer than max bytes
// with a *wire.DecodeError for codec that matches wire.ErrLimit. It never
// buffers more than max+1 bytes. wirehttp's Client reads with it a body it
// must sniff before it knows its codec.
func ReadLimited(codec string, rd io.Reader, max int64) ([]byte, error) {
	buf, err := io.ReadAll(io.LimitReader(rd, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) > max {
		return nil, &wire.DecodeError{
			Codec:  codec,
			Offset: max,
			Msg:    "input is longer than the limit of " + strconv.FormatInt(max, 10) + " bytes (MaxInputBytes)",
			Limit:  "MaxInputBytes",
		}
	}
	return buf, nil
}

// MediaTypeMatches reports whether the codec described by info serves the
// parsed media type typ (lower case, as mime.ParseMediaType gives it) with
// the parameters params: the same type, and every parameter of params
// equal to the codec's, except a charset of utf-8 on a text codec.
// wire.Registry.LookupMediaType matches so, and wirehttp negotiates
// content with it.
func MediaTypeMatches(info wire.Info, typ string, params map[string]string) bool {
	return mediatype.Matches(info.MediaType, info.Binary, typ, params)
}

// CheckEncode reports whether c would encode r: nil, or the *wire.EncodeError
// c's encoder returns. It asks c's CheckEncode when c is a Checker; else,
// when c is a StreamEncoder, it encodes r into a writer that discards what
// it is given (a StreamEncoder checks the whole response before writing,
// so this costs one encoding's time but not its memory); else it calls
// AppendEncode and drops the output. An error that is not an
// *wire.EncodeError, and a panic in the codec, come back wrapped in an
// *wire.EncodeError naming the codec.
func CheckEncode(c wire.Codec, r *wire.GraphResponse) (err error) {
	name := c.Info().Name
	defer func() {
		if p := recover(); p != nil {
			err = &wire.EncodeError{Codec: name, Msg: fmt.Sprintf("encoder panicked: %v", p)}
		}
	}()
	switch cc := c.(type) {
	case Checker:
		err = cc.CheckEncode(r)
	case StreamEncoder:
		err = cc.EncodeTo(io.Discard, r)
	default:
		_, err = c.AppendEncode(nil, r)
	}
	if err == nil {
		return nil
	}
	if ee, ok := err.(*wire.EncodeError); ok {
		return ee
	}
	return &wire.EncodeError{Codec: name, Msg: "cannot encode", Err: err}
}
