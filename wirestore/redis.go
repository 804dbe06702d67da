package wirestore

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// RedisOptions configure a Redis store. A zero field selects its default;
// a negative one is an error of NewRedis.
type RedisOptions struct {
	// Addr is the server's host:port. Default "127.0.0.1:6379".
	Addr string
	// DB is the database number. Default 0.
	DB int
	// Username and Password authenticate, when the server asks.
	Username, Password string
	// TLS, when not nil, is the TLS configuration of the connections.
	TLS *tls.Config
	// Timeout bounds each call: connecting, waiting for a pooled
	// connection, writing and reading; a call never retries. Default
	// DefaultTimeout (100ms).
	Timeout time.Duration
	// MaxValueBytes is the longest value Set stores (ErrTooLarge past
	// it) and Get accepts. Default DefaultMaxValueBytes (4 MiB).
	MaxValueBytes int
	// PoolSize is the most connections kept open. Default 10 per CPU.
	PoolSize int
}

// DefaultRedisAddr is RedisOptions.Addr's default.
const DefaultRedisAddr = "127.0.0.1:6379"

// Redis is a Store on a server that speaks the Redis protocol (Redis,
// Valkey, KeyDB, …): Get is GET, Set is SET with PX (its time to live in
// milliseconds), Delete is DEL. Every call returns within the Timeout: a
// server slow, down or unreachable is a *StoreError, and the next call
// tries again (a new connection once the server is back). It is safe for
// concurrent use. Close it when done.
type Redis struct {
	c *redis.Client
	o RedisOptions
}

// NewRedis returns a Redis store of o. It does not connect: the first
// call does, so a service starts while its store is down.
func NewRedis(o RedisOptions) (*Redis, error) {
	if o.DB < 0 || o.Timeout < 0 || o.MaxValueBytes < 0 || o.PoolSize < 0 {
		return nil, fmt.Errorf("wirestore: RedisOptions of %s: a negative field", o.Addr)
	}
	o.Addr = cmp.Or(o.Addr, DefaultRedisAddr)
	o.Timeout = cmp.Or(o.Timeout, DefaultTimeout)
	o.MaxValueBytes = cmp.Or(o.MaxValueBytes, DefaultMaxValueBytes)
	c := redis.NewClient(&redis.Options{
		Addr:                  o.Addr,
		DB:                    o.DB,
		Username:              o.Username,
		Password:              o.Password,
		TLSConfig:             o.TLS,
		PoolSize:              o.PoolSize,
		DialTimeout:           o.Timeout,
		DialerRetries:         1,
		ReadTimeout:           o.Timeout,
		WriteTimeout:          o.Timeout,
		PoolTimeout:           o.Timeout,
		ContextTimeoutEnabled: true,
		MaxRetries:            -1,
		DisableIdentity:       true,
		MaintNotificationsConfig: &maintnotifications.Config{
			Mode: maintnotifications.ModeDisabled,
		},
	})
	return &Redis{c: c, o: o}, nil
}

// Options returns the options of r, defaults filled in.
func (r *Redis) Options() RedisOptions { return r.o }

// Close closes the connections of r.
func (r *Redis) Close() error { return r.c.Close() }

func (r *Redis) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, r.o.Timeout)
}

func (r *Redis) fail(op string, err error) error {
	return &StoreError{Op: op, Store: "redis", Err: err}
}

// Get returns the value under key.
func (r *Redis) Get(ctx context.Context, key string) ([]byte, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	v, err := r.c.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, r.fail("get", err)
	}
	if len(v) > r.o.MaxValueBytes {
		return nil, r.fail("get", tooLarge(len(v), r.o.MaxValueBytes))
	}
	return v, nil
}

// Set stores value under key for ttl (SET key value PX ms; a ttl under a
// millisecond is one).
func (r *Redis) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := checkTTL(ttl); err != nil {
		return err
	}
	if len(value) > r.o.MaxValueBytes {
		return r.fail("set", tooLarge(len(value), r.o.MaxValueBytes))
	}
	ctx, cancel := r.call(ctx)
	defer cancel()
	if err := r.c.Do(ctx, "SET", key, value, "PX", max(ttl.Milliseconds(), 1)).Err(); err != nil {
		return r.fail("set", err)
	}
	return nil
}

// Delete removes key.
func (r *Redis) Delete(ctx context.Context, key string) error {
	ctx, cancel := r.call(ctx)
	defer cancel()
	if err := r.c.Del(ctx, key).Err(); err != nil {
		return r.fail("delete", err)
	}
	return nil
}

// Open returns the Store a URL names, as a service's -store flag takes
// it: "memory" (NewMemory with the defaults) or
// "redis://[[user]:password@]host:port[/db]" ("rediss://" for TLS),
// NewRedis with the defaults and what the URL gives; a query string is an
// error. The Store is an io.Closer: close it when done.
func Open(rawURL string) (Store, error) {
	if rawURL == "memory" {
		return NewMemory(MemoryOptions{}), nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New(`wirestore: the store is not a URL: want "memory" or redis://HOST:PORT/DB`)
	}
	shown := short(u.Redacted()) // a password is never shown
	if (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, fmt.Errorf("wirestore: store %q: want \"memory\" or redis://HOST:PORT/DB", shown)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("wirestore: store %q: a Redis URL takes no parameters", shown)
	}
	o, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("wirestore: store %q: %w", shown, err)
	}
	return NewRedis(RedisOptions{Addr: o.Addr, DB: o.DB, Username: o.Username, Password: o.Password, TLS: o.TLSConfig})
}

// Close does nothing: a Memory store holds no connection. It makes every
// Store Open returns an io.Closer.
func (m *Memory) Close() error { return nil }

var (
	_ io.Closer = (*Memory)(nil)
	_ io.Closer = (*Redis)(nil)
)

// RedisKeyOverhead is what Redis holds for one value besides the value's
// bytes (rounded up by its allocator, by at most a quarter): the key of
// namespace, kind and 64 hex digits, its entries in the key space and the
// expiry table, and their objects, measured on Redis 7.
const RedisKeyOverhead = 256
