package cli

import (
	"fmt"
	"path/filepath"

	"github.com/graphwire/graphwire/bench/corpus"
)

func init() {
	register("gen", "[-o DIR]: write the benchmark corpus, generated from its fixed seed, one canonical-JSON file per case", runGen)
}

func runGen(env *Env) error {
	fs := newFlags(env, "gen")
	out := fs.String("o", "", "output `DIR` (default: "+corpus.Dir+" in the repository, when run inside it)")
	if err := parseFlags(fs, env); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("unexpected arguments: %v", fs.Args())
	}
	dir := *out
	switch dir {
	case "-":
		return usagef("-o -: the corpus is one file per case; -o needs a directory")
	case "":
		root, err := moduleRoot()
		if err != nil {
			return usagef("not inside the %s repository: give the output directory with -o DIR", corpus.ModulePath)
		}
		dir = filepath.Join(root, corpus.Dir)
	}
	written, stale, err := corpus.Write(dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wirebench gen: wrote %d files to %s (seed %d)\n", len(written), dir, corpus.Seed)
	for _, s := range stale {
		fmt.Fprintf(env.Stderr, "wirebench gen: %s is not part of the corpus; remove it\n", filepath.Join(dir, s))
	}
	return nil
}
