package toon

import (
	"math"
	"strconv"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/internal/toonwrite"
	"github.com/graphwire/graphwire/internal/keyset"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// propertyValue converts a property or cell value. When the layout cannot
// carry it, it returns a message saying why.
func propertyValue(v wire.Value) (jsonvalue.Value, string) {
	switch v.Kind() {
	case wire.KindNull:
		return nil, ""
	case wire.KindBool:
		return v.Bool(), ""
	case wire.KindInt:
		return jsonvalue.Int(v.Int()), ""
	case wire.KindFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, "unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)
		}
		return jsonvalue.Float(f), ""
	case wire.KindString:
		return v.Text(), ""
	case wire.KindList:
		list := v.List()
		vs := make([]jsonvalue.Value, len(list))
		for i, e := range list {
			x, msg := propertyValue(e)
			if msg != "" {
				return nil, msg
			}
			vs[i] = x
		}
		return vs, ""
	}
	return nil, "unknown value kind " + v.Kind().String()
}

// rowsValue builds a rows section of a shape tableRows and listRows do
// not write as a generic value, which the generic writer
// (toonwrite.Writer.Field) writes in its table or list form as it does
// any value.
func rowsValue(rows []wire.Row) (jsonvalue.Value, error) {
	objs := make([]*jsonvalue.Object, len(rows))
	for i, row := range rows {
		if j := keyset.FirstRepeat(len(row), func(j int) string { return row[j].Name }); j >= 0 {
			return nil, &wire.EncodeError{Codec: Name, Path: wirecodec.RowPath(i).Key(j, row[j].Name).String(), Msg: "duplicate cell " + strconv.Quote(row[j].Name)}
		}
		o := jsonvalue.NewObject(len(row))
		for j := range row {
			c := &row[j]
			path := wirecodec.RowPath(i).Key(j, c.Name)
			if c.Node != nil {
				n := c.Node
				if k, msg := badKeys(n.Properties); msg != "" {
					return nil, &wire.EncodeError{Codec: Name, Path: path.Property(k, n.Properties[k].Key).String(), Msg: msg + " " + strconv.Quote(n.Properties[k].Key)}
				}
				ref := jsonvalue.NewObject(2 + len(n.Properties))
				ref.Add("type", n.Type)
				ref.Add("id", jsonvalue.Int(n.ID))
				for k, p := range n.Properties {
					v, msg := propertyValue(p.Value)
					if msg != "" {
						return nil, valueError(path.Property(k, p.Key), p.Value, msg)
					}
					ref.Add(p.Key, v)
				}
				o.Add(c.Name, ref)
				continue
			}
			v, msg := propertyValue(c.Value)
			if msg != "" {
				return nil, valueError(path, c.Value, msg)
			}
			o.Add(c.Name, v)
		}
		objs[i] = o
	}
	out := make([]jsonvalue.Value, len(rows))
	if toonwrite.Tabular(objs) && !sameShape(objs) {
		// A TOON table would impose the first row's orders on the others:
		// write each row as a list of one-cell objects instead.
		for i, o := range objs {
			cells := make([]jsonvalue.Value, len(o.Members))
			for j, m := range o.Members {
				c := jsonvalue.NewObject(1)
				c.Add(m.Key, m.Value)
				cells[j] = c
			}
			out[i] = cells
		}
		return out, nil
	}
	for i, o := range objs {
		out[i] = o
	}
	return out, nil
}

// sameShape reports whether objs have the same keys in the same order,
// nested objects included.
func sameShape(objs []*jsonvalue.Object) bool {
	first := objs[0]
	for _, o := range objs[1:] {
		if len(o.Members) != len(first.Members) {
			return false
		}
		for j, m := range first.Members {
			if o.Members[j].Key != m.Key {
				return false
			}
			a, aok := m.Value.(*jsonvalue.Object)
			b, bok := o.Members[j].Value.(*jsonvalue.Object)
			if aok != bok || aok && !sameShape([]*jsonvalue.Object{a, b}) {
				return false
			}
		}
	}
	return true
}
