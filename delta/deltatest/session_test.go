package deltatest_test

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/graphwire/graphwire/delta/deltatest"
	"github.com/graphwire/graphwire/wire"
)

// refLines is a session syntax for RunSession's own test: canonical JSON
// of the response with every reference's properties left out, after a
// first line "refs 0,3" when there are references.
type refLines struct{}

func (refLines) AppendReferenced(dst []byte, r *wire.GraphResponse, refs []int) ([]byte, error) {
	if len(refs) == 0 {
		return wire.AppendJSON(dst, r)
	}
	c := *r
	c.Nodes = append([]wire.Node(nil), r.Nodes...)
	dst = append(dst, "refs "...)
	for k, i := range refs {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(i), 10)
		c.Nodes[i].Properties = nil
	}
	return wire.AppendJSON(append(dst, '\n'), &c)
}

func (refLines) DecodeReferenced(data []byte) (*wire.GraphResponse, []int, error) {
	var refs []int
	if rest, ok := bytes.CutPrefix(data, []byte("refs ")); ok {
		line, body, ok := bytes.Cut(rest, []byte("\n"))
		if !ok {
			return nil, nil, fmt.Errorf("no response after the references")
		}
		for _, f := range bytes.Split(line, []byte(",")) {
			i, err := strconv.Atoi(string(f))
			if err != nil {
				return nil, nil, err
			}
			refs = append(refs, i)
		}
		data = body
	}
	r, err := wire.DecodeJSON(data, wire.Limits{})
	if err != nil {
		return nil, nil, err
	}
	for _, i := range refs {
		if i < 0 || i >= len(r.Nodes) {
			return nil, nil, fmt.Errorf("reference %d out of range", i)
		}
		r.Nodes[i].Properties = nil
	}
	return r, refs, nil
}

func (refLines) Info() wire.Info {
	return wire.Info{Name: "reflines", MediaType: "text/x-reflines", Description: "canonical JSON after a line of references"}
}

func (refLines) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	return wire.AppendJSON(dst, r)
}

func (refLines) Decode(data []byte) (*wire.GraphResponse, error) {
	return wire.DecodeJSON(data, wire.Limits{})
}

func TestRunSession(t *testing.T) {
	deltatest.RunSession(t, deltatest.SessionSuite{
		Codec:  refLines{},
		Encode: func(r *wire.GraphResponse) ([]byte, error) { return wire.AppendJSON(nil, r) },
	})
}
