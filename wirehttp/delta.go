package wirehttp

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
)

// DeltaIM is the instance-manipulation name (RFC 3229) of graphwire's
// delta encoding: a client that sends it in A-IM may be answered 226 IM
// Used with a delta in the negotiated codec's delta syntax
// (delta.AppendDelta), against the base its If-None-Match names.
const DeltaIM = "graphwire-delta"

// MaxIMs is the most elements of A-IM (all its field lines read as one
// list) considered; the rest is ignored, as with Accept.
const MaxIMs = 64

// DeltaOptions configure RFC 3229 delta encoding (see the package doc,
// "Deltas").
type DeltaOptions struct {
	// Off turns delta encoding off: A-IM is ignored and no base kept.
	Off bool

	// MaxBases bounds how many bases the Server keeps. Zero means
	// DefaultDeltaBases (1,024).
	MaxBases int

	// MaxBytes bounds the bytes of the bases kept: each counts its body,
	// its tag and 160 bytes of bookkeeping. Zero means DefaultDeltaBytes
	// (64 MiB). A body larger than MaxBytes alone is never kept.
	MaxBytes int64

	// Threshold is the share of the full answer's cost under which a
	// delta is sent (delta.Worth): tokens (o200k) for a text codec,
	// bytes for a binary one. Zero means delta.DefaultThreshold (0.60).
	Threshold float64

	// MaxDeltas bounds how many computed answers the Server keeps, each
	// the delta (or the decision to send the full answer, or a 304) from
	// one base to one current answer in one codec. Zero means
	// DefaultMaxDeltas (1,024).
	MaxDeltas int

	// MaxDeltaBytes bounds the bytes of the computed answers kept: each
	// counts its delta, its two tags and 192 bytes of bookkeeping. Zero
	// means DefaultMaxDeltaBytes (16 MiB). A delta larger than
	// MaxDeltaBytes alone is sent but not kept.
	MaxDeltaBytes int64

	// MaxComputations bounds how many deltas the whole Server computes at
	// once. A request whose delta is neither kept nor being computed,
	// when that many are running, gets the full answer (200) at once
	// rather than wait. Zero means DefaultMaxComputations (2).
	MaxComputations int

	// Shared keeps the bases in a wirestore.Store too, which the
	// replicas of a service share. Default: in the process only.
	Shared SharedBases
}

// withDefaults returns o with its zero fields set, or an error for a
// field out of range.
func (o DeltaOptions) withDefaults() (DeltaOptions, error) {
	o.MaxBases = cmp.Or(o.MaxBases, DefaultDeltaBases)
	o.MaxBytes = cmp.Or(o.MaxBytes, DefaultDeltaBytes)
	o.Threshold = cmp.Or(o.Threshold, delta.DefaultThreshold)
	o.MaxDeltas = cmp.Or(o.MaxDeltas, DefaultMaxDeltas)
	o.MaxDeltaBytes = cmp.Or(o.MaxDeltaBytes, DefaultMaxDeltaBytes)
	o.MaxComputations = cmp.Or(o.MaxComputations, DefaultMaxComputations)
	switch {
	case o.MaxDeltas < 0:
		return o, fmt.Errorf("wirehttp: Options.Delta.MaxDeltas %d is negative", o.MaxDeltas)
	case o.MaxDeltaBytes < 0:
		return o, fmt.Errorf("wirehttp: Options.Delta.MaxDeltaBytes %d is negative", o.MaxDeltaBytes)
	case o.MaxComputations < 0:
		return o, fmt.Errorf("wirehttp: Options.Delta.MaxComputations %d is negative", o.MaxComputations)
	case o.MaxBases < 0:
		return o, fmt.Errorf("wirehttp: Options.Delta.MaxBases %d is negative", o.MaxBases)
	case o.MaxBytes < 0:
		return o, fmt.Errorf("wirehttp: Options.Delta.MaxBytes %d is negative", o.MaxBytes)
	case !(o.Threshold > 0 && o.Threshold <= 1):
		return o, fmt.Errorf("wirehttp: Options.Delta.Threshold %v is not in (0, 1]", o.Threshold)
	}
	var err error
	o.Shared, err = o.Shared.withDefaults()
	return o, err
}

