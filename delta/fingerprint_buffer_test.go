package delta

import (
	"crypto/sha256"
	"runtime"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// Fingerprint hashes through a fixed buffer: a response with a string or a
// list far longer than the buffer costs no more memory than a small one,
// and its digest is SHA-256 over the very bytes written whole.
func TestFingerprintHashesInFixedMemory(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 1<<18) // 4 MiB
	ints := make([]wire.Value, 200_000)
	for i := range ints {
		ints[i] = wire.Int(int64(i))
	}
	many := make([]wire.Property, 5000)
	for i := range many {
		many[i] = wire.Prop(strings.Repeat("k", i%97), wire.String(strings.Repeat("v", i%4099)))
	}
	for _, tc := range []struct {
		name string
		n    wire.Node
	}{
		{"a 4 MiB string", wire.Node{Type: "File", ID: 1, Properties: []wire.Property{wire.Prop("text", wire.String(long))}}},
		{"a list of 200,000 ints", wire.Node{Type: "File", ID: 2, Properties: []wire.Property{wire.Prop("offsets", wire.ListOf(ints...))}}},
		{"5,000 strings of every length to 4 KiB", wire.Node{Type: "File", ID: 3, Properties: many}},
	} {
		r := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search, Nodes: []wire.Node{tc.n}}
		whole := canon{}
		whole.b = append(whole.b, fingerprintTag...)
		whole.response(r)
		want := Hash(sha256.Sum256(whole.b))

		var got Hash
		allocated := allocatedBy(func() { got = Fingerprint(r) })
		if got != want {
			t.Errorf("%s: Fingerprint %v, want SHA-256 of the canonical bytes, %v", tc.name, got, want)
		}
		if limit := uint64(8 << 10); allocated > limit {
			t.Errorf("%s: Fingerprint of %d canonical bytes allocated %d bytes, want at most %d", tc.name, len(whole.b), allocated, limit)
		}
	}
}

// allocatedBy returns the bytes call allocates: the least of three
// calls, since what the runtime allocates meanwhile counts too.
func allocatedBy(call func()) uint64 {
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		call()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
