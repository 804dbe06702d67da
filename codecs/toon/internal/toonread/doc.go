// Package toonread is the TOON reader shared by the generic library
// (toonvalue.Unmarshal, with no Limits) and the GraphResponse codec
// (codecs/toon's Decode, which passes wire.Limits as Limits): Decode reads
// one document into a jsonvalue.Value. Its lines are read by
// textwire.Lines under TOON's rules (the decoder's rules: indent unit,
// strict indentation, blank runs for the strict array checks, '#'
// comments, a byte order mark); unescaping and error excerpts are
// internal/textwire's too. The bounds it keeps on memory are documented
// in toonvalue's package doc.
package toonread
