package scorecard

import (
	"bytes"
	"context"
	"image"
	stdpng "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/internal/testsupport"
)

// TestCommittedChartsRender renders every committed chart with
// rsvg-convert (librsvg, Debian's librsvg2-bin) to PNG, failing when one
// does not parse. It skips when rsvg-convert is missing, and fails then
// when CI is set.
func TestCommittedChartsRender(t *testing.T) {
	rsvg := testsupport.Tool(t, "rsvg-convert", "apt-get install -y librsvg2-bin")
	charts, err := filepath.Glob(filepath.Join(root(t), "scorecard-*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * (len(corpus.Profiles()) + 1); len(charts) != want { // and go-stdlib
		t.Fatalf("%d committed charts, want %d", len(charts), want)
	}
	out := t.TempDir()
	for _, svg := range charts {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		png := filepath.Join(out, strings.TrimSuffix(filepath.Base(svg), ".svg")+".png")
		msg, err := exec.CommandContext(ctx, rsvg, "-o", png, svg).CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("rsvg-convert %s: %v\n%s", filepath.Base(svg), err, msg)
			continue
		}
		b, err := os.ReadFile(png)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 10_000 {
			t.Errorf("%s: rendered %d bytes, not a PNG of a chart", filepath.Base(svg), len(b))
		}
		// On a light and on a dark page (GitHub's dark background), the
		// legend's corner is the chart's own white: its text, drawn in
		// black, stays legible on both.
		for _, bg := range []string{"#ffffff", "#0d1117"} {
			png := filepath.Join(out, strings.TrimSuffix(filepath.Base(svg), ".svg")+"-"+bg[1:]+".png")
			if msg, err := exec.Command(rsvg, "-b", bg, "-o", png, svg).CombinedOutput(); err != nil {
				t.Fatalf("rsvg-convert -b %s %s: %v\n%s", bg, filepath.Base(svg), err, msg)
			}
			f, err := os.Open(png)
			if err != nil {
				t.Fatal(err)
			}
			img, err := stdpng.Decode(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			bounds := img.Bounds()
			for _, pt := range []image.Point{{bounds.Max.X - 4, 4}, {bounds.Max.X - 4, bounds.Max.Y - 4}, {4, 4}} {
				if r, g, b, _ := img.At(pt.X, pt.Y).RGBA(); r>>8 < 0xf0 || g>>8 < 0xf0 || b>>8 < 0xf0 {
					t.Errorf("%s on %s: pixel %v is %02x%02x%02x, not the chart's white background", filepath.Base(svg), bg, pt, r>>8, g>>8, b>>8)
				}
			}
		}
	}
	// A broken chart fails: the check can fail.
	bad := filepath.Join(out, "bad.svg")
	if err := os.WriteFile(bad, []byte(`<svg xmlns="http://www.w3.org/2000/svg"><path d=`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(rsvg, "-o", filepath.Join(out, "bad.png"), bad).Run(); err == nil {
		t.Error("rsvg-convert accepted a truncated SVG")
	}
}

// TestChartsAreByteStable: the same card gives the same SVG bytes, with no
// date or generator noise in them.
func TestChartsAreByteStable(t *testing.T) {
	card, err := Build(smallCorpus(t))
	if err != nil {
		t.Fatal(err)
	}
	a, err := card.Files("out.md")
	if err != nil {
		t.Fatal(err)
	}
	b, err := card.Files("out.md")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("files differ between renderings:\n%s", diff)
	}
	want := []string{"out.md"}
	for _, kind := range []string{"saving", "tokens"} {
		for _, p := range corpus.Profiles() {
			want = append(want, "out-"+kind+"-"+p+".svg")
		}
	}
	if diff := cmp.Diff(sortedNames(a), sortedNames(mapOf(want))); diff != "" {
		t.Errorf("file names (-got +want):\n%s", diff)
	}
	for n, data := range a {
		if !strings.HasSuffix(n, ".svg") {
			if !bytes.Contains(data, []byte("]("+strings.TrimSuffix(n, ".md"))) {
				t.Errorf("%s links no chart", n)
			}
			continue
		}
		if !bytes.Contains(a["out.md"], []byte("("+n+")")) {
			t.Errorf("out.md does not link %s", n)
		}
		for _, noise := range []string{"2026-", "id=\"", "base64"} {
			if bytes.Contains(data, []byte(noise)) {
				t.Errorf("%s holds %q", n, noise)
			}
		}
	}
}

func mapOf(names []string) map[string][]byte {
	m := map[string][]byte{}
	for _, n := range names {
		m[n] = nil
	}
	return m
}

// TestOwnCorpus: a directory of one's own canonical-JSON files gives the
// same sections, its cases under "your corpus", and charts named after
// the output file.
func TestOwnCorpus(t *testing.T) {
	dir := t.TempDir()
	files, err := corpus.Files(smallCorpus(t)[:3])
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := Generate(dir, filepath.Join("somewhere", "mine.md"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"mine.md", "mine-saving-corpus.svg", "mine-tokens-corpus.svg"}, sortedNames(out)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	md := string(out["mine.md"])
	for _, want := range []string{
		"3 cases from your own canonical-JSON files (your corpus)",
		"| format      | round trip | your corpus |",
		"### your corpus (3 cases)",
		"## Token anatomy", "## Charts", "## Cases",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("mine.md lacks %q", want)
		}
	}
	if strings.Contains(md, "seed 20260510") {
		t.Error("mine.md describes the generated corpus")
	}
}
