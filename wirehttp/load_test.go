package wirehttp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"slices"
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

// loadHeapBound is how much the live heap may grow over a load run once
// the server has warmed up (every representation encoded and cached):
// what remains is connection buffers and pools, not per-request garbage.
const loadHeapBound = 16 << 20

// loadRequest is one kind of request of the load mix and the bytes its
// answer must hold.
type loadRequest struct {
	path, accept string
	want         []byte
}

func loadMix(t testing.TB) ([]wirehttp.Resource, []loadRequest) {
	var rs []wirehttp.Resource
	var mix []loadRequest
	for _, c := range testsupport.Generated() {
		if c.Profile != corpus.TextHeavy || c.Name != corpus.ADRCase && c.Name != "traversal_s" && c.Name != "aggregation_m" && c.Name != "path_finding_s" {
			continue
		}
		rs = append(rs, wirehttp.Resource{Name: c.Name, Response: c.Response})
		for _, info := range wire.List() {
			want, err := wire.EncodeWith(info.Name, c.Response)
			if err != nil {
				t.Fatal(err)
			}
			mix = append(mix,
				loadRequest{path: "/" + c.Name + "?format=" + info.Name, want: want},
				loadRequest{path: "/" + c.Name, accept: info.MediaType + ", */*;q=0.1", want: want})
		}
	}
	return rs, mix
}

// serveCatalog serves rs with the default options from a loopback server
// that closes when the test ends.
func serveCatalog(t *testing.T, rs []wirehttp.Resource) *httptest.Server {
	t.Helper()
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := s.Catalog(rs)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// TestLoad: 64 concurrent clients send 20,000 requests over mixed formats
// to one loopback server; every answer must be 200 with exactly the
// codec's bytes, and the heap must come back within loadHeapBound. Under
// the race detector 2,000 requests (every kind of request many times over)
// watch the same goroutines; .ci/run runs it whole without it.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	const clients = 64
	total := 20_000
	if testsupport.Race {
		total = 2_000
	}
	rs, mix := loadMix(t)
	srv := serveCatalog(t, rs)
	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	defer tr.CloseIdleConnections()

	get := func(ctx context.Context, lr loadRequest) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+lr.path, nil)
		if err != nil {
			return err
		}
		if lr.accept != "" {
			req.Header.Set("Accept", lr.accept)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s (Accept %q): status %d", lr.path, lr.accept, resp.StatusCode)
		}
		if !bytes.Equal(body, lr.want) {
			return fmt.Errorf("%s (Accept %q): %d bytes differ from the codec's %d", lr.path, lr.accept, len(body), len(lr.want))
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// Warm up: every representation once, so that the caches are full.
	for _, lr := range mix {
		if err := get(ctx, lr); err != nil {
			t.Fatal(err)
		}
	}
	before := liveHeap()

	var next atomic.Int64
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(total) || ctx.Err() != nil {
					return
				}
				if err := get(ctx, mix[int(i)%len(mix)]); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(errs) > 0 {
		t.Fatalf("%d errors; first: %v", len(errs), errs[0])
	}
	tr.CloseIdleConnections()
	after := liveHeap()
	t.Logf("%d requests from %d clients in %v (%.0f req/s); live heap %d KiB before, %d KiB after",
		total, clients, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), before>>10, after>>10)
	if after > before+loadHeapBound {
		t.Errorf("live heap grew from %d to %d bytes, more than %d", before, after, loadHeapBound)
	}
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	for range 2 {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkServeADR measures requests per second and the p99 latency of
// the ADR case over a loopback connection, per format, with 8 concurrent
// clients asking by Accept.
func BenchmarkServeADR(b *testing.B) {
	var adr *wire.GraphResponse
	for _, c := range testsupport.Generated() {
		if c.Profile == corpus.TextHeavy && c.Name == corpus.ADRCase {
			adr = c.Response
		}
	}
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s.Static(adr))
	defer srv.Close()
	for _, info := range wire.List() {
		b.Run(info.Name, func(b *testing.B) {
			want, err := wire.EncodeWith(info.Name, adr)
			if err != nil {
				b.Fatal(err)
			}
			tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: time.Minute}
			var mu sync.Mutex
			lat := make([]time.Duration, 0, b.N)
			b.SetParallelism(4) // 4 × GOMAXPROCS clients
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				local := make([]time.Duration, 0, 1024)
				for pb.Next() {
					t0 := time.Now()
					req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
					req.Header.Set("Accept", info.MediaType)
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					n, err := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err != nil || resp.StatusCode != 200 || n != int64(len(want)) {
						b.Errorf("status %d, %d bytes (want %d), %v", resp.StatusCode, n, len(want), err)
						return
					}
					local = append(local, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, local...)
				mu.Unlock()
			})
			elapsed := time.Since(start)
			b.StopTimer()
			if len(lat) == 0 {
				return
			}
			slices.Sort(lat)
			p99 := lat[min(len(lat)-1, len(lat)*99/100)]
			b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(p99.Microseconds()), "p99-µs")
			b.ReportMetric(float64(len(want)), "body-B")
		})
	}
}

