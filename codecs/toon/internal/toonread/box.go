package toonread

import (
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// Boxing. A string or a jsonvalue.Number stored in a jsonvalue.Value (an
// interface) normally costs an allocation each: the interface points to a
// heap copy of the string header or the number. The decoder instead keeps
// them in slabs of boxSlab and makes the interface point to a slab slot,
// so that a decode allocates per boxSlab values, not per value.
//
// This builds the interface by hand (eface, the layout of an empty
// interface: a type pointer and a data pointer, the one the Go runtime
// has always used and that reflect and unsafe-using libraries rely on).
// It is sound because:
//   - the type pointer is taken from a real interface holding a value of
//     the same type (stringType, numberType), so the interface is well
//     formed;
//   - a slot is written once, before its interface is made, and never
//     again (the slab only moves forward; a full slab is left as it is
//     for a new one), so the value behind the interface never changes, as
//     the language guarantees for a boxed value;
//   - the slab's elements have the slot type's pointer layout, so the
//     garbage collector keeps the slab, and the string bytes it points
//     to, alive while any interface points into it.
//
// Slabs start at minSlab slots and double, up to boxSlab, so that a small
// document allocates little.
const (
	minSlab = 16
	boxSlab = 256
)

// nextSlab returns the size of the next slab after one of *n slots, and
// records it in *n.
func nextSlab(n *int) int {
	*n = min(max(2**n, minSlab), boxSlab)
	return *n
}

type eface struct {
	typ, data unsafe.Pointer
}

func typeOf(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

var (
	stringType = typeOf("")
	numberType = typeOf(jsonvalue.Number{})
)

func makeValue(typ, data unsafe.Pointer) jsonvalue.Value {
	e := eface{typ: typ, data: data}
	return *(*jsonvalue.Value)(unsafe.Pointer(&e))
}

// boxStr returns s as a jsonvalue.Value: a shared one for a one-byte
// string, otherwise held in the decoder's string slab.
func (d *decoder) boxStr(s string) jsonvalue.Value {
	if len(s) == 1 && s[0] < 0x80 {
		return oneByteStrings[s[0]]
	}
	if len(d.strs) == 0 {
		d.strs = make([]string, nextSlab(&d.slabs[slabStrs]))
	}
	p := &d.strs[0]
	*p = s
	d.strs = d.strs[1:]
	return makeValue(stringType, unsafe.Pointer(p))
}

// boxNum returns n as a jsonvalue.Value held in the decoder's number slab.
func (d *decoder) boxNum(n jsonvalue.Number) jsonvalue.Value {
	if len(d.nums) == 0 {
		d.nums = make([]jsonvalue.Number, nextSlab(&d.slabs[slabNums]))
	}
	p := &d.nums[0]
	*p = n
	d.nums = d.nums[1:]
	return makeValue(numberType, unsafe.Pointer(p))
}

// The slabs whose last size the decoder records (decoder.slabs).
const (
	slabStrs = iota
	slabNums
	slabObjs
	slabMems
	slabKinds
)
