// Package corpus is graphwire's benchmark corpus: GitLab-like graph query
// results, generated from a fixed seed and committed beside this package as
// canonical-JSON files (bench/corpus/NAME.json).
//
// # What is in it
//
// Users, groups, projects, merge requests, issues, pipelines and
// vulnerabilities, with the property sets a GitLab knowledge graph returns
// for them and the values real data has: quotes, newlines (some written
// on Windows, \r\n), tabs, unicode and emoji, markdown descriptions past
// GOON's truncation limits, ClickHouse datetimes with and without
// microseconds, ids above 2^53, floats (whole ones such as 7.0 included),
// nulls, empty strings, booleans, strings that read as literals ("null",
// "true"), special-token text (<|endoftext|>) and collect lists.
//
// Every query type comes in sizes S (at most 10 nodes), M (about 100) and
// L (about 1,000; for aggregation, rows), plus:
//
//   - traversal_adr_50u_200mr: ADR 012's example, 50 users, 200 merge
//     requests and 200 AUTHORED edges, with the columns a traversal
//     selects;
//   - traversal_xl: 20,000 nodes for speed measurements;
//   - traversal_depth_m, search_pipelines_m, neighbors_vulnerabilities_m,
//     aggregation_scalar_s: shapes that stress one kind of value each.
//
// # Regenerating
//
// The files are a pure function of Seed (the generator carries its own
// SplitMix64 stream, so no Go release changes them):
//
//	go run ./cmd/wirebench gen        # or: go generate ./bench/corpus
//
// rewrites them byte for byte; a test checks that it does. Reference
// loads GKG's own reference inputs (GOON_REFERENCE_DIR) for measurements
// beside the corpus; they are not committed here.
package corpus

//go:generate go run ../../cmd/wirebench gen -o .
