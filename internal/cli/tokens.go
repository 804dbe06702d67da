package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/graphwire/graphwire/bench/tokens"
)

func init() {
	register("tokens", "count the tokens of a file or stdin (o200k, cl100k; chars, words are estimates)", runTokens)
}

func runTokens(env *Env) error {
	flags := newFlags(env, "tokens")
	name := flags.String("t", tokens.O200k, "counter: "+strings.Join(tokens.Names(), ", ")+", or all")
	if err := parseFlags(flags, env); err != nil {
		return err
	}
	if flags.NArg() > 1 {
		return usagef("at most one FILE (got %d arguments)", flags.NArg())
	}
	var counters []tokens.Counter
	if strings.EqualFold(*name, "all") {
		counters = tokens.All()
	} else {
		c, err := tokens.Get(*name)
		if err != nil {
			return usagef("-t: %v", err)
		}
		counters = []tokens.Counter{c}
	}
	var data []byte
	var err error
	if flags.NArg() == 1 && flags.Arg(0) != "-" {
		data, err = os.ReadFile(flags.Arg(0))
	} else {
		data, err = io.ReadAll(env.Stdin)
	}
	if err != nil {
		return err
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
