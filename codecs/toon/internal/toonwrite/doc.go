// Package toonwrite is the TOON writer shared by the generic library
// (toonvalue) and the GraphResponse codec (codecs/toon): a Writer writes
// a generic value at once (Root, Field), or a document line by line.
package toonwrite
