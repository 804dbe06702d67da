package delta

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// Check binds a delta to its base and its result: the first 128 bits of
// SHA-256 over "graphwire-delta-check-v2\n", the base's Fingerprint and
// the result's. A document writes it as 22 characters of unpadded
// base64url (RFC 4648 §5), about 14 o200k tokens where the two
// fingerprints of version 1 cost 76.
//
// Why one 128-bit value rather than two fingerprints: a reader always
// holds the base it patches (the caller names it) and computes the
// result's fingerprint after patching, so a check over both verifies the
// base and the result at once; 128 bits leave a chance of 2^-128 that a
// wrong base or an altered delta goes unnoticed, and a deliberate forgery
// needs a second preimage of truncated SHA-256. What is lost is telling
// a wrong base from an altered delta, which no caller acts on
// differently (both ask for the whole response).
type Check [16]byte

// checkPrefix makes a Check's hashed bytes differ from any Fingerprint's.
const checkPrefix = "graphwire-delta-check-v2\n"

// MakeCheck returns the Check of a delta from the response whose
// fingerprint is base to the one whose fingerprint is result.
func MakeCheck(base, result Hash) Check {
	h := sha256.New()
	h.Write([]byte(checkPrefix))
	h.Write(base[:])
	h.Write(result[:])
	var sum [sha256.Size]byte
	var c Check
	copy(c[:], h.Sum(sum[:0]))
	return c
}

// String returns c as written in a document: 22 characters of unpadded
// base64url.
func (c Check) String() string { return base64.RawURLEncoding.EncodeToString(c[:]) }

// ErrCheckSyntax is the error of ParseCheck for a text that is not 22
// characters of unpadded base64url.
var ErrCheckSyntax = errors.New("delta: a check is 22 characters of unpadded base64url")

// ParseCheck parses c.String()'s form.
func ParseCheck(s string) (Check, error) {
	var c Check
	if len(s) != base64.RawURLEncoding.EncodedLen(len(c)) {
		return c, ErrCheckSyntax
	}
	n, err := base64.RawURLEncoding.Strict().Decode(c[:], []byte(s))
	if err != nil || n != len(c) {
		return Check{}, ErrCheckSyntax
	}
	return c, nil
}
