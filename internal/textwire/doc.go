// Package textwire is the text toolkit every text codec of graphwire
// shares: quoting and escaping (one loop, a rule table per format),
// unescaping, the JSON string scanner (codecs/jsonvalue.Scanner reads
// JSON with it), number formatting and parsing, the line scanner of line-oriented and indented
// text (Lines, under a format's LineRules: indent unit, tabs, blank lines,
// comments, bounds), and the bounded excerpts that error messages quote.
//
// A format's rules are values (JSON, TOON, GOON below), so a reader who
// wants to know how GOON escapes a quoted value looks at one table, and a
// faster loop, when one is written, speeds up every format at once.
//
// Nothing here knows the data model: the package works on strings and
// bytes, so both package wire (canonical JSON) and the codecs use it.
package textwire
