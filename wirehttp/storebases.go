package wirehttp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/graphwire/graphwire/wirestore"
)

// SharedBases share the bases of deltas between the replicas of a service
// through a wirestore.Store (see the package doc, "Deltas"), so that a
// replica answers with a delta against a base another replica served. A
// zero field selects its default; a negative one is an error of New.
//
// Each replica keeps its bases in its own cache as without a store
// (DeltaOptions.MaxBases, MaxBytes), and writes each base it keeps to the
// store too, before it answers: under wirestore.Key(Namespace, BaseKind,
// tag), so the key is the service's prefix and a hash, never the client's
// tag, and the value is the codec's name and the body, for TTL. A replica
// that does not keep a base a request names asks the store for it — once
// per request, for the first such tag of If-None-Match — and keeps what it
// finds, if it is in the codec negotiated now. A base is shared only if
// the replica's cache can hold it, and the store refuses one past its own
// value bound (wirestore.DefaultMaxValueBytes, 4 MiB, for Memory and
// Redis): such a base serves its replica only. The store holds at most a
// base per answer served with A-IM within TTL; bound it with the store's
// own limits (for Redis, maxmemory with volatile-lru).
//
// The store is an optimisation: each call takes at most Timeout, and a
// store that fails or is slow is logged to ErrorLog, the request answered
// as if the base were not kept (the full answer, 200) or the base kept
// in the process only. So a request costs at most two calls, 2 x
// Timeout, when the store hangs, and nothing more when it is down. When
// it answers again, bases are shared again: a replica writes again every
// base it wrote before a failure.
type SharedBases struct {
	// Store keeps the bases every replica reads; nil keeps them in the
	// process only (the cache DeltaOptions.MaxBases and MaxBytes bound).
	Store wirestore.Store

	// Namespace is the first part of every key (wirestore.Key), naming
	// the service. Default wirestore.DefaultNamespace.
	Namespace string

	// TTL is how long a base is kept in Store after it was last written:
	// a replica writes a base again when it serves it and wrote it more
	// than TTL/2 ago, or before a call to Store failed (a store that
	// restarted may have lost it). Default DefaultBaseTTL.
	TTL time.Duration

	// Timeout bounds each call to Store. Default wirestore.DefaultTimeout.
	Timeout time.Duration
}

// DefaultBaseTTL is SharedBases.TTL's default.
const DefaultBaseTTL = 30 * time.Minute

// BaseKind is the kind (wirestore.Key) of a base in a shared store.
const BaseKind = "base"

// withDefaults returns b with its zero fields set, or an error for a
// field out of range.
func (b SharedBases) withDefaults() (SharedBases, error) {
	if b.TTL < 0 || b.Timeout < 0 {
		return b, fmt.Errorf("wirehttp: Options.Delta.Shared: TTL %v, Timeout %v: a negative duration", b.TTL, b.Timeout)
	}
	b.Namespace = cmp.Or(b.Namespace, wirestore.DefaultNamespace)
	if err := wirestore.CheckNamespace(b.Namespace); err != nil {
		return b, fmt.Errorf("wirehttp: Options.Delta.Shared: %w", err)
	}
	b.TTL = cmp.Or(b.TTL, DefaultBaseTTL)
	b.Timeout = cmp.Or(b.Timeout, wirestore.DefaultTimeout)
	return b, nil
}

// A base in the shared store is the canonical name of its codec, a
// newline, and the body: a replica takes it as a base only in the codec
// it negotiated now, as its own bases.
func storedBase(name string, body []byte) []byte {
	v := make([]byte, 0, len(name)+1+len(body))
	v = append(v, name...)
	v = append(v, '\n')
	return append(v, body...)
}

// keepBase keeps body, the answer in offer i tagged tag (the opaque tag),
// as a base: in the process, and in the shared store unless this replica
// wrote it there less than TTL/2 ago and since the store last failed. A
// store that fails is reported to ErrorLog; the answer goes on.
func (s *Server) keepBase(r *http.Request, tag string, i int, body []byte) {
	b := s.bases.put(tag, i, body)
	sh := &s.opts.Delta.Shared
	if sh.Store == nil || b == nil {
		return // a base the process cannot keep is not shared either
	}
	now := time.Now()
	if last := b.stored.Load(); last > s.bases.failed.Load() && now.Sub(time.Unix(0, last)) < sh.TTL/2 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), sh.Timeout)
	defer cancel()
	err := sh.Store.Set(ctx, wirestore.Key(sh.Namespace, BaseKind, tag), storedBase(s.offers[i].info.Name, body), sh.TTL)
	switch {
	case err == nil:
		b.stored.Store(now.UnixNano())
	case !errors.Is(err, wirestore.ErrTooLarge):
		s.bases.failed.Store(time.Now().UnixNano())
		s.opts.ErrorLog.Printf("wirehttp: %s: keeping a base in the store: %v", requestLine(r), err)
	}
}

// findBase reports whether a base tagged tag is kept in offer i: in the
// process, or else, when *asked is false, in the shared store, which it
// then sets. A request asks the store once, for the first of its tags
// not kept in the process. A base found in the store is kept in the
// process (computeDelta reads it there); one in another codec, or that
// does not read as a base, is not a base. A store that fails is reported
// to ErrorLog: the request gets the full answer.
func (s *Server) findBase(r *http.Request, tag string, i int, asked *bool) bool {
	if _, bi, ok := s.bases.get(tag); ok {
		return bi == i
	}
	sh := &s.opts.Delta.Shared
	if sh.Store == nil || *asked {
		return false
	}
	*asked = true
	ctx, cancel := context.WithTimeout(r.Context(), sh.Timeout)
	defer cancel()
	v, err := sh.Store.Get(ctx, wirestore.Key(sh.Namespace, BaseKind, tag))
	if err != nil {
		if !errors.Is(err, wirestore.ErrNotFound) {
			s.bases.failed.Store(time.Now().UnixNano())
			s.opts.ErrorLog.Printf("wirehttp: %s: reading a base from the store: %v", requestLine(r), err)
		}
		return false
	}
	name, body, ok := bytes.Cut(v, []byte{'\n'})
	if !ok || !bytes.EqualFold(name, []byte(s.offers[i].info.Name)) {
		return false
	}
	b := s.bases.put(tag, i, body)
	if b == nil {
		return false
	}
	b.stored.Store(time.Now().UnixNano())
	return true
}
