package tokens

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

func mustGet(t testing.TB, name string) Counter {
	t.Helper()
	c, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// knownCount is a text and its token counts in o200k and cl100k.
type knownCount struct {
	text          string
	o200k, cl100k int
}

func checkCounts(t *testing.T, tests []knownCount) {
	t.Helper()
	for _, tt := range tests {
		if got := count(t, O200k, tt.text); got != tt.o200k {
			t.Errorf("o200k(%q) = %d, want %d", tt.text, got, tt.o200k)
		}
		if got := count(t, Cl100k, tt.text); got != tt.cl100k {
			t.Errorf("cl100k(%q) = %d, want %d", tt.text, got, tt.cl100k)
		}
	}
}

func count(t testing.TB, name, text string) int {
	t.Helper()
	n, err := mustGet(t, name).Count([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestGet(t *testing.T) {
	for _, name := range []string{"o200k", "O200K", "o200k_base", "cl100k", "cl100k_base", "chars", "words"} {
		if _, err := Get(name); err != nil {
			t.Errorf("Get(%q): %v", name, err)
		}
	}
	_, err := Get("claude")
	if !errors.Is(err, ErrUnknownCounter) {
		t.Fatalf("Get(claude) error %v, want ErrUnknownCounter", err)
	}
	if !strings.HasPrefix(err.Error(), "tokens: ") || !strings.Contains(err.Error(), "o200k, cl100k, chars, words") {
		t.Errorf("error %q should start with the package name and list the counters", err)
	}
	var names []string
	for _, c := range All() {
		names = append(names, c.Name())
		if c.Description() == "" {
			t.Errorf("%s has no description", c.Name())
		}
		if want := c.Name() == Chars || c.Name() == Words; c.Estimate() != want {
			t.Errorf("%s.Estimate() = %v, want %v", c.Name(), c.Estimate(), want)
		}
		if c.Estimate() && !strings.HasPrefix(c.Description(), "estimate: ") {
			t.Errorf("%s: an estimate's description must say so: %q", c.Name(), c.Description())
		}
	}
	if strings.Join(names, ",") != "o200k,cl100k,chars,words" {
		t.Errorf("All() = %v", names)
	}
}

// TestKnownCounts pins counts that the reference tokenizer (tiktoken, and
// the npm gpt-tokenizer) gives; the full differential test lives in
// bench/scorecard.
func TestKnownCounts(t *testing.T) {
	tests := []knownCount{
		{"", 0, 0},
		{"hello world", 2, 2},
		{`42 iid=101 state=merged title="Fix auth bug"`, 13, 13},
		// Special-token text is ordinary text: never one special token.
		{"hello <|endoftext|> world", 9, 8},
	}
	checkCounts(t, tests)
}

func TestSpecialTokensAreText(t *testing.T) {
	for _, name := range []string{O200k, Cl100k} {
		for _, s := range []string{"<|endoftext|>", "<|endofprompt|>", "<|fim_prefix|>"} {
			if n := count(t, name, s); n < 2 {
				t.Errorf("%s counts %q as %d token(s): special-token text must count as ordinary text", name, s, n)
			}
		}
	}
}

func TestOfflineVocabulary(t *testing.T) {
	// The vocabularies are compiled in: loading them must not need the
	// network. With every proxy pointing nowhere, counting still works.
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := tokenizer.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := c.Count("offline"); err != nil || n == 0 {
			t.Errorf("%s: Count = %d, %v", enc, n, err)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	// A UTF-8 reader sees U+FFFD for each maximal invalid sequence.
	for _, name := range []string{O200k, Cl100k} {
		bad := count(t, name, "a\xffb\xe2\x82c")
		good := count(t, name, "a\uFFFDb\uFFFDc")
		if bad != good {
			t.Errorf("%s: invalid UTF-8 counts %d, its replacement %d", name, bad, good)
		}
	}
}

// TestDEL pins the counts of texts with U+007F that tiktoken 1.x (the
// official implementation, npm's WASM build) and gpt-tokenizer 4.0.0 give
// alike; the tokenizer module alone drops the character (0 and 1 for the
// first two).
func TestDEL(t *testing.T) {
	tests := []knownCount{
		{"\x7f", 1, 1},
		{"\x7f ctrl", 2, 2},
		{"\x01\x1f\x7f ctrl", 4, 4},
		{"a\x7fb", 3, 3},
		{"!\x7f!", 3, 3},
		{"\x7f\x7f\x7f", 3, 3},
		{" \x7f\n", 3, 3},
		{"x\x7fHello's", 4, 4},
	}
	checkCounts(t, tests)
}

// TestDELStandIn checks the facts that make counting DEL as the stand-in
// exact: in both vocabularies no token but the byte itself holds 0x7F or
// the stand-in, so neither merges with a neighbour; and the module's
// pre-tokenizer matches the stand-in wherever it stands (its tokens spell
// the whole text), as the reference one matches DEL.
func TestDELStandIn(t *testing.T) {
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := tokenizer.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		singles, decoded := 0, 0
		for id := uint(0); id < 210_000; id++ {
			tok, err := c.Decode([]uint{id})
			if err != nil {
				continue // not a token id
			}
			decoded++
			if strings.IndexByte(tok, 0x7f) < 0 && strings.IndexByte(tok, standIn) < 0 {
				continue
			}
			if len(tok) != 1 {
				t.Errorf("%s: token %d %q holds 0x7F or the stand-in with other bytes", enc, id, tok)
			}
			singles++
		}
		if decoded < 100_000 || singles != 2 {
			t.Errorf("%s: %d tokens decoded, %d single-byte DEL and stand-in tokens, want the vocabulary and 2", enc, decoded, singles)
		}
		for _, s := range []string{"\x02", "\x02 ctrl", "a\x02b", "!\x02!", " \x02\n", "x\x02Hello's", "\x02\x02 \x02", "1\x0223", "\t\x02\r\n"} {
			_, toks, err := c.Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(toks, "") != s {
				t.Errorf("%s: %q pre-tokenizes to %q, dropping part of it", enc, s, toks)
			}
		}
	}
	// The module drops DEL, which is what the stand-in works around; if a
	// later version stops dropping it, this says so.
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := c.Count("\x7f"); err != nil || n != 0 {
		t.Logf("the tokenizer module counts DEL as %d token(s) (%v): the stand-in may no longer be needed", n, err)
	}
}

func TestChars(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"abc", 0},     // 3 × 10 / 35 = 0
		{"abcd", 1},    // 40 / 35 = 1
		{"1234567", 2}, // 70 / 35
		{"日本語日本語日", 2}, // code points, not bytes
		{strings.Repeat("x", 350), 100},
	}
	for _, tt := range tests {
		if got := count(t, Chars, tt.text); got != tt.want {
			t.Errorf("chars(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"   \n\t", 0},
		{"hello", 1},
		{"hello world", 2},
		{"a.b_c9", 1},                     // one run of [A-Za-z0-9_.]
		{"a-b", 3},                        // '-' is punctuation
		{`{"id":"1"}`, 9},                 // { " id " : " 1 " }
		{"User:1 --> MergeRequest:42", 9}, // User : 1 - - > MergeRequest : 42
		{"héllo", 3},                      // h, é, llo
		{"日本 語", 3},                       // each non-space rune
		{"emoji 😀👍🏽", 4},                  // emoji, 😀, 👍, 🏽
		{"a\u00a0b", 2},                   // no-break space is white space
	}
	for _, tt := range tests {
		if got := count(t, Words, tt.text); got != tt.want {
			t.Errorf("words(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	text := []byte(strings.Repeat(`{"type":"User","id":"1","username":"alice"}`, 50))
	want := map[string]int{}
	for _, c := range All() {
		want[c.Name()], _ = c.Count(text)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range All() {
				if n, err := c.Count(text); err != nil || n != want[c.Name()] {
					t.Errorf("%s concurrently: %d, %v; want %d", c.Name(), n, err, want[c.Name()])
				}
			}
		}()
	}
	wg.Wait()
}

// TestTokenizerModuleMatchesGoMod keeps TokenizerModule (printed in the
// scorecard header) in step with the version the module builds with.
func TestTokenizerModuleMatchesGoMod(t *testing.T) {
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	path, version, _ := strings.Cut(TokenizerModule, " ")
	found := false
	for _, line := range bytes.Split(gomod, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) >= 2 && (f[0] == path || len(f) >= 3 && f[0] == "require" && f[1] == path) {
			got := f[1]
			if f[0] == "require" {
				got = f[2]
			}
			found = true
			if got != version {
				t.Errorf("go.mod requires %s %s, TokenizerModule says %s", path, got, version)
			}
		}
	}
	if !found {
		t.Errorf("go.mod does not require %s", path)
	}
}

// oneMB returns 1 MiB of corpus-like text: canonical JSON with prose.
func oneMB(tb testing.TB) []byte {
	tb.Helper()
	unit := []byte(`{"type":"MergeRequest","id":"482927048","iid":18,"state":"merged","title":"chore: move skill to project scope",` +
		`"created_at":"2026-05-08 22:55:58.467450","description":"## What does this MR do?\n\nThis change reduces the number ` +
		`of queries issued by the finder from O(n) to O(1). Déjà vu — 日本語 🎉\n\n- [ ] Tested on Firefox"},`)
	var b bytes.Buffer
	for b.Len() < 1<<20 {
		b.Write(unit)
	}
	return b.Bytes()[:1<<20]
}

// BenchmarkCount1MB counts 1 MiB of text with each counter; MB/s is the
// figure to read (o200k must stay above 1 MB/s).
func BenchmarkCount1MB(b *testing.B) {
	text := oneMB(b)
	for _, name := range Names() {
		c := mustGet(b, name)
		if _, err := c.Count([]byte("warm up")); err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Count(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
