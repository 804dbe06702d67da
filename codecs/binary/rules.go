package binary

// The bytes of the two formats that the writer, the reader and Sniff
// share: CBOR's major types and simple values, MessagePack's codes.

// The major types of CBOR (RFC 8949 §3.1) the layout uses, in the high
// three bits of an initial byte.
const (
	majorUint  = 0 << 5
	majorNeg   = 1 << 5
	majorText  = 3 << 5
	majorArray = cborArray << 5
	majorPrim  = 7 << 5
)

// The major types of an array and a map.
const (
	cborArray = 4
	cborMap   = 5
)

// The MessagePack codes the layout uses (the format's spec, "Formats").
const (
	mpNil     = 0xc0
	mpFalse   = 0xc2
	mpTrue    = 0xc3
	mpFloat32 = 0xca
	mpFloat64 = 0xcb
	mpUint8   = 0xcc
	mpUint64  = 0xcf
	mpInt8    = 0xd0
	mpInt64   = 0xd3
	mpStr8    = 0xd9
	mpStr32   = 0xdb
	mpArray16 = 0xdc
	mpArray32 = 0xdd
	mpFixMap  = 0x80 // a document's map (head.go), never the layout's
	mpMap16   = 0xde
	mpMap32   = 0xdf
)

// The simple values and float heads of CBOR's major type 7 (RFC 8949
// §3.3).
const (
	cborFalse     = 20
	cborTrue      = 21
	cborNull      = 22
	cborUndefined = 23
	cborSimple8   = 24
	cborFloat16   = 25
	cborFloat32   = 26
	cborFloat64   = 27
	cborIndef     = 31
)
