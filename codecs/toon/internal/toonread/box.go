package toonread

import (
	"unsafe"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// Boxing. A string or a jsonvalue.Number stored in a jsonvalue.Value (an
// interface) normally costs an allocation each. The decoder instead keeps
// them in slabs (of minSlab slots, doubling up to boxSlab) and builds the
// interface by hand (eface: the runtime's type and data pointers) to
// point to a slab slot. It is sound because the type pointer comes from a
// real interface of the same type; a slot is written once, before its
// interface is made, and never again; and the slab has the slot type's
// pointer layout, so the collector keeps it and the bytes it points to
// alive while any interface points into it.
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
