// Package toonread is the TOON reader shared by the generic library
// (toonvalue.Unmarshal, with no Limits) and the GraphResponse codec
// (codecs/toon's Decode, which passes wire.Limits as Limits): Decode reads
// one document into a jsonvalue.Value. Unescaping and error excerpts are
// internal/textwire's. The bounds it keeps on memory are documented in
// toonvalue's package doc.
package toonread