// DeltaStats reports the bases the Server keeps: how many, and their
// cost in bytes as DeltaOptions.MaxBytes counts it.
func (s *Server) DeltaStats() (bases int, bytes int64) {
	if s.bases == nil {
		return 0, 0
	}
	return s.bases.stats()
}

// ComputedDeltaStats reports the computed answers the Server keeps (see
// DeltaOptions.MaxDeltas): how many, and their cost in bytes as
// DeltaOptions.MaxDeltaBytes counts it.
func (s *Server) ComputedDeltaStats() (deltas int, bytes int64) {
	if s.deltas == nil {
		return 0, 0
	}
	return s.deltas.done.stats()
}

// acceptsDelta reports whether the A-IM field values name DeltaIM with a
// q above zero (names compared without regard to case).
func acceptsDelta(values []string) bool {
	considered := 0
	for _, v := range values {
		for el := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(el, ";")
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if considered++; considered > MaxIMs {
				return false
			}
			if !strings.EqualFold(name, DeltaIM) {
				continue
			}
			return !zeroQ(params)
		}
	}
	return false
}

// zeroQ reports whether params (";"-separated) hold q=0 (0, 0.0, 0.00,
// 0.000).
func zeroQ(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err == nil && q == 0
		}
	}
	return false
}

// deltaCodec reports whether the Server may answer a request for o's
// codec with a delta: delta encoding on, a GET or HEAD that accepts
// DeltaIM, a codec that writes documents (delta.DocumentCodec), and a
// body that is not enveloped.
func (s *Server) deltaCodec(r *http.Request, o *offer) bool {
	if s.bases == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	if _, ok := o.codec.(delta.DocumentCodec); !ok || (s.opts.Envelope && !o.info.Binary) {
		return false
	}
	return acceptsDelta(r.Header.Values("A-IM"))
}

// answerDelta answers r, whose answer in offer i is body with tag etag,
// with 226 (a delta) or 304 (the base the client holds is current) when
// it can, and reports whether it did; otherwise the caller sends the
// full answer (or the 304 of a matching tag). In a conversation (cv not
// nil) the delta is written in its session (sessionDelta). Before that, it keeps body
// as a base under etag: the client that asked for deltas holds it next.
//
// The answer from a base to the current answer is computed once and
// kept (s.deltas); a request for one that is neither kept nor being
// computed, when all computations are taken, gets the full answer.
// Every failure of the delta path (the budget cannot hold the decodes, a
// codec that cannot read its own output, a cost it cannot count) falls
// back to the full answer; the server's faults among them are logged.
func (s *Server) answerDelta(w http.ResponseWriter, r *http.Request, i int, body []byte, etag string, cv *conversation) bool {
	o := &s.offers[i]
	if !s.deltaCodec(r, o) {
		return false
	}
	current := etag[1 : len(etag)-1]
	s.keepBase(r, current, i, body)
	inm := r.Header.Values("If-None-Match")
	if len(inm) == 0 {
		return false
	}
	if _, ok := matchIfNoneMatch(inm, etag, s.compress != nil); ok {
		return false // the caller's 304
	}
	baseTag, key, ok := s.deltaBase(r, inm, i, current)
	if !ok {
		return false
	}
	ans, ok := s.deltas.answer(r.Context(), key, func() (deltaAnswer, bool) {
		return s.computeDelta(r, o, key, body)
	})
	if !ok {
		return false
	}
	h := w.Header()
	switch ans.choice {
	case delta.SendUnchanged:
		h.Set("ETag", `"`+baseTag+`"`)
		w.WriteHeader(http.StatusNotModified)
		return true
	case delta.SendDelta:
		patch := ans.patch
		if cv != nil {
			if patch, ok = s.sessionDelta(r, o, patch, cv); !ok {
				return false
			}
		}
		h.Set("Content-Type", contentType(o.info))
		h.Set("ETag", etag)
		h.Set("IM", DeltaIM)
		h.Set("Delta-Base", `"`+baseTag+`"`)
		h.Set("Cache-Control", "no-store, im")
		h.Set("Content-Length", strconv.Itoa(len(patch)))
		w.WriteHeader(http.StatusIMUsed)
		if r.Method != http.MethodHead {
			w.Write(patch) //nolint:errcheck // the client went away
		}
		return true
	}
	return false
}

