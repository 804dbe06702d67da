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
	register("scorecard", "write scorecard.md: bytes and real tokens per format over the corpus", runScorecard)
}

func runScorecard(env *Env) error {
	flags := newFlags(env, "scorecard")
	out := flags.String("o", "", "scorecard file (default: "+scorecard.FileName+" in the module root)")
	check := flags.Bool("check", false, "do not write; exit 1 with a diff summary if the file is stale")
	dir := flags.String("corpus", "", "corpus directory (default: "+corpus.Dir+" in the module root)")
	if err := parseFlags(flags, env); err != nil {
		return err
	}
	if flags.NArg() != 0 {
		return usagef("unexpected arguments: %v", flags.Args())
	}
	if *out == "" || *dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		if *out == "" {
			*out = filepath.Join(root, scorecard.FileName)
		}
		if *dir == "" {
			*dir = filepath.Join(root, corpus.Dir)
		}
	}
	if env.StderrIsTerminal {
		fmt.Fprintf(env.Stderr, "wirebench scorecard: counting tokens over %s ...\r", *dir)
	}
	fresh, err := scorecard.Generate(*dir)
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
	if err := os.WriteFile(*out, fresh, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wirebench scorecard: wrote %s\n", *out)
	return nil
}
