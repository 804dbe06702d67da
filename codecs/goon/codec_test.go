package goon_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/codecs/goon"
)

const lockFile = "testdata/version.lock"

// TestVersionLock holds goon.Version together with a hash of each golden
// output: an encoder change that alters any golden output fails this test
// until Version is bumped (and the lock rewritten with go test -update,
// which refuses to record changed outputs under an unchanged version). New
// golden cases may be recorded without a bump.
func TestVersionLock(t *testing.T) {
	hashes := map[string]string{}
	for _, c := range goldenCases() {
		out, err := goon.Encode(c.in)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(out)
		hashes[c.name+".goon"] = hex.EncodeToString(sum[:])
	}
	version, locked, err := readLock()
	if *update {
		if err == nil && version == goon.Version {
			for name, h := range hashes {
				if old, ok := locked[name]; ok && old != h {
					t.Fatalf("golden output %s changed but goon.Version is still %s: bump goon.Version, then run go test -update", name, version)
				}
			}
		}
		if err := writeLock(hashes); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v (run go test -update to create %s)", err, lockFile)
	}
	if version != goon.Version {
		t.Fatalf("goon.Version is %s but %s records %s: run go test -update to record the new version's golden outputs", goon.Version, lockFile, version)
	}
	for _, name := range sortedKeys(hashes) {
		old, ok := locked[name]
		switch {
		case !ok:
			t.Errorf("golden case %s is not in %s: run go test -update to record it", name, lockFile)
		case old != hashes[name]:
			t.Errorf("golden output %s changed without a goon.Version bump (still %s): a change to the bytes GOON writes needs a new version", name, version)
		}
	}
	for _, name := range sortedKeys(locked) {
		if _, ok := hashes[name]; !ok {
			t.Errorf("%s records %s, which is no longer a golden case: run go test -update", lockFile, name)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func readLock() (string, map[string]string, error) {
	data, err := os.ReadFile(lockFile)
	if err != nil {
		return "", nil, err
	}
	version := ""
	hashes := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if v, ok := strings.CutPrefix(line, "version "); ok {
			version = v
			continue
		}
		h, name, ok := strings.Cut(line, "  ")
		if !ok {
			return "", nil, fmt.Errorf("%s: bad line %q", lockFile, line)
		}
		hashes[name] = h
	}
	if version == "" {
		return "", nil, errors.New(lockFile + ": no version line")
	}
	return version, hashes, nil
}

func writeLock(hashes map[string]string) error {
	var b bytes.Buffer
	b.WriteString("# GOON wire version and the SHA-256 of each golden output it writes.\n")
	b.WriteString("# Written by go test -update; see TestVersionLock.\n")
	b.WriteString("version " + goon.Version + "\n")
	for _, name := range sortedKeys(hashes) {
		b.WriteString(hashes[name] + "  " + name + "\n")
	}
	return os.WriteFile(lockFile, b.Bytes(), 0o644)
}
