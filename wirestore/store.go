package wirestore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Store holds opaque values by key, each with a time to live. It is safe
// for concurrent use. Memory and Redis are the two built in; Open chooses
// one by a URL.
type Store interface {
	// Get returns the value kept under key: ErrNotFound when there is
	// none or it expired. The caller may keep and change it.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set keeps a copy of value under key for ttl (a ttl of zero or less
	// is an error): a value past the store's bound is an error matching
	// ErrTooLarge, and is not kept.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Delete forgets the value under key; one not kept is no error.
	Delete(ctx context.Context, key string) error
}

// ErrNotFound is matched (errors.Is) by the error of Store.Get for a key
// that holds no value: never set, expired, evicted or deleted.
var ErrNotFound = errors.New("wirestore: no value under the key")

// ErrTooLarge is matched (errors.Is) by the error of Store.Set for a value
// past the store's bound.
var ErrTooLarge = errors.New("wirestore: the value is past the store's bound")

// Key is the store key of id among the values of one kind of one service:
// namespace, kind and the lowercase hex SHA-256 of id, joined by ":". A
// client's id never becomes a key or part of one as it was sent: keys are
// the server's own prefix and a fixed-length hash. Namespace and kind must
// not contain ":" so that no two services' keys meet.
func Key(namespace, kind, id string) string {
	sum := sha256.Sum256([]byte(id))
	var b strings.Builder
	b.Grow(len(namespace) + len(kind) + 2 + 2*len(sum))
	b.WriteString(namespace)
	b.WriteByte(':')
	b.WriteString(kind)
	b.WriteByte(':')
	b.WriteString(hex.EncodeToString(sum[:]))
	return b.String()
}

// CheckNamespace returns an error unless ns can be the namespace of Key:
// 1 to MaxNameBytes bytes without ":" or spaces.
func CheckNamespace(ns string) error { return checkName("namespace", ns) }

// checkName checks a namespace or kind: what Key puts before the hash.
func checkName(what, s string) error {
	if s == "" || len(s) > MaxNameBytes || strings.ContainsAny(s, ": \t\r\n") {
		return errors.New("wirestore: the " + what + " " + strconv.Quote(short(s)) +
			" must be 1 to " + strconv.Itoa(MaxNameBytes) + " bytes without \":\" or spaces")
	}
	return nil
}

// MaxNameBytes is the longest namespace or kind.
const MaxNameBytes = 64

// short is s cut to an excerpt for an error message.
func short(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// StoreError is the error of a store call that failed for another reason
// than the key holding no value: the store unreachable, slow past its
// timeout, or refusing. Op is "get", "set" or "delete".
type StoreError struct {
	Op    string
	Store string // "memory" or "redis"
	Err   error
}

func (e *StoreError) Error() string {
	return "wirestore: " + e.Store + " " + e.Op + ": " + e.Err.Error()
}

func (e *StoreError) Unwrap() error { return e.Err }

// checkTTL refuses a time to live that would keep a value for ever or not
// at all.
func checkTTL(ttl time.Duration) error {
	if ttl <= 0 {
		return errors.New("wirestore: a time to live of " + ttl.String() + ": it must be positive")
	}
	return nil
}
