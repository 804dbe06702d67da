package delta

import "errors"

// ErrWrongBase is matched (errors.Is) by the *PatchError of a Delta that
// does not fit the base it was applied to: a position outside the base or
// the result, or a Check that does not hold for the base and the response
// built. It is a delta for another base, or one altered since Diff made
// it (the check binds both, so the two are not told apart).
var ErrWrongBase = errors.New("the delta is for another base")

// ErrCorrupt is matched (errors.Is) by the *PatchError of a Delta that
// contradicts itself, whatever the base: an element named twice, two
// elements at one position, content that does not match the operations.
var ErrCorrupt = errors.New("the delta is corrupt")

// PatchError is the error of Patch: where in the Delta (Op, such as
// "nodes.removed[2]", "content" or "check"), what is wrong, and the class,
// ErrWrongBase or ErrCorrupt, which errors.Is matches.
//
// Error() is one line: "delta: nodes.removed[2]: position 12 is outside
// the base's 10 nodes".
type PatchError struct {
	Op  string
	Msg string
	Err error
}

func (e *PatchError) Error() string { return "delta: " + e.Op + ": " + e.Msg }

// Unwrap returns ErrWrongBase or ErrCorrupt.
func (e *PatchError) Unwrap() error { return e.Err }

func corrupt(op, msg string) error { return &PatchError{Op: op, Msg: msg, Err: ErrCorrupt} }
