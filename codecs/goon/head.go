package goon

import (
	"bytes"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
)

var _ delta.DocumentCodec = (*Codec)(nil)

// headerMarker is the first line of every GOON text.
const headerMarker = "@header\n"

// AppendDocument implements delta.DocumentCodec (see the package
// documentation, Deltas and references); on error dst comes back as given.
func (c *Codec) AppendDocument(dst []byte, header []delta.Field, content *wire.GraphResponse) ([]byte, error) {
	if len(header) == 0 {
		return c.AppendEncode(dst, content)
	}
	if err := delta.CheckHeader(Name, header, c.core.Limits); err != nil {
		return dst, err
	}
	out, err := c.appendFields(append(dst, headerMarker...), header)
	if err != nil {
		return dst, err
	}
	if content != nil {
		e := encoderPool.Get().(*encoder)
		defer e.release()
		e.fragment = true
		if err := c.encode(e, content); err != nil {
			return dst, err
		}
		out = append(out, e.b[len(headerMarker):]...)
	}
	if err := c.core.CheckOutput(int64(len(out)-len(dst)), "document"); err != nil {
		return dst, err
	}
	return out, nil
}

// DecodeDocument implements delta.DocumentCodec: it reads what
// AppendDocument writes, and any GOON response.
func (c *Codec) DecodeDocument(data []byte) ([]delta.Field, *wire.GraphResponse, error) {
	if !opensDocument(data) {
		r, err := c.Decode(data)
		return nil, r, err
	}
	return c.read(data, true, true)
}

// opensDocument reports whether data opens with "@header" and then a
// document header field.
func opensDocument(data []byte) bool {
	data = bytes.TrimPrefix(data, bom)
	data, ok := bytes.CutPrefix(data, []byte(headerMarker))
	if !ok {
		if data, ok = bytes.CutPrefix(data, []byte("@header\r\n")); !ok {
			return false
		}
	}
	i := bytes.IndexByte(data[:min(len(data), maxFieldName+1)], ':')
	if i < 0 {
		return false
	}
	_, ok = delta.FieldKind(string(data[:i]))
	return ok
}

// maxFieldName bounds a document field's name (the longest has 15 bytes).
const maxFieldName = 32

// The header fields of GOON itself, in their fixed order (SPEC §5.3),
// read by parseHeader and written by writeHeader; a document's fields
// (delta.FieldKind) come before them.

type headerField struct {
	set   bool
	line  int
	value string
}

const (
	fQueryType = iota
	fVersion
	fNodes
	fEdges
	fHasMore
	fTotalRows
	fTruncated
	fNextCursor
	fRows
	fGroupBy
	fAggregations
	numFields
)

var fieldNames = [numFields]string{"query_type", "goon_version", "nodes", "edges", "has_more", "total_rows", "truncated", "next_cursor", "rows", "group_by", "aggregations"}
