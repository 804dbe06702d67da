package testsupport

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestRedisServer: the server answers, forgets its keys when stopped and
// started again on the same port, refuses connections while stopped, and
// answers nothing while frozen.
func TestRedisServer(t *testing.T) {
	s := StartRedis(t)
	if got := s.Command("SET", "k", "v"); got != "+OK" {
		t.Fatalf("SET: %q", got)
	}
	if got := s.Command("GET", "k"); got != "v" {
		t.Fatalf("GET: %q", got)
	}
	if got := s.Command("DBSIZE"); got != ":1" {
		t.Fatalf("DBSIZE: %q", got)
	}
	s.Stop()
	if c, err := net.DialTimeout("tcp", s.Addr(), time.Second); err == nil {
		c.Close()
		t.Fatal("a stopped server accepts connections")
	}
	s.Start()
	if got := s.Command("DBSIZE"); got != ":0" {
		t.Fatalf("DBSIZE after a restart: %q, want :0 (no persistence)", got)
	}
	if info := s.Command("INFO", "memory"); !strings.Contains(info, "used_memory:") {
		t.Fatalf("INFO memory: %q", info)
	}
	s.Freeze()
	if _, err := s.commandWithin(200*time.Millisecond, "PING"); err == nil {
		t.Fatal("a frozen server answered")
	}
	s.Thaw()
	if got := s.Command("PING"); got != "+PONG" {
		t.Fatalf("PING after Thaw: %q", got)
	}
}

// TestStartRedisMissing: without redis-server on PATH, StartRedis skips
// the test, or fails it when CI is set.
func TestStartRedisMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, tc := range []struct {
		ci                 string
		wantSkip, wantFail bool
	}{{"", true, false}, {"true", false, true}} {
		t.Setenv("CI", tc.ci)
		r := run(t, func(tb testing.TB) { StartRedis(tb) })
		if r.skipped != tc.wantSkip || r.failed != tc.wantFail {
			t.Fatalf("CI=%q: skipped %v, failed %v (%q); want skipped %v, failed %v", tc.ci, r.skipped, r.failed, r.msg, tc.wantSkip, tc.wantFail)
		}
	}
}
