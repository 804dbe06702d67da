// Package cli implements the wirebench command line. Each subcommand lives
// in a file of its own and registers itself in init; cmd/wirebench only
// calls Run.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1 // bad input or a failed operation
	ExitUsage = 2 // bad flags or arguments
)

// Env is what a subcommand may touch: its arguments and the three streams.
type Env struct {
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// StderrIsTerminal says whether progress lines may be drawn on Stderr.
	StderrIsTerminal bool
}

type command struct {
	name    string
	summary string // one line, shown in usage
	run     func(env *Env) error
}

var commands = map[string]command{}

func register(name, summary string, run func(env *Env) error) {
	if _, dup := commands[name]; dup {
		panic("cli: duplicate command " + name)
	}
	commands[name] = command{name: name, summary: summary, run: run}
}

// usageError marks an error as a usage error (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// newFlags returns a flag set for a subcommand that reports errors as usage
// errors rather than exiting.
func newFlags(env *Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("wirebench "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

// errHelp ends a subcommand that was asked for its usage (-h): exit 0.
var errHelp = errors.New("help requested")

// parseFlags parses env.Args with fs. The flag package has already printed
// a bad flag's error and the usage on stderr, so the usage error it becomes
// carries no second message; -h and -help print the usage and exit 0.
func parseFlags(fs *flag.FlagSet, env *Env) error {
	if err := fs.Parse(env.Args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return &usageError{msg: ""}
	}
	return nil
}

// Run runs wirebench with args (without the program name) and returns the
// process exit code. Errors are one line on stderr.
func Run(env *Env) int {
	if len(env.Args) == 0 || env.Args[0] == "-h" || env.Args[0] == "-help" || env.Args[0] == "--help" || env.Args[0] == "help" {
		printUsage(env.Stderr)
		if len(env.Args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	cmd, ok := commands[env.Args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "wirebench: unknown command %q\n", env.Args[0])
		printUsage(env.Stderr)
		return ExitUsage
	}
	sub := *env
	sub.Args = env.Args[1:]
	err := cmd.run(&sub)
	if err == nil || errors.Is(err, errHelp) {
		return ExitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.msg != "" {
			fmt.Fprintf(env.Stderr, "wirebench %s: %s\n", cmd.name, ue.msg)
		}
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "wirebench %s: %s\n", cmd.name, oneLine(err.Error()))
	return ExitError
}

func oneLine(s string) string {
	return strings.ReplaceAll(s, "\n", " ")
}

func printUsage(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: wirebench COMMAND [flags] [FILE]")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}
