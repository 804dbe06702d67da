package wirehttp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/graphwire/graphwire/wire"
)

// EnvelopeMediaType is the Content-Type of an enveloped response, as GKG
// sends it.
const EnvelopeMediaType = "application/json"

// envelope is GKG's query response envelope, field for field and in the
// same order as the one GitLab Workhorse writes for a GKG query (its
// queryResponse): result, query_type, raw_query_strings when there are
// any, row_count (a 32-bit integer).
type envelope struct {
	Result          json.RawMessage `json:"result,omitempty"`
	QueryType       string          `json:"query_type"`
	RawQueryStrings []string        `json:"raw_query_strings,omitempty"`
	RowCount        int32           `json:"row_count"`
}

// appendEnvelope appends GKG's envelope around a codec's output to dst.
// As Workhorse does, an output that is valid JSON is embedded as it is
// (json: the result object), any other text as a JSON string (goon,
// toon), and the whole is written by encoding/json's Encoder: compact,
// HTML characters escaped (\u003c, \u003e, \u0026), one trailing newline.
// The bytes are therefore those GKG sends for the same result text.
func appendEnvelope(dst, inner []byte, queryType string, rowCount int) ([]byte, error) {
	env := envelope{QueryType: queryType, RowCount: int32(min(max(rowCount, 0), math.MaxInt32))}
	if json.Valid(inner) {
		env.Result = inner
	} else {
		s, err := json.Marshal(string(inner))
		if err != nil {
			return dst, fmt.Errorf("envelope: %w", err)
		}
		env.Result = s
	}
	buf := bytes.NewBuffer(dst)
	if err := json.NewEncoder(buf).Encode(env); err != nil {
		return dst, fmt.Errorf("envelope: %w", err)
	}
	return buf.Bytes(), nil
}

// RowCount is the envelope's default row_count: the number of result
// rows GKG's query would have returned for the response, by query type:
// aggregation, its rows; search, its nodes; path_finding, its distinct
// paths (edges without a path id count one path each); traversal and
// neighbors, their edges (one joined row per relationship), or their
// nodes when there are no edges.
func RowCount(r *wire.GraphResponse) int {
	switch r.QueryType {
	case wire.Aggregation:
		return len(r.Rows)
	case wire.Search:
		return len(r.Nodes)
	case wire.PathFinding:
		seen := make(map[int64]bool)
		n := 0
		for _, e := range r.Edges {
			if !e.PathID.Valid {
				n++
				continue
			}
			if !seen[e.PathID.V] {
				seen[e.PathID.V] = true
				n++
			}
		}
		return n
	default:
		if len(r.Edges) > 0 {
			return len(r.Edges)
		}
		return len(r.Nodes)
	}
}
