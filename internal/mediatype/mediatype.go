// Package mediatype holds the one rule by which a codec's media type
// serves a requested one, for wire's registry and wirecodec (wirehttp's
// content negotiation).
package mediatype

import (
	"mime"
	"strings"
)

// Matches reports whether a codec of media type codecType (binary or
// text) serves the parsed media type typ (lower case, as
// mime.ParseMediaType gives it) with the parameters params: the same
// type, and every parameter of params equal to the codec's, except a
// charset of utf-8 on a text codec.
func Matches(codecType string, binary bool, typ string, params map[string]string) bool {
	have, haveParams, err := mime.ParseMediaType(codecType)
	if err != nil || have != typ {
		return false
	}
	for k, v := range params {
		if k == "charset" && !binary && strings.EqualFold(v, "utf-8") {
			continue
		}
		if haveParams[k] != v {
			return false
		}
	}
	return true
}
