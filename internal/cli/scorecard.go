package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/scorecard"
)

func init() {
	register("scorecard", "write scorecard.md and its charts: bytes and real tokens per format over the corpus", runScorecard)
}

func runScorecard(env *Env) error {
	flags := newFlags(env, "scorecard")
	out := flags.String("o", "", "scorecard file, its charts written beside it (default: "+scorecard.FileName+" in the module root)")
	check := flags.Bool("check", false, "do not write; exit 1 with a diff summary if the file or a chart is stale")
	dir := flags.String("corpus", "", "corpus directory: canonical-JSON files, directly or one subdirectory per profile (default: "+corpus.Dir+" in the module root)")
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
	fresh, err := scorecard.Generate(*dir, *out)
	if env.StderrIsTerminal {
		fmt.Fprintf(env.Stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	outDir := filepath.Dir(*out)
	if *check {
		if err := scorecard.CheckFiles(outDir, fresh); err != nil {
			// The differing lines of each stale file first; the one-line
			// error last.
			var stale *scorecard.StaleFilesError
			if errors.As(err, &stale) {
				for _, f := range stale.Files {
					if !f.Missing {
						fmt.Fprintf(env.Stderr, "%s:\n%s\n", f.File, f.Details())
					}
				}
			}
			return err
		}
		fmt.Fprintf(env.Stderr, "wirebench scorecard: %s is current, and so are its %d chart(s)\n", *out, len(fresh)-1)
		return nil
	}
	if err := scorecard.WriteFiles(outDir, fresh); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wirebench scorecard: wrote %s and %d chart(s) beside it\n", *out, len(fresh)-1)
	return nil
}
