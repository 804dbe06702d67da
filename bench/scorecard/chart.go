package scorecard

import (
	"bytes"
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/graphwire/graphwire/bench/corpus"
)

// Chart is one generated SVG chart: its file name (beside the markdown
// that links it), its title (the link's text) and its bytes.
type Chart struct {
	Name  string
	Title string
	SVG   []byte
}

// palette colours the text formats, in Formats order: colour-blind-safe
// hues (Okabe and Ito).
var palette = []color.RGBA{
	{0, 0, 0, 255},       // black
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky blue
	{0, 158, 115, 255},   // bluish green
	{204, 121, 167, 255}, // reddish purple
	{0, 114, 178, 255},   // blue
	{213, 94, 0, 255},    // vermillion
	{240, 228, 66, 255},  // yellow
}

// slug is a profile's part of a chart's file name.
func slug(p string) string {
	if p == "" {
		return "corpus"
	}
	return p
}

// Charts draws the card's charts, named stem-KIND-PROFILE.svg: per profile,
// the o200k saving of each text format in each case, and the o200k tokens
// of each text format against the case's node count (rows for an
// aggregation). Same card, same bytes: the SVG holds no date, no random id
// and no embedded font, and its numbers are printed by strconv.
func (c *Card) Charts(stem string) ([]Chart, error) {
	var out []Chart
	profiles := c.Profiles()
	if c.Stdlib != nil && len(c.casesOf(corpus.Stdlib)) > 0 {
		profiles = append(profiles, corpus.Stdlib)
	}
	for _, p := range profiles {
		s, err := c.savingChart(p)
		if err != nil {
			return nil, err
		}
		out = append(out, Chart{Name: stem + "-saving-" + slug(p) + ".svg", Title: "o200k saving against JSON per case, " + profileLabel(p), SVG: s})
	}
	for _, p := range profiles {
		s, err := c.tokensChart(p)
		if err != nil {
			return nil, err
		}
		out = append(out, Chart{Name: stem + "-tokens-" + slug(p) + ".svg", Title: "o200k tokens against nodes, " + profileLabel(p), SVG: s})
	}
	return out, nil
}

// textFormats returns the indices of the text formats, the baseline
// included when withBase is set.
func (c *Card) textFormats(withBase bool) []int {
	var out []int
	for fi, f := range c.Formats {
		if f.Text && (withBase || fi != 0) {
			out = append(out, fi)
		}
	}
	return out
}

func (c *Card) casesOf(p string) []Case {
	var out []Case
	for _, cs := range c.Cases {
		if cs.Profile == p {
			out = append(out, cs)
		}
	}
	return out
}

// sans sets every text of p in Liberation Sans (metrics from the fonts
// gonum/plot carries; an SVG viewer without it substitutes a sans-serif).
func sans(p *plot.Plot, l *plot.Legend) {
	for _, s := range []*font.Font{
		&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &l.TextStyle.Font,
	} {
		s.Typeface, s.Variant = "Liberation", "Sans"
	}
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(8)
	l.Padding = vg.Points(5)
}

// powerTicks marks the powers of ten on a log axis, labelled with
// thousands separators, and unlabelled minor ticks between them.
type powerTicks struct{}

func (powerTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for p := 1.0; p <= hi*10; p *= 10 {
		if p >= lo/10 {
			for m := 1.0; m < 10; m++ {
				if v := p * m; v >= lo && v <= hi {
					t := plot.Tick{Value: v}
					if m == 1 {
						t.Label = num(int(v))
					}
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// percentTicks marks every 25 points from -100 to 100.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for v := -100.0; v <= 100; v += 25 {
		if v >= lo && v <= hi {
			out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64) + "%"})
		}
	}
	return out
}

