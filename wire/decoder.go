package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
)

// A Decoder reads graph responses one after another from a stream, in one
// codec, each within the registry's Limits.MaxInputBytes. A codec whose
// media type is JSON (application/json, or +json) writes one JSON text per
// response, which says where it ends: the Decoder reads in chunks of at
// most 32 KiB until it holds one whole value (following strings, escapes
// and brackets), decodes it and keeps the rest for the next Decode, as
// encoding/json.Decoder does. The other built-in codecs' encodings do not
// end by themselves, and the Decoder reads the stream to its end as one
// response. It never holds more than one response (MaxInputBytes plus a
// chunk read ahead); a longer one is a *DecodeError matching ErrLimit.
// Errors are the codec's, with Offset counted from the start of the
// stream. A Decoder is not safe for concurrent use.
type Decoder struct {
	c      Codec
	rd     io.Reader
	max    int64
	framed bool // the codec's encoding ends by itself: one JSON text
	buf    []byte
	off    int   // buf[:off] is decoded
	base   int64 // stream offset of buf[0]
	rerr   error // the reader's error, io.EOF at the end; kept
}

// decodeChunk is the most a Decoder asks its reader for at once.
const decodeChunk = 32 << 10

// NewDecoder returns a Decoder reading responses in the codec registered
// under name from rd, each within g's MaxInputBytes.
func (g *Registry) NewDecoder(name string, rd io.Reader) (*Decoder, error) {
	c, err := g.Lookup(name)
	if err != nil {
		return nil, err
	}
	return &Decoder{c: c, rd: rd, max: g.Limits().MaxInputBytes, framed: isJSONMediaType(c.Info().MediaType)}, nil
}

// isJSONMediaType reports whether a codec of this media type writes one
// JSON text: application/json, or a structured syntax suffix of +json.
func isJSONMediaType(mediaType string) bool {
	t, _, err := mime.ParseMediaType(mediaType)
	return err == nil && (t == "application/json" || strings.HasSuffix(t, "+json"))
}

// Decode reads and decodes the next response. At the end of the stream
// (nothing left but white space, for a JSON codec; nothing at all,
// otherwise) it returns io.EOF. A reader's error other than io.EOF is
// returned as it is.
func (d *Decoder) Decode() (*GraphResponse, error) {
	return d.next(false)
}

// InputOffset is the offset in the stream just past the last response
// Decode returned.
func (d *Decoder) InputOffset() int64 { return d.base + int64(d.off) }

// next decodes the next response; whole reads the stream to its end
// whatever the codec, and decodes an empty stream (DecodeFrom).
func (d *Decoder) next(whole bool) (*GraphResponse, error) {
	if d.rerr != nil && d.rerr != io.EOF {
		return nil, d.rerr
	}
	if d.off > 0 { // drop what was decoded: at most one chunk is left
		n := copy(d.buf, d.buf[d.off:])
		d.buf, d.base, d.off = d.buf[:n], d.base+int64(d.off), 0
	}
	if l, ok := d.rd.(interface{ Len() int }); ok && whole && cap(d.buf) == 0 {
		d.buf = make([]byte, 0, min(int64(l.Len()), d.max)+1) // a reader that knows its length
	}
	framed := d.framed && !whole
	var sc jsonEnd
	scanned, end := 0, -1
	for {
		if framed {
			if n, done := sc.scan(d.buf[scanned:], d.rerr != nil); done {
				end = scanned + n
				break
			}
			scanned = len(d.buf)
		}
		if d.rerr != nil || int64(len(d.buf)) > d.max {
			break
		}
		d.buf, d.rerr = readChunk(d.buf, d.rd, d.max+1-int64(len(d.buf)))
		if d.rerr != nil && d.rerr != io.EOF {
			return nil, d.rerr
		}
	}
	if end < 0 { // the stream ended, or the limit was passed
		end = len(d.buf)
		if !whole && d.rerr == io.EOF && (len(d.buf) == 0 || framed && !sc.started) {
			d.off = end
			return nil, io.EOF
		}
	}
	if int64(end) > d.max {
		return nil, &DecodeError{Codec: d.c.Info().Name, Offset: d.base + d.max, Limit: "MaxInputBytes",
			Msg: fmt.Sprintf("input is longer than the limit of %d bytes (MaxInputBytes)", d.max)}
	}
	r, err := d.c.Decode(d.buf[:end])
	d.off = end
	if err != nil {
		return nil, d.shift(err)
	}
	return r, nil
}

// shift moves the offset of a codec's *DecodeError from the response's
// start to the stream's.
func (d *Decoder) shift(err error) error {
	var de *DecodeError
	if d.base == 0 || !errors.As(err, &de) || de.Line > 0 || err != error(de) {
		return err
	}
	moved := *de
	moved.Offset += d.base
	return &moved
}

// readChunk reads once from rd into buf's spare capacity, at most
// min(decodeChunk, room) bytes (room > 0), growing buf as append does.
// io.EOF comes back once the stream has ended; a reader that returns
// nothing 100 times in a row gives io.ErrNoProgress.
func readChunk(buf []byte, rd io.Reader, room int64) ([]byte, error) {
	want := int(min(decodeChunk, room))
	if cap(buf)-len(buf) < want {
		buf = append(buf, make([]byte, want)...)[:len(buf)]
	}
	for range 100 {
		n, err := rd.Read(buf[len(buf) : len(buf)+want])
		buf = buf[:len(buf)+n]
		if n > 0 || err != nil {
			return buf, err
		}
	}
	return buf, io.ErrNoProgress
}

// jsonEnd finds where one JSON value ends in bytes given to it piece by
// piece. It follows strings, escapes and bracket depth only: whether the
// value is valid is the decoder's to say, on exactly the bytes up to the
// end found (a stray bracket ends the value early, and the decoder reports
// it where it is).
type jsonEnd struct {
	started bool // a byte other than white space was seen
	scalar  bool // the value is a number or literal: ends at a delimiter
	str     bool // inside a string
	esc     bool // after a backslash in a string
	depth   int
}

// scan continues over p, the bytes after those already scanned, and
// reports the length of p up to the value's end, or done false when p
// ends first. At the end of the stream (eof) a number or literal ends with
// it.
func (s *jsonEnd) scan(p []byte, eof bool) (int, bool) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if s.str {
			if s.esc {
				s.esc = false
				continue
			}
			j := bytes.IndexAny(p[i:], `"\`)
			if j < 0 {
				return len(p), false
			}
			i += j
			if p[i] == '\\' {
				s.esc = true
				continue
			}
			s.str = false
			if s.depth == 0 {
				return i + 1, true
			}
			continue
		}
		if !s.started {
			switch c {
			case ' ', '\t', '\n', '\r', 0xef, 0xbb, 0xbf: // white space, a byte order mark
				continue
			}
			s.started = true
			switch c {
			case '{', '[':
				s.depth = 1
			case '"':
				s.str = true
			default:
				s.scalar = true
			}
			continue
		}
		if s.scalar {
			switch c {
			case ' ', '\t', '\n', '\r', '{', '}', '[', ']', ',', ':', '"':
				return i, true
			}
			continue
		}
		switch c {
		case '"':
			s.str = true
		case '{', '[':
			s.depth++
		case '}', ']':
			s.depth--
			if s.depth == 0 {
				return i + 1, true
			}
		}
	}
	if eof && s.scalar {
		return len(p), true
	}
	return len(p), false
}
