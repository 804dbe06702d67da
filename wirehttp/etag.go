package wirehttp

import (
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"iter"
	"slices"
	"strings"
)

// etagOf is the strong entity tag of a body of type ctype: the first 144
// bits of SHA-256 over the media type, a NUL byte and the body, in
// unpadded base64url, quoted. Codecs are deterministic, so the same
// response in the same format always has the same tag, and two formats
// never share one.
func etagOf(ctype string, body []byte) string {
	hc := newHashCounter(ctype)
	hc.Write(body) //nolint:errcheck // hashes never fail
	return hc.etag()
}

// hashCounter hashes and counts what is written to it, refusing more
// than max bytes in all when max is above zero.
type hashCounter struct {
	h   hash.Hash
	n   int64
	max int64
}

func newHashCounter(ctype string) *hashCounter {
	h := sha256.New()
	h.Write([]byte(ctype)) //nolint:errcheck
	h.Write([]byte{0})     //nolint:errcheck
	return &hashCounter{h: h}
}

func (hc *hashCounter) Write(p []byte) (int, error) {
	if hc.max > 0 && hc.n+int64(len(p)) > hc.max {
		return 0, errTooLong
	}
	hc.n += int64(len(p))
	return hc.h.Write(p)
}

func (hc *hashCounter) etag() string {
	var sum [sha256.Size]byte
	var out [2 + 24]byte
	out[0] = '"'
	base64.RawURLEncoding.Encode(out[1:25], hc.h.Sum(sum[:0])[:18])
	out[25] = '"'
	return string(out[:])
}

// The suffixes gzhttp (SuffixETag("-gzip")) appends to the entity tag of
// a response it compresses, one per content coding.
var codingSuffixes = []string{"-gzip", "-zstd"}

// MaxETags is the most entity tags of If-None-Match (all its field lines
// read as one list) compared with the current one; a tag past them is
// ignored, and the full answer sent. Caches send one or a few.
const MaxETags = 64

// matchIfNoneMatch reports whether the If-None-Match field values match
// etag under the weak comparison RFC 9110 §13.1.2 prescribes (W/ prefixes
// ignored), and returns the tag to send with the 304: the strong form of
// the tag that matched. "*" matches any current representation. With
// compressed, the tags of the compressed variants of the same bytes
// (etag with a coding suffix) match too, since the client holding them
// holds the same content. Unparsable elements are skipped.
//
// Only the first MaxETags elements are considered (a tag past them does
// not match), so that the work is bounded whatever the header's size.
func matchIfNoneMatch(values []string, etag string, compressed bool) (string, bool) {
	opaque := etag[1 : len(etag)-1]
	matched, ok := "", false
	for tag, star := range ifNoneMatchTags(values) {
		if star {
			matched, ok = etag, true
			break
		}
		if tag == opaque {
			matched, ok = etag, true
			break
		}
		if compressed && strings.HasPrefix(tag, opaque) && slices.Contains(codingSuffixes, tag[len(opaque):]) {
			matched, ok = `"`+tag+`"`, true
			break
		}
	}
	return matched, ok
}

// ifNoneMatchTags yields the opaque part (without W/ and quotes) of each
// of the first MaxETags elements of the If-None-Match field values, and
// star true for "*", skipping elements that do not parse.
func ifNoneMatchTags(values []string) iter.Seq2[string, bool] {
	return func(yield func(string, bool) bool) {
		considered := 0
		for _, v := range values {
			for {
				v = strings.TrimLeft(v, " \t,")
				if v == "" || considered == MaxETags {
					break
				}
				considered++
				if v[0] == '*' {
					if !yield("", true) {
						return
					}
					v = v[1:]
					continue
				}
				v = strings.TrimPrefix(v, "W/")
				if v == "" || v[0] != '"' {
					// Not an entity tag: skip to the next element.
					i := strings.IndexByte(v, ',')
					if i < 0 {
						break
					}
					v = v[i:]
					continue
				}
				end := strings.IndexByte(v[1:], '"')
				if end < 0 {
					break
				}
				tag := v[1 : 1+end]
				v = v[2+end:]
				if !yield(tag, false) {
					return
				}
			}
		}
	}
}
