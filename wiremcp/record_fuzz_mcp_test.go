package wiremcp

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/delta"
)

// FuzzConversationRecord: any bytes under a conversation's key either
// read as a record, which reads the same once written again, or are
// refused; never a panic.
func FuzzConversationRecord(f *testing.F) {
	rec := record{init: []byte(`{"protocolVersion":"2025-06-18"}`), user: "alice", state: []byte("state"),
		bases: []*base{{key: "merge_requests\x00goon\x00{}", src: delta.Hash{1}, fp: delta.Hash{2}, bytes: 4096, written: 1e9}}}
	f.Add(rec.append(nil))
	f.Add([]byte(recordMagic))
	f.Add([]byte(recordMagic + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	f.Fuzz(func(t *testing.T, v []byte) {
		got, err := decodeRecord(v)
		if err != nil {
			return
		}
		again, err := decodeRecord(got.append(nil))
		if err != nil {
			t.Fatalf("record %q, written again: %v", v, err)
		}
		if diff := cmp.Diff(got, again, cmp.AllowUnexported(record{}, base{})); diff != "" {
			t.Fatalf("record %q, written again (-first +again):\n%s", v, diff)
		}
	})
}
