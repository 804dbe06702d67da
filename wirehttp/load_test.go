package wirehttp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
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
