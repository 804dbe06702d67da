package testsupport

import (
	"bufio"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RedisServerBinary is the program StartRedis runs, found on PATH
// (Debian's package redis-server).
const RedisServerBinary = "redis-server"

// RedisServer is a redis-server a test started on a loopback port, with
// no persistence (--save "" --appendonly no): stopped, it forgets every
// key. A test can stop and start it again on the same port, or freeze it
// (SIGSTOP) to make it hang, as outage tests need. It is stopped when the
// test ends.
type RedisServer struct {
	tb   testing.TB
	path string
	port int
	dir  string

	mu     sync.Mutex
	cmd    *exec.Cmd
	frozen bool
}

// StartRedis starts a redis-server on a free loopback port for the test,
// and stops it when the test ends. Without redis-server installed it
// skips the test, or fails it when CI is set (CI installs it).
func StartRedis(tb testing.TB) *RedisServer {
	tb.Helper()
	path := Tool(tb, RedisServerBinary, "apt-get install -y redis-server")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	s := &RedisServer{tb: tb, path: path, port: port, dir: tb.TempDir()}
	tb.Cleanup(s.Stop)
	s.Start()
	return s
}

// Addr is the server's host:port.
func (s *RedisServer) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// URL is the server's redis:// URL, database 0.
func (s *RedisServer) URL() string { return "redis://" + s.Addr() + "/0" }

// Start starts the server if it is stopped, and waits until it answers.
func (s *RedisServer) Start() {
	s.tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	cmd := exec.Command(s.path, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--daemonize", "no", "--loglevel", "warning")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.tb.Fatalf("starting %s: %v", s.path, err)
	}
	s.cmd, s.frozen = cmd, false
	deadline := time.Now().Add(10 * time.Second)
	for {
		if reply, err := s.commandWithin(time.Second, "PING"); err == nil && reply == "+PONG" {
			return
		}
		if time.Now().After(deadline) {
			s.stopLocked()
			s.tb.Fatalf("%s on port %d did not answer PING within 10s: %s", s.path, s.port, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops the server, if it runs, and waits for it to exit.
func (s *RedisServer) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopLocked()
}

func (s *RedisServer) stopLocked() {
	if s.cmd == nil {
		return
	}
	if s.frozen {
		_ = s.cmd.Process.Signal(syscall.SIGCONT)
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd, s.frozen = nil, false
}

// Freeze stops the server's process (SIGSTOP): connections stay open and
// nothing is answered, as a server that hangs. Thaw resumes it.
func (s *RedisServer) Freeze() { s.signal(syscall.SIGSTOP, true) }

// Thaw resumes a frozen server (SIGCONT).
func (s *RedisServer) Thaw() { s.signal(syscall.SIGCONT, false) }

func (s *RedisServer) signal(sig syscall.Signal, frozen bool) {
	s.tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.tb.Fatal("the redis server is stopped")
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.tb.Fatal(err)
	}
	s.frozen = frozen
}

// Command sends one command, its arguments without spaces, in the Redis
// inline syntax, and returns the reply: a status, error or integer line
// as the server wrote it ("+PONG", ":42"), a bulk string's body (up to
// 16 MiB, as INFO's), or an array's elements one a line (KEYS').
func (s *RedisServer) Command(args ...string) string {
	s.tb.Helper()
	reply, err := s.commandWithin(5*time.Second, args...)
	if err != nil {
		s.tb.Fatalf("redis %v: %v", args, err)
	}
	return reply
}

// commandWithin is Command, failing when the reply takes past d.
func (s *RedisServer) commandWithin(d time.Duration, args ...string) (string, error) {
	conn, err := net.DialTimeout("tcp", s.Addr(), d)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(d))
	if _, err := conn.Write([]byte(strings.Join(args, " ") + "\r\n")); err != nil {
		return "", err
	}
	return readReply(bufio.NewReader(conn))
}

// readReply reads one reply: a line as written, a bulk string's body, or
// an array's elements each on a line of its own.
func readReply(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if len(line) == 0 || (line[0] != '$' && line[0] != '*') {
		return line, nil
	}
	n, err := strconv.Atoi(line[1:])
	if err != nil || n < 0 || n > 16<<20 {
		return line, nil
	}
	if line[0] == '*' {
		elems := make([]string, 0, min(n, 1024))
		for range n {
			e, err := readReply(r)
			if err != nil {
				return "", err
			}
			elems = append(elems, e)
		}
		return strings.Join(elems, "\n"), nil
	}
	body := make([]byte, n+2)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", err
	}
	return string(body[:n]), nil
}

// Keys is the number of keys in database db, from INFO keyspace (DBSIZE
// of that database): expired keys count until Redis drops them.
func (s *RedisServer) Keys(db int) int {
	s.tb.Helper()
	prefix := "db" + strconv.Itoa(db) + ":keys="
	for _, line := range strings.Split(s.Command("INFO", "keyspace"), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
			n, err := strconv.Atoi(v[:strings.IndexByte(v+",", ',')])
			if err != nil {
				s.tb.Fatalf("INFO keyspace: %q", line)
			}
			return n
		}
	}
	return 0 // an empty database is not listed
}

// UsedMemory is INFO memory's used_memory, in bytes.
func (s *RedisServer) UsedMemory() int64 {
	s.tb.Helper()
	for _, line := range strings.Split(s.Command("INFO", "memory"), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				s.tb.Fatalf("INFO memory: %q", line)
			}
			return n
		}
	}
	s.tb.Fatal("INFO memory has no used_memory")
	return 0
}

// AwaitClient waits, up to 10 seconds, until a client of the server
// stored n values in a row through set after Start brought it back: its
// pool dials again once its back-off after failed dials ends, and drops
// each connection the restart broke on that connection's first use.
func AwaitClient(tb testing.TB, n int, set func() error) {
	tb.Helper()
	ok := 0
	for end := time.Now().Add(10 * time.Second); ok < n; {
		if set() == nil {
			ok++
			continue
		}
		ok = 0
		if time.Now().After(end) {
			tb.Fatalf("the store's client did not reach the restarted server within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
