// Package redistore opens the tests' wirestore Redis stores on a
// testsupport.RedisServer. It is a package of its own because wirestore's
// own tests import testsupport, which therefore cannot import wirestore.
package redistore

import (
	"testing"
	"time"

	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wirestore"
)

// Open returns a Redis store on srv, closed when the test ends, whose calls
// may take timeout.
func Open(tb testing.TB, srv *testsupport.RedisServer, timeout time.Duration) *wirestore.Redis {
	tb.Helper()
	st, err := wirestore.NewRedis(wirestore.RedisOptions{Addr: srv.Addr(), Timeout: timeout})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}