// render draws p with the legend l in a strip on its right and returns the
// SVG.
func render(p *plot.Plot, l plot.Legend, w, h, legendWidth vg.Length) ([]byte, error) {
	canvas := vgsvg.New(w, h)
	dc := draw.New(canvas)
	// An opaque background under the plot and the legend alike, so that
	// the dark text stays legible on a dark page.
	dc.FillPolygon(color.White, []vg.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}})
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	l.Top = true
	l.Left = true
	l.Draw(draw.Crop(dc, w-legendWidth+vg.Points(8), 0, 0, -vg.Points(40)))
	var b bytes.Buffer
	if _, err := canvas.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("scorecard: chart: %w", err)
	}
	return b.Bytes(), nil
}

// savingChart: horizontal bars, one group per case (first case at the
// top), one bar per text format other than JSON.
func (c *Card) savingChart(profile string) ([]byte, error) {
	cases := c.casesOf(profile)
	formats := c.textFormats(false)
	p := plot.New()
	l := plot.NewLegend()
	sans(p, &l)
	p.Title.Text = "o200k saving against JSON, " + profileLabel(profile) + " (median in the legend)"
	p.X.Label.Text = "o200k saving; positive is smaller than JSON"
	p.X.Min, p.X.Max = -100, 100
	p.X.Tick.Marker = percentTicks{}
	names := make([]string, len(cases))
	for i, cs := range cases {
		names[len(cases)-1-i] = cs.Name
	}
	p.NominalY(names...)
	p.Add(plotter.NewGrid())
	barW := vg.Points(4)
	for k, fi := range formats {
		vals := make(plotter.Values, len(cases))
		for i, cs := range cases {
			vals[len(cases)-1-i] = saving(cs.Results[0].Tokens[0], cs.Results[fi].Tokens[0])
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return nil, fmt.Errorf("scorecard: chart: %w", err)
		}
		bars.Horizontal = true
		bars.Color = palette[(k+1)%len(palette)]
		bars.LineStyle.Width = 0
		bars.Offset = barW * vg.Length(float64(len(formats)-1)/2-float64(k))
		p.Add(bars)
		l.Add(fmt.Sprintf("%s%s (%s)", c.Formats[fi].Name, c.lossyMark(profile, fi), pct(c.medianSaving(profile, fi, 0))), bars)
	}
	h := vg.Points(float64(90 + 22*len(cases)))
	return render(p, l, vg.Points(720), h, vg.Points(170))
}

// tokensChart: o200k tokens against node count, both on log scales, one
// marker series per text format.
func (c *Card) tokensChart(profile string) ([]byte, error) {
	cases := c.casesOf(profile)
	p := plot.New()
	l := plot.NewLegend()
	sans(p, &l)
	p.Title.Text = "o200k tokens against nodes, " + profileLabel(profile)
	p.X.Label.Text = "nodes (rows for an aggregation), log scale"
	p.Y.Label.Text = "o200k tokens, log scale"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = powerTicks{}, powerTicks{}
	p.Add(plotter.NewGrid())
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{}, draw.RingGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}
	for k, fi := range c.textFormats(true) {
		var pts plotter.XYs
		for _, cs := range cases {
			if n, t := cs.Nodes, cs.Results[fi].Tokens[0]; n > 0 && t > 0 {
				pts = append(pts, plotter.XY{X: float64(n), Y: float64(t)})
			}
		}
		slices.SortStableFunc(pts, func(a, b plotter.XY) int {
			switch {
			case a.X < b.X:
				return -1
			case a.X > b.X:
				return 1
			}
			return 0
		})
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("scorecard: chart: %w", err)
		}
		s.GlyphStyle.Color = palette[k%len(palette)]
		s.GlyphStyle.Shape = shapes[k%len(shapes)]
		s.GlyphStyle.Radius = vg.Points(3.5)
		p.Add(s)
		l.Add(c.Formats[fi].Name+c.lossyMark(profile, fi), s)
	}
	return render(p, l, vg.Points(640), vg.Points(460), vg.Points(110))
}

// lossyMark is ", lossy" for a format that loses information in some case
// of profile (its saving is not like for like), and "" otherwise.
func (c *Card) lossyMark(profile string, fi int) string {
	for _, cs := range c.Cases {
		if cs.Profile == profile && cs.Results[fi].RoundTrip == Lossy {
			return ", lossy"
		}
	}
	return ""
}