// deltaBase finds, among the tags of If-None-Match in order, the first
// the Server can answer from in offer i: one whose answer to current is
// kept, or a base kept in that codec (findBase). It returns the tag as
// the client sent it and the key of the answer.
func (s *Server) deltaBase(r *http.Request, inm []string, i int, current string) (string, deltaKey, bool) {
	asked := false
	for tag, star := range ifNoneMatchTags(inm) {
		if star {
			continue
		}
		key := tag
		if s.compress != nil {
			for _, suf := range codingSuffixes {
				if k, ok := strings.CutSuffix(tag, suf); ok {
					key = k
					break
				}
			}
		}
		if key == current {
			continue
		}
		dk := deltaKey{offer: i, base: key, current: current}
		if _, ok := s.deltas.cached(dk); ok {
			return tag, dk, true
		}
		if s.findBase(r, key, i, &asked) {
			return tag, dk, true
		}
	}
	return "", deltaKey{}, false
}

// computeDelta computes the answer of key, whose current answer is body,
// within the in-flight bound: two decodes, 2 x DecodeOverhead +
// DecodeFactor x both bodies, and the delta written. It reports false
// when the bound cannot hold it, the base is no longer kept, or the
// codec fails (logged).
func (s *Server) computeDelta(r *http.Request, o *offer, key deltaKey, body []byte) (deltaAnswer, bool) {
	baseBody, bi, ok := s.bases.get(key.base)
	if !ok || bi != key.offer {
		return deltaAnswer{}, false
	}
	c := s.budget.newCharge()
	defer c.release()
	if !c.grow(2*DecodeOverhead + DecodeFactor*int64(len(baseBody)+len(body))) {
		return deltaAnswer{}, false
	}
	choice, patch, err := s.chooseDelta(o, key, baseBody, body)
	if err != nil {
		s.opts.ErrorLog.Printf("wirehttp: %s %s: delta in %s, sending the full answer: %v", r.Method, clip(r.URL.Path), o.info.Name, err)
		return deltaAnswer{}, false
	}
	if !c.grow(int64(len(patch))) {
		return deltaAnswer{}, false
	}
	return deltaAnswer{choice: choice, patch: patch}, true
}

// chooseDelta decodes the base the client holds and the current answer,
// as the client reads them (so that a codec that is not lossless gives
// the client exactly what decoding the full answer would), and decides
// with delta.Choose, pricing the delta and the full answer in tokens for
// a text codec and in bytes for a binary one. The full answer's price is
// kept by key's offer and current tag: every client that holds another
// base asks for the same current answer. With SendDelta it returns the
// delta written in the codec's delta syntax.
func (s *Server) chooseDelta(o *offer, key deltaKey, baseBody, body []byte) (delta.Choice, []byte, error) {
	base, err := o.codec.Decode(baseBody)
	if err != nil {
		return delta.SendFull, nil, fmt.Errorf("decoding the base: %w", err)
	}
	next, err := o.codec.Decode(body)
	if err != nil {
		return delta.SendFull, nil, fmt.Errorf("decoding the current answer: %w", err)
	}
	cost := func(b []byte) (int, error) { return len(b), nil }
	if !o.info.Binary {
		counter, err := tokens.Get(tokens.O200k)
		if err != nil {
			return delta.SendFull, nil, err
		}
		cost = counter.Count
	}
	var patch []byte
	choice, _, err := delta.Choose(base, next, s.opts.Delta.Threshold,
		func(d *delta.Delta) (int, error) {
			var err error
			if patch, err = delta.AppendDelta(o.codec, nil, d); err != nil {
				return 0, err
			}
			return cost(patch)
		},
		func(*wire.GraphResponse) (int, error) {
			return s.deltas.fullCost(key, func() (int, error) { return cost(body) })
		})
	if err != nil {
		return delta.SendFull, nil, err
	}
	if choice == delta.SendDelta && patch == nil {
		return delta.SendFull, nil, errors.New("the delta was not written")
	}
	return choice, patch, nil
}
