// Package wirestore keeps what a graphwire service remembers between
// requests — the writer's side of each session, delta bases — in a Store
// that every replica of the service shares, so a conversation goes on
// whichever replica a request lands on.
//
//	st, err := wirestore.Open("redis://127.0.0.1:6379/0") // or "memory"
//	sessions, err := wirestore.NewSessions(st, wirestore.SessionOptions{Namespace: "orbit"})
//	...
//	sess, err := sessions.Load(ctx, id)     // a new session if id is unknown
//	if errors.Is(err, wirestore.ErrUnknownSession) {
//		id = sessions.NewID()
//	}
//	body, _, err := sess.Encode(registry, "goon", resp)
//	err = sessions.Save(ctx, id, sess)
//
// A Store holds opaque values by key, each with a time to live: Memory,
// in the process (the default, bounded, least recently used forgotten
// first), and Redis, any server that speaks the Redis protocol. Sessions
// keeps delta.Session state in one: each Load restores the state the last
// Save stored (delta.RestoreSession), which marks and encodes exactly as
// the session that saved it would have.
//
// # The store is an optimisation
//
// Nothing a store does changes what a reader receives, only how much of
// it comes as references. Every store call has a timeout (Timeout,
// default 100ms) and never blocks longer. When a store is slow, down, or
// refuses, Load returns a new empty session with the store's error, and
// an empty session sends every node in full, which its reader always
// reads; Save deletes what the store held under the id, so the next Load
// starts anew rather than from an older state. A caller answers with the
// session it was given and reports the error; when the store answers
// again, sessions are stored again. One request of a session at a time:
// two concurrent requests of one session each save what they marked, the
// last one wins, and a reader that checks the fingerprint of what it
// resolves (delta.Session.Resolve with want) finds a reference it cannot
// resolve and asks for the whole response.
//
// # Security
//
// A session is reached only through its id: 128 bits from crypto/rand
// that the service issues (NewID), IDLength characters of base64url. An
// id of any other form — forged, guessed at the wrong length, 1 MB long —
// is an unknown session without a store call; an unknown id gives a new
// empty session and ErrUnknownSession, and the service issues a new id
// rather than adopting the client's. No client input becomes a store key:
// keys are the service's namespace, the kind and the hex SHA-256 of the id
// (Key), so one client cannot name, read, extend or evict another's
// session without its id. The id is a bearer secret: send it over TLS
// and keep it out of logs. A stored state holds node types, ids and
// SHA-256 hashes of node contents, never the contents. A stored state is
// read by
// delta.RestoreSession, which refuses any state it cannot read, past the
// session limits, or longer than delta.MaxStateBytes (an error, then a new
// session), and allocates nothing sized by a number it reads.
//
// # Bounds
//
// Each session: delta.SessionLimits (default 10,000 nodes, 16 MiB
// counted); its stored state is about 45 bytes per remembered node and the
// names of its node types once, at most delta.MaxStateBytes(Limits). A
// session not saved for Idle (default 30 minutes) is gone: Save sets its
// time to live. Values: a Store refuses one longer than MaxValueBytes
// (default 4 MiB), and Save of such a session state deletes it (the
// session goes on empty). Memory: at most MaxEntries values (default
// 10,000; NewSessions without a store: MaxSessions, default 10,000) and
// MaxBytes (default 64 MiB) counted as key, value and
// MemoryEntryOverhead (160 bytes) each; the heap they hold is within a
// quarter of that count (10,000 sessions of 50 nodes: 23.5 MB counted,
// 25.8 MB of heap). Redis: each key is namespace, kind and 64 hex digits;
// a session takes its state's bytes, rounded up by Redis's allocator (at
// most a quarter more), and RedisKeyOverhead (256 bytes) of key and
// bookkeeping (10,000 sessions of 50 nodes, states of 2,110 bytes: 2,787
// bytes each of used_memory). The server's own memory bound (maxmemory
// and an eviction policy such as volatile-lru) applies on top of the time
// to live of every value.
//
// A replica whose sessions are in Redis holds none of them between
// requests: its memory does not grow with the number of sessions. Bound:
// each replica's RSS stays within its RSS after its first request plus
// 48 MiB. Measured with three "wirebench serve -store redis://…"
// processes and 10,000 sessions, each opened on one and used on the next
// (go test -run TestReplicaRSSTenThousandSessions -v ./internal/cli, load
// 25): RSS 26–27 MiB after the first request, 46–53 MiB after 10,000
// sessions (44–48 after 2,500); used_memory 2,872 bytes a session for
// states of 2,104 (bound 2,886); every key with a time to live, none left
// once the sessions are idle past Idle.
package wirestore
