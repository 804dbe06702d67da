package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	jsoncodec "github.com/graphwire/graphwire/codecs/json"

	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// writeTraversal writes the canonical JSON of testsupport.People(n) to a
// file and returns its path and size.
func writeTraversal(t *testing.T, n int) (string, int) {
	t.Helper()
	r := testsupport.People(n)
	b, err := jsoncodec.AppendEncode(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, len(b)
}

// measureRun runs wirebench in-process and reports its footprint.
func measureRun(stdin []byte, args ...string) (result, wiretest.Footprint) {
	var out, errOut bytes.Buffer
	var code int
	fp := wiretest.Measure(func() {
		code = cli.Run(&cli.Env{Args: args, Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	})
	return result{code, out.String(), errOut.String()}, fp
}

// TestFitRefusesABadCursorBeforeReading: "fit -cursor '!!!'" on a
// 100K-node response says the cursor is not one fit issued without
// reading, decoding, encoding or counting the response: what it allocates
// is a small fraction of the file.
func TestFitRefusesABadCursorBeforeReading(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100K-node response")
	}
	path, size := writeTraversal(t, 100_000)
	for _, cursor := range []string{"!!!", strings.Repeat("A", 5000), "AQAAAAAAAAAAAAAAAAAAAA"} {
		res, fp := measureRun(nil, "fit", "-f", "goon", "-budget", "500", "-cursor", cursor, path)
		t.Logf("cursor %.12q on %d bytes (100000 nodes): %v", cursor, size, fp)
		oneErrorLine(t, res, 1, "fit", "fit: cursor ")
		if limit := uint64(size) / 100; fp.TotalAlloc > limit {
			t.Errorf("cursor %.12q: allocated %d bytes, want at most %d (1%% of the %d-byte response)", cursor, fp.TotalAlloc, limit, size)
		}
	}
	// The other cheap checks come before reading too.
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"fit", "-f", "nope", "-budget", "500", path}, 2},
		{[]string{"fit", "-f", "goon", "-budget", "-3", path}, 2},
		{[]string{"fit", "-f", "goon", "-t", "bytes", "-budget", "500", path}, 2},
		{[]string{"decode", "-f", "nope", path}, 2},
		{[]string{"convert", "-from", "json", "-to", "nope", path}, 2},
	} {
		res, fp := measureRun(nil, tt.args...)
		if res.code != tt.code || res.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want exit %d", tt.args, res.code, res.stdout, tt.code)
		}
		if limit := uint64(size) / 100; fp.TotalAlloc > limit {
			t.Errorf("%q: allocated %d bytes, want at most %d", tt.args, fp.TotalAlloc, limit)
		}
	}
}

// TestInputPastTheLimitIsNotRead: a file longer than every decoder's
// MaxInputBytes is refused from its size, unread; standard input is read
// no further than one byte past the limit.
func TestInputPastTheLimitIsNotRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 30 // sparse: nothing is written
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{
		{"decode", "-f", "json", path},
		{"convert", "-from", "auto", "-to", "goon", path},
		{"fit", "-f", "goon", "-budget", "500", path},
		{"tokens", path},
		{"toon", "-d", path},
	} {
		res, fp := measureRun(nil, args...)
		t.Logf("%q on a %d-byte file: %v", args, size, fp)
		oneErrorLine(t, res, 1, args[0], "is longer than 67108864 bytes")
		if fp.TotalAlloc > 1<<20 {
			t.Errorf("%q: allocated %d bytes refusing a %d-byte file", args, fp.TotalAlloc, size)
		}
	}
	if testing.Short() {
		return
	}
	in := bytes.Repeat([]byte{' '}, int(wire.DefaultLimits().MaxInputBytes)+1)
	res, fp := measureRun(in, "decode", "-f", "json")
	t.Logf("decode of %d bytes of stdin: %v", len(in), fp)
	oneErrorLine(t, res, 1, "decode", "is longer than 67108864 bytes")
	if bound := wiretest.DecodeMemoryBound(len(in)); fp.PeakHeap > bound {
		t.Errorf("peak heap %d, want at most %d", fp.PeakHeap, bound)
	}
}
