package cli

import (
	"flag"
	"fmt"
	"runtime/debug"
)

// runVersion prints "wirebench MODULE VERSION (GO)", and the revision when
// the binary was built from a checkout. A binary built by "go install
// MODULE@VERSION" reports that version; one built inside a checkout
// reports "(devel)" or a pseudo-version, as the go command records it.
func runVersion(env *Env, fs *flag.FlagSet) error {
	if err := parseFlags(fs, env, noArguments); err != nil {
		return err
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("no build information in this binary")
	}
	line := fmt.Sprintf("wirebench %s %s (%s)", bi.Main.Path, bi.Main.Version, bi.GoVersion)
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev != "" {
		line += fmt.Sprintf(" revision %s%s", rev, modified)
	}
	_, err := fmt.Fprintln(env.Stdout, line)
	return err
}
