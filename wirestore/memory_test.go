package wirestore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/graphwire/graphwire/internal/testsupport"
)

func newTestMemory(o MemoryOptions) (*Memory, *testsupport.Clock) {
	c := testsupport.NewClock(time.Unix(1_700_000_000, 0))
	m := NewMemory(o)
	m.now = c.Now
	return m, c
}

func TestMemoryGetSetDelete(t *testing.T) {
	ctx := context.Background()
	m, _ := newTestMemory(MemoryOptions{})
	if _, err := m.Get(ctx, "k"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of an empty store: %v, want ErrNotFound", err)
	}
	v := []byte("value")
	if err := m.Set(ctx, "k", v, time.Minute); err != nil {
		t.Fatal(err)
	}
	v[0] = 'X' // the store keeps its own copy
	got, err := m.Get(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]byte("value"), got); diff != "" {
		t.Fatalf("Get (-want +got):\n%s", diff)
	}
	got[0] = 'Y' // and hands out copies
	if again, _ := m.Get(ctx, "k"); string(again) != "value" {
		t.Fatalf("a change to a value Get returned reached the store: %q", again)
	}
	if err := m.Set(ctx, "k", []byte("second"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if n, b := m.Len(); n != 1 || b != int64(len("k")+len("second"))+MemoryEntryOverhead {
		t.Fatalf("after replacing: %d values, %d bytes", n, b)
	}
	if err := m.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(ctx, "k"); err != nil {
		t.Fatalf("Delete of a key not kept: %v", err)
	}
	if _, err := m.Get(ctx, "k"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete: %v, want ErrNotFound", err)
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		if err := m.Set(ctx, "k", v, ttl); err == nil {
			t.Fatalf("Set with a time to live of %v: no error", ttl)
		}
	}
}

func TestMemoryTTL(t *testing.T) {
	ctx := context.Background()
	m, clock := newTestMemory(MemoryOptions{})
	_ = m.Set(ctx, "short", []byte("a"), time.Second)
	_ = m.Set(ctx, "long", []byte("b"), time.Hour)
	clock.Advance(999 * time.Millisecond)
	if _, err := m.Get(ctx, "short"); err != nil {
		t.Fatalf("Get before the time to live passed: %v", err)
	}
	clock.Advance(time.Millisecond)
	if _, err := m.Get(ctx, "short"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get once the time to live passed: %v, want ErrNotFound", err)
	}
	if _, err := m.Get(ctx, "long"); err != nil {
		t.Fatalf("Get of a value still alive: %v", err)
	}
	// Expired values at the end of the use order go on the next Set,
	// read or not.
	for i := range 100 {
		_ = m.Set(ctx, fmt.Sprint("old", i), []byte("x"), time.Minute)
	}
	clock.Advance(2 * time.Minute)
	_ = m.Set(ctx, "new", []byte("y"), time.Minute)
	if n, _ := m.Len(); n != 2 { // "long" and "new"
		t.Fatalf("after the old values expired and one Set: %d values kept, want 2", n)
	}
}

func TestMemoryBounds(t *testing.T) {
	ctx := context.Background()
	m, _ := newTestMemory(MemoryOptions{MaxEntries: 3})
	for i := range 5 {
		_ = m.Set(ctx, fmt.Sprint(i), []byte("v"), time.Minute)
	}
	_, _ = m.Get(ctx, "2") // used: "3" is now the least recently used
	_ = m.Set(ctx, "5", []byte("v"), time.Minute)
	var kept []string
	for i := range 6 {
		if _, err := m.Get(ctx, fmt.Sprint(i)); err == nil {
			kept = append(kept, fmt.Sprint(i))
		}
	}
	if diff := cmp.Diff([]string{"2", "4", "5"}, kept); diff != "" {
		t.Fatalf("kept (-want +got):\n%s", diff)
	}

	per := int64(1+100) + MemoryEntryOverhead
	m, _ = newTestMemory(MemoryOptions{MaxBytes: 10 * per, MaxValueBytes: 1000})
	for i := range 20 {
		_ = m.Set(ctx, fmt.Sprint(i%10), make([]byte, 100), time.Minute)
		_ = m.Set(ctx, "x", make([]byte, 100), time.Minute)
	}
	if n, b := m.Len(); b > 10*per || n > 10 {
		t.Fatalf("%d values, %d bytes, past the bound of %d bytes", n, b, 10*per)
	}
	err := m.Set(ctx, "big", make([]byte, 1001), time.Minute)
	var se *StoreError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &se) || se.Op != "set" {
		t.Fatalf("Set of a value past MaxValueBytes: %v, want a set *StoreError matching ErrTooLarge", err)
	}
	if _, err := m.Get(ctx, "big"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a value refused was kept: %v", err)
	}
}

func TestMemoryConcurrent(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryOptions{MaxEntries: 50})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				k := fmt.Sprint((g*7 + i) % 80)
				switch i % 3 {
				case 0:
					_ = m.Set(ctx, k, []byte(k), time.Minute)
				case 1:
					if v, err := m.Get(ctx, k); err == nil && string(v) != k {
						t.Errorf("Get %q gave %q", k, v)
					}
				default:
					_ = m.Delete(ctx, k)
				}
			}
		})
	}
	wg.Wait()
	if n, _ := m.Len(); n > 50 {
		t.Fatalf("%d values kept, past 50", n)
	}
}

func TestKey(t *testing.T) {
	got := Key("svc", "session", "abc")
	want := "svc:session:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got != want {
		t.Fatalf("Key = %q, want %q", got, want)
	}
	long := string(make([]byte, 1<<20))
	if k := Key("svc", "session", long); len(k) != len(want) {
		t.Fatalf("the key of a 1 MB id is %d bytes, want %d", len(k), len(want))
	}
}
