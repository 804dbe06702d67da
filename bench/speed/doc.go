// Package speed measures how fast each registered codec encodes and
// decodes the benchmark corpus, beside the JSON libraries a Go service
// would otherwise use, and reports ns/op, MB/s, bytes and allocations per
// operation, with each row's speed-up against encoding/json on the same
// case.
//
// # Rows
//
//   - encoding/json (the reference): encoding/json on typed structs that
//     mirror the canonical JSON (structs.go): every part whose keys are
//     fixed is a struct; a node and a row, whose keys are its properties,
//     are map[string]any, the one part no struct can name in advance;
//   - encoding/json-any: encoding/json on a generic map[string]any;
//   - goccy/go-json and bytedance/sonic: the JSON libraries users pick for
//     speed, on the same typed structs, each with its default
//     configuration (sonic.ConfigDefault: no HTML escaping, map keys
//     unsorted). sonic's fast path covers amd64 and arm64 on Go up to 1.27;
//     elsewhere it falls back to encoding/json, and its row then measures
//     that;
//   - every registered codec, encoding the wire.GraphResponse and decoding
//     its own output.
//
// A JSON library's decode reads its own encoding of the typed structs.
//
// # One yardstick
//
// MB/s is the size of the case's canonical JSON divided by the time per
// operation, for every row: the same work, measured the same way, whatever
// the size of a row's own encoding (a binary codec's output is smaller, a
// pretty one larger). Bytes still reports each row's own encoded size.
//
// Run bounds its work by time: each measurement runs in rounds of growing
// length, as testing.B does, until one round lasts Options.Budget, so every
// row over the whole corpus finishes in minutes whatever the case sizes.
// With Options.Rounds (wirebench bench -rounds N) every row of a case is
// measured N times in turn and each operation reported by its fastest
// round: on a shared machine one round's ratio to sonic can move by a
// third with a collection or a burst of other load, the fastest of three
// by a few percent.
// Timings are printed (wirebench bench, -json for machines), never
// committed as facts; WriteTable ends with each row's medians over the
// cases (Report.Medians, also in the JSON): MB/s, the speed-up against
// encoding/json, the ratio of its MB/s to bytedance/sonic's on the same
// case (the fastest JSON library is the bar a codec is held to), and
// allocations per encode and per decode. The same measurements exist as Go benchmarks, the peers in the
// same run:
//
//	go test -bench . ./bench/speed    # BenchmarkEncode/<row>/<profile>_<case>, BenchmarkDecode/...
package speed
