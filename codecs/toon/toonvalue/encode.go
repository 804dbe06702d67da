package toonvalue

import (
	"io"
	"sync"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
)

// Marshal returns the TOON encoding of v (spec v4.0). The output has LF line
// endings and no trailing newline; an empty root object encodes as no
// bytes at all.
func Marshal(v jsonvalue.Value, opts EncodeOptions) ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := AppendMarshal((*bp)[:0], v, opts)
	var out []byte
	if err == nil {
		out = append(make([]byte, 0, len(b)), b...)
	}
	if cap(b) <= 1<<24 { // do not keep huge buffers alive
		*bp = b[:0]
		bufPool.Put(bp)
	}
	return out, err
}

// bufPool holds scratch buffers for Marshal, which copies the result out
// once its size is known.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// AppendMarshal appends the TOON encoding of v to dst and returns the
// extended slice. On error it returns dst unchanged in length.
func AppendMarshal(dst []byte, v jsonvalue.Value, opts EncodeOptions) ([]byte, error) {
	o, err := opts.resolve()
	if err != nil {
		return dst, err
	}
	start := len(dst)
	e := toonwrite.New(dst, nil, byte(o.Delimiter), o.IndentSize)
	e.Root(v)
	if err := e.Err(); err != nil {
		return dst[:start], err
	}
	return e.Buf, nil
}

// Encoder writes TOON documents to an io.Writer as it produces them,
// flushing every few kilobytes, so the whole text is never held in memory.
type Encoder struct {
	w    io.Writer
	opts EncodeOptions
	err  error
}

// NewEncoder returns an Encoder writing to w with opts. An invalid option
// is reported by the first Encode.
func NewEncoder(w io.Writer, opts EncodeOptions) *Encoder {
	o, err := opts.resolve()
	return &Encoder{w: w, opts: o, err: err}
}

// Encode writes the TOON encoding of v. The text is produced once into
// io.Discard before it is written, so an unsupported value or a duplicate
// key writes nothing; only a failing writer can leave partial output. Successive
// documents are written back to back: separate them yourself if needed.
func (enc *Encoder) Encode(v jsonvalue.Value) error {
	if enc.err != nil {
		return enc.err
	}
	buf := make([]byte, 0, toonwrite.FlushSize+4096)
	for _, w := range []io.Writer{io.Discard, enc.w} {
		e := toonwrite.New(buf, w, byte(enc.opts.Delimiter), enc.opts.IndentSize)
		e.Root(v)
		e.Flush()
		if err := e.Err(); err != nil {
			return err
		}
	}
	return nil
}
