package cli

// tokens counts the tokens of a text. It counts text only: input that is
// not UTF-8 text, or that looks like a binary codec's encoding, is refused
// with an error that says it is binary (and which codec it looks like),
// since a tokenizer's count of raw bytes means nothing to a reader. With
// -f NAME or -f auto the input must also be a valid encoding of that codec
// (or of the detected one), so that a count is never of a broken document.

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/graphwire/graphwire/tokens"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

func runTokens(env *Env, flags *flag.FlagSet) error {
	name := flags.String("t", tokens.O200k, "counter: "+strings.Join(tokens.Names(), ", ")+", or all")
	format := flags.String("f", "", "check that the input is a valid `NAME` document first (auto: detect the codec)")
	if err := parseFlags(flags, env, oneFile); err != nil {
		return err
	}
	var counters []tokens.Counter
	if strings.EqualFold(*name, "all") {
		counters = tokens.All()
	} else {
		c, err := tokens.Get(*name)
		if err != nil {
			return usagef("-t %q: unknown counter (have: %s, all)", *name, strings.Join(tokens.Names(), ", "))
		}
		counters = []tokens.Counter{c}
	}
	var codec wire.Codec
	if *format != "" && !strings.EqualFold(*format, Auto) {
		var err error
		if codec, err = wire.Lookup(*format); err != nil {
			return usagef("%v", err)
		}
		if codec.Info().Binary {
			return usagef("-f %s: %s is binary; tokens counts text (convert it first: wirebench convert -from %s -to goon)", *format, codec.Info().Name, codec.Info().Name)
		}
	}
	label, data, err := readInput(env, flags.Args())
	if err != nil {
		return err
	}
	if err := checkText(data); err != nil {
		return fmt.Errorf("%s%w", label, err)
	}
	if strings.EqualFold(*format, Auto) {
		if codec, err = detect(data); err != nil {
			return fmt.Errorf("%s%w", label, err)
		}
	}
	if codec != nil {
		if _, err := codec.Decode(data); err != nil {
			return fmt.Errorf("%s%w%s", label, err, looksLike(data, codec.Info().Name))
		}
	}
	// Count everything first: nothing is printed unless every count works.
	var out strings.Builder
	for _, c := range counters {
		n, err := c.Count(data)
		if err != nil {
			return err
		}
		if len(counters) == 1 {
			fmt.Fprintf(&out, "%d\n", n)
			continue
		}
		label := c.Name()
		if c.Estimate() {
			label += " (estimate)"
		}
		fmt.Fprintf(&out, "%-18s %d\n", label, n)
	}
	_, err = io.WriteString(env.Stdout, out.String())
	return err
}

// checkText refuses binary input: a binary codec's encoding, or bytes that
// are not UTF-8 text.
func checkText(data []byte) error {
	if g := wirecodec.Sniff(wire.DefaultRegistry(), data); len(g) > 0 && g[0].Confidence >= minConfidence {
		if c, err := wire.Lookup(g[0].Name); err == nil && c.Info().Binary {
			return fmt.Errorf("the input is binary (it looks like %s); tokens counts text (convert it first: wirebench convert -from %s -to goon)", g[0].Name, g[0].Name)
		}
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return fmt.Errorf("the input is binary (not UTF-8 text; it starts %s); tokens counts text", excerpt(data))
	}
	return nil
}
