package goon

import (
	"errors"
	"strconv"
)

// DefaultMaxExpansion is the default of DecodeOptions.MaxExpansion: 32 MiB.
const DefaultMaxExpansion = 32 << 20

// DecodeOptions configures a Decoder. The zero value is the default.
type DecodeOptions struct {
	// MaxExpansion bounds the bytes one Decode may add to a document when
	// it restores truncated values to the length their key_len breadcrumb
	// declares (see the package documentation, Truncation). A document
	// that would need more fails with an error before anything is
	// allocated. 0 means DefaultMaxExpansion; negative is invalid.
	MaxExpansion int
}

// Decoder decodes GOON with fixed options. It is immutable and safe for
// concurrent use. The zero Decoder uses the defaults.
type Decoder struct {
	maxExpansion int
}

// Decoder validates o and returns a Decoder built from it.
func (o DecodeOptions) Decoder() (*Decoder, error) {
	if o.MaxExpansion < 0 {
		return nil, errors.New("goon: DecodeOptions.MaxExpansion is negative (" + strconv.Itoa(o.MaxExpansion) + ")")
	}
	return &Decoder{maxExpansion: o.MaxExpansion}, nil
}

func (d *Decoder) limit() int {
	if d == nil || d.maxExpansion == 0 {
		return DefaultMaxExpansion
	}
	return d.maxExpansion
}
