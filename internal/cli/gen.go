package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/graphwire/graphwire/bench/corpus"
)

func init() {
	register("gen", "regenerate the benchmark corpus (fixed seed)", runGen)
}

func runGen(env *Env) error {
	fs := newFlags(env, "gen")
	out := fs.String("o", "", "output directory (default: "+corpus.Dir+" in the module root)")
	if err := parseFlags(fs, env); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("unexpected arguments: %v", fs.Args())
	}
	dir := *out
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
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

// moduleRoot is the graphwire module root above the working directory.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return corpus.ModuleRoot(wd)
}