// realisticAccepts are Accept fields clients send: an agent that prefers
// GOON, a browser, and a generic client.
var realisticAccepts = map[string]string{
	"agent":   "text/x-goon; version=1.0.0, text/toon;q=0.9, application/json;q=0.8, */*;q=0.1",
	"browser": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
	"curl":    "*/*",
}

// BenchmarkNegotiate measures choosing a codec from a realistic Accept
// field, and reports it as a percentage of encoding the ADR case in GOON
// (the goal is at most 1%).
func BenchmarkNegotiate(b *testing.B) {
	var adr *wire.GraphResponse
	for _, c := range testsupport.Generated() {
		if c.Profile == corpus.TextHeavy && c.Name == corpus.ADRCase {
			adr = c.Response
		}
	}
	goonCodec, err := wire.Lookup("goon")
	if err != nil {
		b.Fatal(err)
	}
	// The peer, measured in the same run: the ns/op of its last round
	// is kept for the ratio.
	var encodeNs float64
	b.Run("encode-goon-adr", func(b *testing.B) {
		buf := make([]byte, 0, 1<<20)
		for b.Loop() {
			if _, err := goonCodec.AppendEncode(buf[:0], adr); err != nil {
				b.Fatal(err)
			}
		}
		encodeNs = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	s, err := wirehttp.New(nil, wirehttp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"agent", "browser", "curl"} {
		b.Run("accept-"+name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/adr", nil)
			req.Header.Set("Accept", realisticAccepts[name])
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Negotiate(req); err != nil {
					b.Fatal(err)
				}
			}
			perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			if encodeNs > 0 {
				b.ReportMetric(100*perOp/encodeNs, "%-of-goon-encode")
			}
		})
	}
}

// TestStaticFirstRequestsConcurrent: many clients asking a fresh Static
// for every format at once all get the codec's bytes and one ETag per
// format (each format is encoded once, under the race detector in CI).
func TestStaticFirstRequestsConcurrent(t *testing.T) {
	rs, mix := loadMix(t)
	srv := serveCatalog(t, rs)
	tr := &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	var mu sync.Mutex
	tags := map[string]map[string]bool{}
	var wg sync.WaitGroup
	errs := make(chan error, 16*len(mix))
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range mix {
				lr := mix[(i+g)%len(mix)]
				req, _ := http.NewRequest(http.MethodGet, srv.URL+lr.path, nil)
				if lr.accept != "" {
					req.Header.Set("Accept", lr.accept)
				}
				resp, err := client.Do(req)
				if err != nil {
					errs <- err
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || !bytes.Equal(body, lr.want) {
					errs <- fmt.Errorf("%s: status %d, %d bytes (want %d), %v", lr.path, resp.StatusCode, len(body), len(lr.want), err)
					return
				}
				key := string(lr.want)
				mu.Lock()
				if tags[key] == nil {
					tags[key] = map[string]bool{}
				}
				tags[key][resp.Header.Get("ETag")] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, set := range tags {
		if len(set) != 1 {
			t.Fatalf("one representation got %d different ETags", len(set))
		}
	}
}

// TestDeltaBaseCacheLoad: 8 clients ask for 4,000 distinct responses (the
// corpus's neighbors_s, 7 KiB of json, each with a revision of its own)
// with A-IM, so that the server is offered 4,000 distinct bases, four times
// the count bound and three times what the byte bound holds, half of the
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
	distinct := 4_000
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
