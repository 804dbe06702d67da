// Package corpus is graphwire's benchmark corpus: GitLab-like graph query
// results, generated from a fixed seed and committed beside this package as
// canonical-JSON files, one directory per profile
// (bench/corpus/PROFILE/NAME.json).
//
// # Profiles
//
// How much a format saves depends on how much of a response is values
// rather than structure, so every case comes in three profiles. They hold
// the same entities (each case draws from the same stream in every
// profile); only the properties differ:
//
//   - lean: what GKG's own fixtures show — identity columns, a state, a
//     short title (User username, name, state; Group and Project name,
//     full_path; MergeRequest and Issue iid, title, state; Pipeline iid,
//     status, ref; Vulnerability title, severity, state); no timestamps,
//     no long text, and no aggregate over a timestamp;
//   - dated: lean plus every timestamp property (ClickHouse datetimes,
//     half of them with microseconds, and dates) and the aggregates over
//     them;
//   - text-heavy: every property, as below.
//
// The XL traversal is in text-heavy only: it exists for speed, and its
// columns are already few.
//
// Load reads a directory of one's own files too: *.json files directly in
// the directory are cases without a profile, and those in its immediate
// subdirectories cases of the profile each subdirectory names.
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
// Pagination comes in both schemas: neighbors_m, neighbors_l and
// path_finding_l carry what GKG serves today (schema v5: has_more,
// truncated and, for the neighbours, an opaque next_cursor; schema v5 has
// no search query type, so no search carries it); traversal_depth_m, the
// searches, aggregation_m and traversal_xl the v2 form (has_more,
// total_rows).
//
// # Real data: the Go standard library
//
// The profile Stdlib ("go-stdlib") is text nobody here wrote: a code graph
// of the Go standard library of the toolchain at hand, GOROOT/src
// (BSD-3-Clause, the Go project's licence). GenerateStdlib reads it
// offline with go/parser, go/ast and go/doc, without type checking:
// packages (import path, name, synopsis, file count), their exported
// functions, methods, types, constants and variables (name, package,
// receiver, signature or declaration, doc comment, position, whether it
// is deprecated, parameter or member counts), and IMPORTS, DECLARES,
// HAS_METHOD, CALLS and REFERENCES edges between them. Files are chosen
// as a linux/amd64 build without cgo would choose them, on any machine. It
// parses the packages of StdlibSets (about 55, in about a second) and
// draws from each set the fifteen cases StdlibCaseNames lists: every
// query type in sizes S, M and L, as questions about code (see
// stdlibSpecs). The first set is the profile; the others its spread.
//
// The profile is a pure function of the Go version (GoVersion, from
// GOROOT/VERSION): it is generated when the scorecard is, never written
// to this directory by default nor committed; `wirebench gen -stdlib -o
// DIR` writes it out for reading.
//
// # Regenerating
//
// The files are a pure function of Seed (the generator carries its own
// SplitMix64 stream, so no Go release changes them):
//
//	go run ./cmd/wirebench gen        # or: go generate ./bench/corpus
//
// rewrites them byte for byte; a test checks that it does.
// GenerateSeed draws the same cases from another seed, in memory (the
// scorecard measures its spread over SpreadSeeds); those are never
// written. Reference
// loads GKG's own reference inputs (GOON_REFERENCE_DIR) for measurements
// beside the corpus; they are not committed here.
package corpus

//go:generate go run ../../cmd/wirebench gen -o .
