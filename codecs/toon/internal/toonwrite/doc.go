// Package toonwrite is the TOON writer shared by the generic library
// (toonvalue.Marshal, AppendMarshal, Encoder) and the GraphResponse codec
// (codecs/toon, whose AppendEncode and EncodeTo write the layout through
// one Writer). A Writer writes a generic value at once (Root, Field), or a
// document line by line (Line, ListItem, Header, AppendKey, Primitive,
// AppendString) where the codec writes straight from a response; text is
// appended to Writer.Buf and, with an io.Writer, written out every
// FlushSize bytes at line boundaries. Quoting is internal/textwire's TOON
// rule; numbers are jsonvalue.Number's.
package toonwrite
