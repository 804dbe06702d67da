package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/scorecard"
)

func init() {
	register("scorecard", "[-o FILE] [-check] [-corpus DIR]: write scorecard.md, bytes and real tokens per format over the corpus", runScorecard)
}

func runScorecard(env *Env) error {
	flags := newFlags(env, "scorecard")
	out := flags.String("o", "", "scorecard `FILE`; - is standard output (default: "+scorecard.FileName+" in the repository when run inside it, standard output elsewhere)")
	check := flags.Bool("check", false, "do not write; exit 1 with a diff summary if the file is stale")
	dir := flags.String("corpus", "", "corpus `DIR` (default: the corpus generated from its seed, equal to "+corpus.Dir+")")
	if err := parseFlags(flags, env); err != nil {
		return err
	}
	if flags.NArg() != 0 {
		return usagef("unexpected arguments: %v", flags.Args())
	}
	if *out == "" {
		if root, err := moduleRoot(); err == nil {
			*out = filepath.Join(root, scorecard.FileName)
		} else if *check {
			return usagef("-check: not inside the repository; name the scorecard to check with -o FILE")
		}
	}
	if *check && *out == "-" {
		return usagef("-check compares with a file; -o - is standard output")
	}
	source := *dir
	if source == "" {
		source = "the generated corpus"
	}
	if env.StderrIsTerminal {
		fmt.Fprintf(env.Stderr, "wirebench scorecard: counting tokens over %s ...\r", source)
	}
	fresh, err := generateScorecard(*dir)
	if env.StderrIsTerminal {
		fmt.Fprintf(env.Stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if *check {
		committed, err := os.ReadFile(*out)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s does not exist; generate it with: %s", *out, scorecard.Command)
		}
		if err != nil {
			return err
		}
		if err := scorecard.Check(committed, fresh); err != nil {
			var stale *scorecard.StaleError
			if errors.As(err, &stale) {
				// The differing lines first; the one-line error last.
				fmt.Fprintln(env.Stderr, stale.Details())
			}
			return err
		}
		fmt.Fprintf(env.Stderr, "wirebench scorecard: %s is current\n", *out)
		return nil
	}
	if *out == "" || *out == "-" {
		_, err := env.Stdout.Write(fresh)
		return err
	}
	if err := os.WriteFile(*out, fresh, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wirebench scorecard: wrote %s\n", *out)
	return nil
}

// generateScorecard returns the scorecard of the corpus in dir, or of the
// generated corpus when dir is "".
func generateScorecard(dir string) ([]byte, error) {
	if dir != "" {
		return scorecard.Generate(dir)
	}
	card, err := scorecard.Build(generatedCases())
	if err != nil {
		return nil, err
	}
	return card.Markdown()
}
