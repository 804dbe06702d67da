// Package speed measures how fast each registered codec encodes and
// decodes the benchmark corpus, beside encoding/json on a generic
// map[string]any as the reference, and reports ns/op, MB/s, bytes and
// allocations per operation, with each codec's speed-up against the
// reference on the same case.
//
// Run bounds its work by time: each measurement runs in rounds of growing
// length, as testing.B does, until one round lasts Options.Budget, so every
// codec over the whole corpus finishes in minutes whatever the case sizes.
// Timings are printed (wirebench bench, -json for machines), never
// committed as facts. The same measurements exist as Go benchmarks:
//
//	go test -bench . ./bench/speed    # BenchmarkEncode/<codec>/<case>, BenchmarkDecode/...
package speed
