package cli

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/graphwire/graphwire/bench/corpus"
	"github.com/graphwire/graphwire/bench/scorecard"
)

func runScorecard(env *Env, flags *flag.FlagSet) error {
	out := flags.String("o", "", "scorecard `FILE`, its charts written beside it; - is standard output, the markdown alone (default: "+scorecard.FileName+" in the repository when run inside it, standard output elsewhere)")
	check := flags.Bool("check", false, "do not write; exit 1 with a diff summary if the file or a chart is stale (the "+corpus.Stdlib+" profile is checked only under the Go version the file names; under another, -check says so)")
	dir := flags.String("corpus", "", "corpus `DIR`: canonical-JSON files, directly or one subdirectory per profile (default: the corpus generated from its seed, equal to "+corpus.Dir+")")
	if err := parseFlags(flags, env, noArguments); err != nil {
		return err
	}
	if *out == "" {
		if root, err := moduleRoot(); err == nil {
			*out = filepath.Join(root, scorecard.FileName)
		} else if *check {
			return usagef("-check: not inside the repository; name the scorecard to check with -o FILE")
		}
	}
	toStdout := *out == "" || *out == "-"
	if *check && toStdout {
		return usagef("-check compares with a file; -o - is standard output")
	}
	source := *dir
	source = cmp.Or(source, "the generated corpus")
	name := *out
	if toStdout {
		name = scorecard.FileName
	}
	if env.StderrIsTerminal {
		fmt.Fprintf(env.Stderr, "wirebench scorecard: counting tokens over %s ...\r", source)
	}
	if *check && *dir == "" {
		// The repository's scorecard: its go-stdlib profile is checked
		// only under the Go version it names.
		mismatch, err := scorecard.CheckCommitted(*out, generatedCases())
		if env.StderrIsTerminal {
			fmt.Fprintf(env.Stderr, "\r\033[K")
		}
		if mismatch != nil {
			fmt.Fprintf(env.Stderr, "wirebench %v\n", mismatch)
		}
		if err != nil {
			return staleDetails(env, err)
		}
		fmt.Fprintf(env.Stderr, "wirebench scorecard: %s is current, and so are its charts\n", *out)
		return nil
	}
	fresh, err := generateScorecard(*dir, name)
	if env.StderrIsTerminal {
		fmt.Fprintf(env.Stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if toStdout {
		_, err := env.Stdout.Write(fresh[filepath.Base(name)])
		return err
	}
	outDir := filepath.Dir(*out)
	if *check {
		if err := scorecard.CheckFiles(outDir, fresh); err != nil {
			return staleDetails(env, err)
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

// staleDetails writes the differing lines of each stale file of a failed
// check, and returns its one-line error, which is printed last.
func staleDetails(env *Env, err error) error {
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

// generateScorecard returns the scorecard files (see scorecard.Generate) of
// the corpus in dir, or, when dir is "", of the generated corpus with the
// go-stdlib profile of the Go toolchain at hand.
func generateScorecard(dir, file string) (map[string][]byte, error) {
	if dir != "" {
		return scorecard.Generate(dir, file)
	}
	std, _, err := corpus.LoadStdlib()
	if err != nil {
		return nil, err
	}
	card, err := scorecard.BuildWithStdlib(generatedCases(), std)
	if err != nil {
		return nil, err
	}
	return card.Files(file)
}
