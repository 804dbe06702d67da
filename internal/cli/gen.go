package cli

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/graphwire/graphwire/bench/corpus"
)

func runGen(env *Env, fs *flag.FlagSet) error {
	out := fs.String("o", "", "output `DIR` (default: "+corpus.Dir+" in the repository, when run inside it)")
	stdlib := fs.Bool("stdlib", false, "write the "+corpus.Stdlib+" profile instead, read from the Go toolchain's GOROOT/src, into DIR/"+corpus.Stdlib+" (needs -o: it is never committed)")
	if err := parseFlags(fs, env, noArguments); err != nil {
		return err
	}
	dir := *out
	if *stdlib {
		return genStdlib(env, dir)
	}
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

// genStdlib writes the go-stdlib profile under dir/go-stdlib, one
// canonical-JSON file per case, for reading or for scorecard -corpus.
func genStdlib(env *Env, dir string) error {
	if dir == "" || dir == "-" {
		return usagef("-stdlib: the %s profile is generated, never committed; name a directory with -o DIR", corpus.Stdlib)
	}
	if root, err := moduleRoot(); err == nil {
		if abs, err := filepath.Abs(dir); err == nil && abs == filepath.Join(root, corpus.Dir) {
			return usagef("-stdlib: the %s profile is never written into %s; name another directory with -o DIR", corpus.Stdlib, corpus.Dir)
		}
	}
	std, version, err := corpus.LoadStdlib()
	if err != nil {
		return err
	}
	files, err := corpus.Files(std.Cases)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stderr, "wirebench gen: wrote %d files to %s (the Go standard library of %s)\n", len(files), filepath.Join(dir, corpus.Stdlib), version)
	return nil
}
