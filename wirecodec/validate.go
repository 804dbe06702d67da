package wirecodec

import (
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/wire"
)

// ValidationError is Validate's error: the response breaks the model's
// rules, or at least one codec of the registry refuses it. errors.As finds
// the first *wire.EncodeError in it (the model's, or the first codec's by
// name), and errors.Is(err, ErrLimit) holds when any of them is a limit's.
type ValidationError struct {
	// Model is the error of the model's own rules and the registry's
	// Limits (Check), or nil when the response keeps them. Its
	// Codec is "": it is no codec's.
	Model *wire.EncodeError
	// Codecs holds one error for each codec that refuses the response,
	// sorted by codec name; its Codec field names the codec.
	Codecs []*wire.EncodeError
}

// For returns the error of the codec named name (its canonical name, as
// Info().Name gives it, in lower case), or nil when that codec accepts
// the response or is not in the registry.
func (e *ValidationError) For(name string) *wire.EncodeError {
	for _, ce := range e.Codecs {
		if strings.EqualFold(ce.Codec, name) {
			return ce
		}
	}
	return nil
}

// Error is one line: "wire: invalid response: query_type: invalid query
// type \"walk\"", or "wire: 1 of the registry's codecs refuses the
// response: goon: nodes[0].type: ...".
func (e *ValidationError) Error() string {
	var b strings.Builder
	if e.Model != nil {
		b.WriteString("wire: invalid response: ")
		if e.Model.Path != "" {
			b.WriteString(e.Model.Path + ": ")
		}
		b.WriteString(e.Model.Msg)
		if len(e.Codecs) > 0 {
			b.WriteString("; ")
		}
	} else {
		b.WriteString("wire: ")
	}
	if len(e.Codecs) > 0 {
		b.WriteString(strconv.Itoa(len(e.Codecs)))
		if len(e.Codecs) == 1 {
			b.WriteString(" codec refuses the response: ")
		} else {
			b.WriteString(" codecs refuse the response: ")
		}
		for i, ce := range e.Codecs {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(ce.Error())
		}
	}
	return b.String()
}

// Unwrap returns the model's error, if any, then each codec's.
func (e *ValidationError) Unwrap() []error {
	errs := make([]error, 0, 1+len(e.Codecs))
	if e.Model != nil {
		errs = append(errs, e.Model)
	}
	for _, ce := range e.Codecs {
		errs = append(errs, ce)
	}
	return errs
}

// Validate reports whether r is valid for the model and for every codec
// registered in g: nil, or a *ValidationError naming the rule of the model
// r breaks and every codec that refuses r, each with the path that
// refuses. It runs the code the encoders run: Check under the
// registry's Limits for the model, then CheckEncode on each codec (so a
// codec without a CheckEncode method is validated by encoding r once,
// into a discarding writer when it streams). A valid response encodes in
// every codec of g, as long as g does not change in between.
//
// A service that serves several formats validates a response once, before
// choosing the format, so that a response one format cannot carry (a type
// name with a space for goon, a NaN for json) is found whatever the
// client asked for. A nil r is invalid.
func Validate(g *wire.Registry, r *wire.GraphResponse) error {
	var e ValidationError
	if r == nil {
		e.Model = &wire.EncodeError{Msg: "nil response"}
		return &e
	}
	if _, err := Measure(g.Limits(), "", r); err != nil {
		e.Model = err.(*wire.EncodeError)
	}
	for _, info := range g.List() {
		c, err := g.Lookup(info.Name)
		if err != nil {
			continue // removed since List: a registry only grows, not reached
		}
		if err := CheckEncode(c, r); err != nil {
			e.Codecs = append(e.Codecs, err.(*wire.EncodeError))
		}
	}
	if e.Model == nil && len(e.Codecs) == 0 {
		return nil
	}
	return &e
}
