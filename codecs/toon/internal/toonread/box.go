package toonread

import (
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// Boxing: a string or a Number in a jsonvalue.Value costs an allocation
// each; the decoder keeps them in slabs (minSlab slots, doubling up to
// boxSlab) and builds the interface by hand to point to a slot. Sound:
// the type pointer is a real interface's, a slot is written once before
// its interface is made, and the slab has the slot type's layout.
const (
	minSlab = 16
	boxSlab = 256
)

// nextSlab returns and records in *n the size of the slab after *n.
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

// boxStr returns s as a jsonvalue.Value.
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

// boxNum returns n as a jsonvalue.Value.
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
