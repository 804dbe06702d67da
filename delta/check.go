package delta

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math/bits"
)

// Check binds a delta to its base and its result (see the package doc,
// "Positions and the check").
type Check [16]byte

// checkPrefix names the version whose meaning the check vouches for, so a
// delta read under another version's rules never verifies.
const checkPrefix = "graphwire-delta-check-v4\n"

// CheckDigits is the length of a Check as a document writes it: 2^128-1
// has 39 decimal digits.
const CheckDigits = 39

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

// String returns c as written in a document: the big-endian 128-bit
// number c holds, in CheckDigits decimal digits, zero-padded.
func (c Check) String() string {
	hi, lo := binary.BigEndian.Uint64(c[:8]), binary.BigEndian.Uint64(c[8:])
	var b [CheckDigits]byte
	for i := len(b) - 1; i >= 0; i-- {
		var r uint64
		hi, r = bits.Div64(0, hi, 10)
		lo, r = bits.Div64(r, lo, 10)
		b[i] = byte('0' + r)
	}
	return string(b[:])
}

// ErrCheckSyntax is the error of ParseCheck for a text that is not a
// Check's String.
var ErrCheckSyntax = errors.New("delta: a check is 39 decimal digits, a number below 2^128")

// ParseCheck parses c.String()'s form: exactly CheckDigits decimal
// digits, a number below 2^128.
func ParseCheck(s string) (Check, error) {
	if len(s) != CheckDigits {
		return Check{}, ErrCheckSyntax
	}
	var hi, lo uint64
	for i := 0; i < len(s); i++ {
		d := uint64(s[i]) - '0'
		if d > 9 {
			return Check{}, ErrCheckSyntax
		}
		carry, l := bits.Mul64(lo, 10)
		l, c := bits.Add64(l, d, 0)
		over, h := bits.Mul64(hi, 10)
		h, c2 := bits.Add64(h, carry+c, 0)
		if over != 0 || c2 != 0 {
			return Check{}, ErrCheckSyntax
		}
		hi, lo = h, l
	}
	var c Check
	binary.BigEndian.PutUint64(c[:8], hi)
	binary.BigEndian.PutUint64(c[8:], lo)
	return c, nil
}
