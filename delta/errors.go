package delta

import "errors"

// ErrWrongBase is matched (errors.Is) by the *PatchError of a Delta applied
// to a response other than its base.
var ErrWrongBase = errors.New("the delta is for another base")

// ErrCorrupt is matched (errors.Is) by the *PatchError of a Delta that
// contradicts itself or its base (an operation on a node the base does not
// have, two elements at one position), or whose result does not have the
// fingerprint the Delta names: a Delta altered or damaged since Diff made
// it.
var ErrCorrupt = errors.New("the delta is corrupt")

// PatchError is the error of Patch: where in the Delta (Op, such as
// "nodes.removed[2]", "base" or "result"), what is wrong, and the class,
// ErrWrongBase or ErrCorrupt, which errors.Is matches.
//
// Error() is one line: "delta: nodes.removed[2]: no node File 12 in the
// base".
type PatchError struct {
	Op  string
	Msg string
	Err error
}

func (e *PatchError) Error() string { return "delta: " + e.Op + ": " + e.Msg }

// Unwrap returns ErrWrongBase or ErrCorrupt.
func (e *PatchError) Unwrap() error { return e.Err }

func corrupt(op, msg string) error { return &PatchError{Op: op, Msg: msg, Err: ErrCorrupt} }
