package binary

// The media types of the two codecs: each format's registered type
// (MessagePack's application/vnd.msgpack, CBOR's application/cbor, RFC
// 8949) with two parameters that tell a client what the items mean:
// layout=graphwire, graphwire's positional layout (see the package
// documentation), and version, the layout version that leads every
// encoding. A generic MessagePack or CBOR decoder reads the bytes as
// arrays of arrays; the parameters say how to read those.
const (
	MsgpackMediaType = "application/vnd.msgpack; layout=graphwire; version=" + layoutVersionText
	CBORMediaType    = "application/cbor; layout=graphwire; version=" + layoutVersionText
)

// layoutVersionText is layoutVersion in decimal, for the media types (a
// test holds the two together).
const layoutVersionText = "2"
