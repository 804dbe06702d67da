package gcf

import (
	"math"
	"unicode/utf8"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// encErr is an *wire.EncodeError at path, in the terms of the response.
func encErr(path wirecodec.Path, msg string) *wire.EncodeError {
	return &wire.EncodeError{Codec: Name, Path: path.String(), Msg: msg}
}

// shapeError is a well-formed GCF document that does not hold a response
// in the codec's layout: the place, in the layout's terms, and what is
// wrong.
func shapeError(path, msg string) *wire.DecodeError {
	return &wire.DecodeError{Codec: Name, Msg: path + ": " + msg}
}

// refusal names the first thing in r, a response wirecodec.Measure
// accepted (its query type, group kinds, pagination and the lengths of
// its strings within their rules), that the layout cannot carry: a NaN or
// infinite float, a string or name that is not UTF-8. The writer stops at
// the first of them; refusal walks the response again only then, to name
// it.
func (c *Codec) refusal(r *wire.GraphResponse) *wire.EncodeError {
	text := func(p wirecodec.Path, s string) *wire.EncodeError {
		if !utf8.ValidString(s) {
			return encErr(p, "a string that is not valid UTF-8")
		}
		return nil
	}
	if err := text(wirecodec.Path{}.Field("format_version"), r.FormatVersion); err != nil {
		return err
	}
	for i := range r.Nodes {
		if err := c.nodeRefusal(&r.Nodes[i], wirecodec.NodePath(i), text); err != nil {
			return err
		}
	}
	for i, e := range r.Edges {
		p := wirecodec.EdgePath(i)
		for _, f := range [...]struct{ name, v string }{{"from", e.From}, {"to", e.To}, {"type", e.Type}} {
			if err := text(p.Field(f.name), f.v); err != nil {
				return err
			}
		}
	}
	for i, col := range r.Columns {
		p := wirecodec.ColumnPath(i)
		for _, f := range [...]struct{ name, v string }{{"name", col.Name}, {"function", col.Function}, {"target", col.Target.V}, {"property", col.Property.V}} {
			if err := text(p.Field(f.name), f.v); err != nil {
				return err
			}
		}
	}
	for i, g := range r.GroupColumns {
		p := wirecodec.GroupColumnPath(i)
		for _, f := range [...]struct{ name, v string }{{"name", g.Name}, {"node", g.Node}, {"property", g.Property.V}, {"entity", g.Entity.V}} {
			if err := text(p.Field(f.name), f.v); err != nil {
				return err
			}
		}
	}
	for i, row := range r.Rows {
		for j, cell := range row {
			p := wirecodec.RowPath(i).Key(j, cell.Name)
			if err := text(p, cell.Name); err != nil {
				return err
			}
			var err *wire.EncodeError
			if cell.Node != nil {
				err = c.nodeRefusal(cell.Node, p, text)
			} else {
				err = valueRefusal(cell.Value, p, text)
			}
			if err != nil {
				return err
			}
		}
	}
	if pg := r.Pagination; pg != nil {
		return text(wirecodec.Path{}.Field("pagination").Field("next_cursor"), pg.NextCursor.V)
	}
	return nil
}

// nodeRefusal is refusal for a node at path.
func (c *Codec) nodeRefusal(n *wire.Node, path wirecodec.Path, text func(wirecodec.Path, string) *wire.EncodeError) *wire.EncodeError {
	if err := text(path.Field("type"), n.Type); err != nil {
		return err
	}
	for j, p := range n.Properties {
		at := path.Property(j, p.Key)
		if err := text(at, p.Key); err != nil {
			return err
		}
		if err := valueRefusal(p.Value, at, text); err != nil {
			return err
		}
	}
	return nil
}

// valueRefusal is refusal for a property or cell value at path.
func valueRefusal(v wire.Value, path wirecodec.Path, text func(wirecodec.Path, string) *wire.EncodeError) *wire.EncodeError {
	switch v.Kind() {
	case wire.KindFloat:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return encErr(path, "NaN and infinite floats have no GCF form")
		}
	case wire.KindString:
		return text(path, v.Text())
	case wire.KindList:
		for i, e := range v.List() {
			if err := valueRefusal(e, path.Index(i), text); err != nil {
				return err
			}
		}
	}
	return nil
}
