package cli

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/speed"
	"github.com/graphwire/graphwire/wire"
)

func runBench(env *Env, flags *flag.FlagSet) error {
	asJSON := flags.Bool("json", false, "write the measurements as JSON")
	budget := flags.Duration("time", speed.DefaultBudget, "time spent on each measurement")
	dir := flags.String("corpus", "", "corpus `DIR` (default: the corpus generated from its seed, equal to "+corpus.Dir+")")
	match := flags.String("case", "", "only cases whose profile/name matches this regular expression")
	codecs := flags.String("codecs", "", "comma-separated codec names (default: every registered codec)")
	rounds := flags.Int("rounds", 1, "measure each operation this many times, every row in turn, and keep its fastest")
	if err := parseFlags(flags, env, noArguments); err != nil {
		return err
	}
	if *budget <= 0 {
		return usagef("-time must be positive")
	}
	if *rounds < 1 {
		return usagef("-rounds must be at least 1")
	}
	var re *regexp.Regexp
	if *match != "" {
		var err error
		if re, err = regexp.Compile(*match); err != nil {
			return usagef("-case: %v", err)
		}
	}
	opts := speed.Options{Budget: *budget, Rounds: *rounds}
	if *codecs != "" {
		opts.Codecs = strings.Split(*codecs, ",")
		for _, n := range opts.Codecs {
			if _, err := wire.Lookup(n); err != nil {
				return usagef("-codecs: %v", err)
			}
		}
	}
	cases, err := loadCases(*dir)
	if err != nil {
		return err
	}
	if ref := os.Getenv("GOON_REFERENCE_DIR"); ref != "" {
		more, err := corpus.Reference(ref)
		if err != nil {
			return err
		}
		cases = append(cases, more...)
	}
	if re != nil {
		var kept []corpus.Case
		for _, c := range cases {
			if re.MatchString(c.ID()) {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			return fmt.Errorf("no case matches -case %q", *match)
		}
		cases = kept
	}
	if env.StderrIsTerminal {
		opts.Progress = func(done, total int, what string) {
			fmt.Fprintf(env.Stderr, "\r\033[K[%d/%d] %s", done+1, total, what)
		}
	}
	rep, err := speed.Run(cases, opts)
	if env.StderrIsTerminal {
		fmt.Fprint(env.Stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return rep.WriteJSON(env.Stdout)
	}
	return rep.WriteTable(env.Stdout)
}
