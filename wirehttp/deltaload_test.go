package wirehttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/testsupport"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirehttp"
)

// TestDeltaBaseCacheLoad: 8 clients ask for 10,000 distinct responses
// (the corpus's neighbors_s, 7 KiB of json, each with a revision of its
// own) with A-IM, so that the server is offered 10,000 distinct bases, half of the
// requests naming a base held a few requests earlier (226 when the cache
// still has it). The cache must stay within its bounds, by its own count
// and by the live heap, under a byte bound and under a count bound.
func TestDeltaBaseCacheLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	for _, tc := range []struct {
		name string
		opts wirehttp.DeltaOptions
	}{
		{"bytes bind", wirehttp.DeltaOptions{MaxBases: 100_000, MaxBytes: 8 << 20}},
		{"count bind", wirehttp.DeltaOptions{MaxBases: 1000, MaxBytes: 1 << 30}},
	} {
		t.Run(tc.name, func(t *testing.T) { deltaLoad(t, tc.opts) })
	}
}

func deltaLoad(t *testing.T, opts wirehttp.DeltaOptions) {
	// Under the race detector, which slows every request tenfold, 1,500
	// bases: still past both bounds (1,000 bases, 8 MiB of 7 KiB bodies).
	const clients = 8
	distinct := 10_000
	if testsupport.Race {
		distinct = 1_500
	}
	reg := deltaRegistry(t)
	var cur atomic.Pointer[wirehttp.Server]
	newServer := func() *wirehttp.Server {
		s, err := wirehttp.New(reg, wirehttp.Options{Delta: opts})
		if err != nil {
			t.Fatal(err)
		}
		cur.Store(s)
		return s
	}
	newServer()
	var template *wire.GraphResponse
	for _, c := range corpus.Generate() {
		if c.Profile == corpus.TextHeavy && c.Name == "neighbors_s" {
			template = c.Response
		}
	}
	if template == nil {
		t.Fatal("no neighbors_s in the corpus")
	}
	// Response i: the template with node 0 renamed after i, so every
	// response (and every base) is distinct and a delta between two is
	// small.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(r.URL.Query().Get("i"))
		if err != nil {
			http.Error(w, "bad i", 400)
			return
		}
		resp := *template
		resp.Nodes = append([]wire.Node(nil), template.Nodes...)
		n := &resp.Nodes[0]
		n.Properties = append([]wire.Property{{Key: "rev", Value: wire.Int(int64(i))}}, n.Properties...)
		cur.Load().Respond(w, r, &resp)
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: time.Minute}
	do := func(ctx context.Context, i int, inm string) (int, string, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/?format=json&i=%d", srv.URL, i), nil)
		if err != nil {
			return 0, "", err
		}
		req.Header.Set("A-IM", wirehttp.DeltaIM)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return 0, "", err
		}
		return resp.StatusCode, resp.Header.Get("ETag"), nil
	}
	ctx := context.Background()
	// Warm up (the tokenizer's vocabulary loads on the first delta),
	// then measure from an empty cache.
	_, e, err := do(ctx, -1, "")
	if err != nil {
		t.Fatal(err)
	}
	if st, _, err := do(ctx, -2, e); err != nil || st != 226 {
		t.Fatalf("warm-up delta: status %d, %v", st, err)
	}
	s := newServer() // an empty cache
	before := liveHeap()

	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	var next atomic.Int64
	var deltas, fulls atomic.Int64
	var maxCount atomic.Int64
	var maxBytes atomic.Int64
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Go(func() {
			var held []string // the tags this client holds, oldest first
			for {
				i := int(next.Add(1)) - 1
				if i >= distinct {
					return
				}
				inm := ""
				if i%2 == 1 && len(held) > 0 {
					inm = held[max(0, len(held)-3)]
				}
				st, tag, err := do(ctx, i, inm)
				if err != nil {
					errs <- err
					return
				}
				switch st {
				case 226:
					deltas.Add(1)
				case 200:
					fulls.Add(1)
				default:
					errs <- fmt.Errorf("request %d: status %d", i, st)
					return
				}
				held = append(held, tag)
				n, b := s.DeltaStats()
				for m := maxCount.Load(); int64(n) > m && !maxCount.CompareAndSwap(m, int64(n)); m = maxCount.Load() {
				}
				for m := maxBytes.Load(); b > m && !maxBytes.CompareAndSwap(m, b); m = maxBytes.Load() {
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	after := liveHeap()
	n, b := s.DeltaStats()
	grown := int64(after) - int64(before)
	t.Logf("%d distinct bases offered in %v: %d deltas (226), %d full; cache now %d bases, %.1f MiB (most seen %d, %.1f MiB); "+
		"live heap %.1f -> %.1f MiB (+%.1f MiB), peak heap %.1f MiB",
		distinct, elapsed.Round(time.Millisecond), deltas.Load(), fulls.Load(), n, mib(b), maxCount.Load(), mib(maxBytes.Load()),
		mib(int64(before)), mib(int64(after)), mib(grown), mib(int64(peak.Load())))
	if maxCount.Load() > int64(opts.MaxBases) || maxBytes.Load() > opts.MaxBytes {
		t.Errorf("cache past its bounds: %d bases, %d bytes; bounds %d, %d", maxCount.Load(), maxBytes.Load(), opts.MaxBases, opts.MaxBytes)
	}
	if deltas.Load() == 0 {
		t.Error("no delta answered")
	}
	// The live heap holds the cache and little else: within 25% of what
	// the cache counts, plus 4 MiB of connection buffers and pools.
	if limit := b + b/4 + 4<<20; grown > limit {
		t.Errorf("live heap grew %d bytes for a cache counting %d (limit %d)", grown, b, limit)
	}
	runtime.KeepAlive(cur.Load())
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
