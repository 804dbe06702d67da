package wire

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Checker is implemented by a codec that can say whether it would encode a
// response without encoding it. CheckEncode returns exactly the error
// AppendEncode would return for r (nil when it would succeed), from the
// same code: a codec implements it with the checks its encoder runs, never
// with a second copy of them. Validate and CheckEncode find it by type
// assertion.
type Checker interface {
	CheckEncode(r *GraphResponse) error
}

// CheckEncode reports whether c would encode r: nil, or the *EncodeError
// c's encoder returns. It asks c's CheckEncode when c is a Checker; else,
// when c is a StreamEncoder, it encodes r into a writer that discards what
// it is given (a StreamEncoder checks the whole response before writing,
// so this costs one encoding's time but not its memory); else it calls
// AppendEncode and drops the output. An error that is not an
// *EncodeError, and a panic in the codec, come back wrapped in an
// *EncodeError naming the codec.
func CheckEncode(c Codec, r *GraphResponse) (err error) {
	name := c.Info().Name
	defer func() {
		if p := recover(); p != nil {
			err = &EncodeError{Codec: name, Msg: fmt.Sprintf("encoder panicked: %v", p)}
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
	if ee, ok := err.(*EncodeError); ok {
		return ee
	}
	return &EncodeError{Codec: name, Msg: "cannot encode", Err: err}
}

// ValidationError is Validate's error: the response breaks the model's
// rules, or at least one codec of the registry refuses it. errors.As finds
// the first *EncodeError in it (the model's, or the first codec's by
// name), and errors.Is(err, ErrLimit) holds when any of them is a limit's.
type ValidationError struct {
	// Model is the error of the model's own rules and the registry's
	// Limits (Limits.Check), or nil when the response keeps them. Its
	// Codec is "": it is no codec's.
	Model *EncodeError
	// Codecs holds one error for each codec that refuses the response,
	// sorted by codec name; its Codec field names the codec.
	Codecs []*EncodeError
}

// For returns the error of the codec named name (its canonical name, as
// Info().Name gives it, in lower case), or nil when that codec accepts
// the response or is not in the registry.
func (e *ValidationError) For(name string) *EncodeError {
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
// refuses. It runs the code the encoders run: Limits.Check under the
// registry's Limits for the model, then CheckEncode on each codec (so a
// codec without a CheckEncode method is validated by encoding r once,
// into a discarding writer when it streams). A valid response encodes in
// every codec of g, as long as g does not change in between.
//
// A service that serves several formats validates a response once, before
// choosing the format, so that a response one format cannot carry (a type
// name with a space for goon, a NaN for json) is found whatever the
// client asked for. A nil r is invalid.
func (g *Registry) Validate(r *GraphResponse) error {
	var e ValidationError
	if r == nil {
		e.Model = &EncodeError{Msg: "nil response"}
		return &e
	}
	if _, err := g.Limits().Measure("", r); err != nil {
		e.Model = err.(*EncodeError)
	}
	t := g.current()
	for _, c := range t.byName {
		if err := CheckEncode(c, r); err != nil {
			e.Codecs = append(e.Codecs, err.(*EncodeError))
		}
	}
	if e.Model == nil && len(e.Codecs) == 0 {
		return nil
	}
	return &e
}

// Validate reports whether r is valid for the model and for every codec of
// the default registry; see Registry.Validate.
func Validate(r *GraphResponse) error { return defaultRegistry.Validate(r) }
