// Package scorecard measures what each wire format costs a reader of the
// corpus — bytes, o200k and cl100k tokens, the two estimates the source
// documents used — and where those tokens go, and writes it as
// scorecard.md at the module root with SVG charts beside it.
//
// # Rows
//
// One row per registered codec (the baseline, compact canonical JSON,
// first) and two peer rows: json-pretty, the canonical JSON indented by
// two spaces, and toon-plain, the canonical JSON document converted to TOON
// as the reference TOON library does (what a user gets without a
// graph-aware layout). Binary codecs have bytes only. Every row also
// records whether the format reads back to the same response (exact, equal
// with numbers by value, lossy, or not at all when the decoder rejects the
// encoder's output), and the losses table says what each format drops, so
// that no row is read as like for like when it is not.
//
// # Profiles
//
// The corpus comes in profiles (package corpus: lean, dated, text-heavy);
// every median is over the cases of one profile, and every summary table
// and chart is drawn per profile. Generate measures only the cases every
// profile has (and names the others), so that every profile's medians are
// over the same case set.
//
// # Equal information
//
// A lossy format's saving is partly information it drops. For each lossy
// text format (GOON), every case is read back with the format's decoder
// and the read-back written as canonical JSON — JSON carrying exactly the
// information the format carries — and Survival records its o200k count,
// the share of the case's values (node properties and row cells) that
// read back equal, numbers by value, and the share of its string code
// points that read back in place. The equal-information section gives,
// per profile, the saving against JSON beside the saving against that
// JSON. The test suite counts every read-back JSON with gpt-tokenizer.
//
// # Spread
//
// The generator is drawn again, in memory, from corpus.SpreadSeeds; the
// spread section gives each profile's median o200k saving of gcf, goon and
// toon on the committed seed beside the median and range of those medians
// over all the seeds (SpreadTexts are the texts, which the test suite
// counts with gpt-tokenizer too). A corpus of one's own (canonical-JSON
// files directly in a directory) is one profile, "your corpus"; its
// subdirectories, if any, are profiles named after them.
//
// # Real data
//
// Beside the generated profiles, the repository's scorecard measures
// corpus.Stdlib ("go-stdlib"), a code graph of the Go standard library
// of the toolchain that generates it (corpus.GenerateStdlib, read from
// GOROOT/src at scorecard time and never committed; BuildWithStdlib). It
// is drawn apart, in parts of its own, each between the markers
// "<!-- go-stdlib: generated under goX.Y.Z -->" and "<!-- /go-stdlib -->",
// and in two charts of its own (scorecard-saving-go-stdlib.svg,
// scorecard-tokens-go-stdlib.svg): its section gives its provenance (Go
// version, packages, licence), its median savings of every text format
// and, for gcf, goon and toon, the median and range of the medians over
// corpus.StdlibSets (its spread, as seeds are the generated profiles');
// its table by profile, its anatomy, its budgets and its cases follow the
// others'. Card.Profiles leaves it out, so every table across profiles
// (summary, spread, equal information, GCF's claims, budgets) reads as
// before, and the file without those parts is, byte for byte, the file
// without the profile.
//
// That is what lets -check run under any Go version: CheckCommitted reads
// the Go version the committed file names (CommittedGoVersion); under that
// version it checks everything, and under another, or with no toolchain
// at hand, it checks the file without the go-stdlib parts and the other
// charts, and returns a *GoVersionMismatch that says the profile was not
// checked and why. The test suite counts every go-stdlib text, its spread
// included, with gpt-tokenizer.
//
// # Token anatomy
//
// Each text format's o200k count of a case is split in two parts that add
// up to it:
//
//   - values: the o200k tokens of the values as the format writes them,
//     each value's text counted alone and the counts summed. The values are
//     the response's data: every node property value, every row cell value,
//     and the properties of a node a row groups by. A value's text is what
//     the format writes for it, less the quotes that delimit a string:
//     JSON's escaped string contents and number literals; TOON's primitive
//     as the TOON encoder writes it (the same for toon and toon-plain);
//     GCF's scalar as the gcf codec writes it after key= or in a cell (null
//     as -); for
//     GOON, what GOON's encoder writes for the value under its key — found
//     by encoding the value alone, in a one-node response or a one-cell
//     aggregation, and cutting it out of the line — so a truncated text
//     counts as written (cut, with "..."), a datetime in T-form, and a null
//     or empty string a node row omits as nothing. A list is its elements,
//     one by one, where the format writes them as items (JSON, TOON, GCF), and
//     one text where it writes the list as one value (GOON's JSON text).
//     A node that several rows group by counts once per row where the
//     format repeats it (JSON, TOON, GCF) and once in GOON, which lists it once;
//   - structure: the rest — keys, types, ids, edges, headers, punctuation,
//     layout — defined as the total minus values. Counting a value alone
//     can differ by a token from counting it in place, where BPE may merge
//     it with a neighbouring quote or space; structure absorbs that, so
//     the two parts always add up to the total.
//
// A lossless format carries all of JSON's values and can save only
// structure; a format whose value part falls below JSON's drops or
// rewrites values, as GOON's truncation does. The test suite counts every
// value text with gpt-tokenizer too.
//
// # Token budgets
//
// For each registered text codec (json, gcf, goon, toon; the peers are not
// codecs and cannot be paged) and each budget of BudgetSizes (2K, 8K and
// 32K o200k tokens), a fit.Pager cuts the case into pages as fit.Page does:
// a page is the longest prefix of the response's graph-whole units, in
// the server's order, whose encoding in the codec costs at most the
// budget by o200k. Recorded per case: the items (nodes + edges + rows)
// of the first page against the case's, the first page's tokens, and the
// pages that hold the whole (0, printed n/a, when some unit alone exceeds
// the budget). The summary table gives, per profile and codec, the median
// share of items the first page delivers and the median page count (a
// case that cannot be paged counts as infinitely many pages, so n/a
// shows when it is the median); the per-case tables give every figure.
// One Pager prices each case and codec once for all budgets — one
// tokenization of the whole, crediting each token to its segment — and
// then prices each page from those segments, so it costs about one more
// o200k count of each codec's output plus the walk through the pages.
// The test suite checks the figures of the small cases and the ADR case
// against fit.Page, and counts every case's first page of the smallest
// budget with gpt-tokenizer.
//
// # Sessions
//
// The session section prices what an agent pays for a conversation
// rather than a response, on corpus.Sessions (SessionCount simulated
// sessions per profile of 5–10 queries of mixed types over one universe
// of entities, from the corpus's seed, each query with its re-queries
// after corpus.RequeryRates of its nodes changed) and on
// corpus.ADRSession (ADR 012's example as a 10-query session), in the
// registered text codecs SessionFormats (ADRSessionFormats for the ADR
// session), in o200k tokens:
//
//   - whole: every response encoded alone;
//   - with references: the session's responses encoded in order in one
//     writer's delta.Session (Session.Encode, a document of the codec:
//     delta.DocumentCodec);
//   - with deltas: each re-query answered with delta.Diff between the
//     earlier and the new response as the codec carries them (encoded and
//     decoded, what its client holds), written by delta.EncodeWith, when
//     delta.Worth says it costs under 60% of the full response, and with
//     the full response otherwise (also when the codec's delta syntax
//     refuses that delta, counted as Requery.Refused); and the same
//     re-queries encoded in the session that delivered the first answers.
//
// The re-queries churn (corpus.Sessions): nodes edited, removed with their
// edges and added with edges, at each of corpus.RequeryRates (1, 5, 20 and
// 50%). The section states what the figures assume (the earlier response
// still in the agent's context), gives per rate the share of re-queries
// sent as a delta and refused by the syntax, and splits them by the size
// of the response asked again (SizeClasses).
//
// The section gives, per profile and codec, the medians over the
// sessions of each session's totals and savings, beside knowing's 81.2%
// fewer tokens at 96.6% overlap and ADR 012's 50,000–80,000 tokens per
// session, and the ADR session's totals. A codec without a session or a
// delta syntax gets those words instead of a number (Unavailable). It is
// drawn for the generated corpus only; the test suite counts every text
// it counts (SessionTexts) with gpt-tokenizer.
//
// # Charts
//
// Per profile, two SVG charts: the o200k saving of each text format in
// each case (horizontal bars, the profile's median in the legend), and the
// o200k tokens of each text format against the case's node count (rows for
// an aggregation) on log–log axes. They are drawn with gonum.org/v1/plot
// and its SVG backend, which writes no date, no random id and no embedded
// font, with numbers printed by strconv, so the same card gives the same
// bytes; on an opaque white background, legend included, so that they read
// alike on a light and a dark page; a lossy format is marked ", lossy" in
// the legend; text is set in Liberation Sans (the metrics gonum/plot carries),
// which a viewer without the font replaces with a sans-serif. The files
// are named after the markdown file: scorecard-saving-lean.svg,
// scorecard-tokens-lean.svg and so on, and the markdown links them.
//
// # Sections
//
// The markdown is a list of section functions (sections, in render.go):
// intro, summary, spread over seeds, charts, per-profile summaries,
// losses, equal information, ADR 012's example, GCF's published claims beside gcf's measured savings (against
// toon-plain, toon, json and json-pretty, o200k and cl100k), token
// anatomy, token budgets, sessions, cases. A further section is a
// function added to that list.
//
// # Regenerating and checking
//
//	go run ./cmd/wirebench scorecard          # rewrite scorecard.md and its charts
//	go run ./cmd/wirebench scorecard -check   # exit 1 with a diff summary if any is stale
//	                                          # (go-stdlib: only under the Go version the file names)
//	go run ./cmd/wirebench scorecard -corpus DIR -o FILE   # your own files
//
// The files are byte-stable: they hold no timings, dates or map order, and
// the same corpus, codecs and Go version give the same bytes on any
// machine and any number of CPUs. The test suite runs the check against the committed
// files, renders every chart with rsvg-convert, and compares every token
// count with the npm package gpt-tokenizer (GPTTokenizerVersion), an
// independent implementation.
//
// No tokenizer is published for current Claude models; the scorecard says
// so rather than approximating one.
package scorecard
