// Package cli implements the wirebench command line. Each subcommand lives
// in a file of its own and stands in the table of commands by name, with
// its summary and its run function; run defines its flags on the flag set
// it is given and parses them with parseFlags. cmd/wirebench only calls Run.
//
// Conventions every subcommand gets from this file:
//
//   - Help goes to standard output and exits 0: "wirebench -h", "--help",
//     "help", "help CMD", "CMD -h" and "CMD --help".
//   - Flags may come anywhere on the line, before or after FILE; "--" ends
//     them. Flags take one dash or two ("-f" or "--f").
//   - A FILE or output path of "-" means standard input or output.
//   - Input longer than 64 MiB (wire.DefaultLimits().MaxInputBytes, which every
//     decoder refuses past) is an error: a FILE is refused from its size,
//     unread, standard input once one byte past the limit has arrived.
//     Cheap checks come first: flags, codec and tokenizer names, budgets
//     and a fit cursor's text are checked before any input is read.
//   - Every error is one line on stderr that starts with "wirebench CMD: "
//     and says the command once (a message that already starts with the
//     command's name is not prefixed twice). Usage errors exit 2, failures
//     exit 1.
//
// The standard flag package is used rather than a CLI library: the
// commands' single-dash long flags (-from, -corpus, -check) are part of
// the documented interface, which GNU-style parsers (pflag, and the
// libraries built on it) read as bundles of one-letter flags; interleaved
// flags and help on stdout take a few lines here.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/graphwire/graphwire/bench/corpus"
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
	// StdoutIsTerminal says whether Stdout is a terminal: binary output is
	// refused there unless -o names it, and text output gets a final
	// newline.
	StdoutIsTerminal bool

	cmd string // the subcommand being run, for usage
}

// command is a subcommand. summary is one line: its synopsis (flags and
// arguments) and what it does, "-f NAME [FILE]: canonical JSON in, NAME
// out"; "wirebench help" lists it and "wirebench help NAME" prints it above
// the flags. run defines its flags on the flag set it is given and parses
// them with parseFlags.
type command struct {
	summary string
	run     func(env *Env, fs *flag.FlagSet) error
}

// commands are the subcommands by name; init fills it, since the commands'
// usage reads it.
var commands map[string]command

func init() {
	commands = map[string]command{
		"bench":     {"[-json] [-time D] [-rounds N] [-case REGEXP] [-codecs a,b] [-corpus DIR]: encode and decode speed per codec and corpus case, beside encoding/json, goccy/go-json and sonic, with medians over the cases (MB/s, ratios to encoding/json and to sonic, allocations); each operation the fastest of N rounds", runBench},
		"list":      {"list the registered codecs: name, aliases, media type, description", runList},
		"encode":    {"-f NAME [-o FILE] [FILE]: canonical JSON in, NAME out", runEncode},
		"decode":    {"-f NAME|auto [-v] [-o FILE] [FILE]: NAME in, canonical JSON out", runDecode},
		"convert":   {"-from A|auto -to B [-v] [-o FILE] [FILE]: A in, B out", runConvert},
		"diff":      {"-f NAME [-from A|auto] [-o FILE] BASE NEXT: the delta that turns BASE into NEXT, in NAME's delta syntax", runDiff},
		"patch":     {"[-from A|auto] [-d NAME|auto] [-f NAME] [-o FILE] BASE DELTA: BASE, as DELTA's codec carries it, with DELTA applied, in BASE's codec or NAME", runPatch},
		"fit":       {"-f NAME -budget N [-t o200k|cl100k] [-cursor C] [-whole] [-all] [FILE]: the next page within N tokens", runFit},
		"gen":       {"[-o DIR]: write the benchmark corpus, generated from its fixed seed, one canonical-JSON file per case", runGen},
		"mcp":       {"[-http ADDR] [-watch] [-store redis://HOST:PORT/DB] DIR|FILE: the responses as MCP tools, over stdio or streamable HTTP", runMCP},
		"scorecard": {"[-o FILE] [-check] [-corpus DIR]: write scorecard.md and its charts, bytes and real tokens per format over the corpus and the " + corpus.Stdlib + " profile (read from the Go toolchain's GOROOT)", runScorecard},
		"serve":     {"[-addr 127.0.0.1:8080] [DIR|FILE]: every format over HTTP, by negotiation", runServe},
		"tokens":    {"[-t o200k|cl100k|chars|words|all] [-f NAME|auto] [FILE]: count the tokens of a text (chars, words are estimates)", runTokens},
		"toon":      {"[-e|-d] [--delimiter , | tab | pipe] [--indent N] [--no-strict] [--stats] [-o FILE] [FILE]: any JSON to TOON, or TOON back to JSON", runToon},
		"version":   {"print the module version, the Go version and the source revision wirebench was built from", runVersion},
	}
}

// usageError marks an error as a usage error (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// newFlags returns the flag set a subcommand's run is given. Its errors are
// returned by parseFlags, not printed; its usage goes to stdout.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("wirebench "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// errHelp ends a subcommand that was asked for its usage (-h): exit 0.
var errHelp = errors.New("help requested")

// arguments is how many positional arguments a command takes, from min to
// max, and what they are, as its usage error names them.
type arguments struct {
	min, max int
	what     string
}

var (
	noArguments = arguments{0, 0, "no arguments"}
	oneFile     = arguments{0, 1, "at most one FILE"}
)

// parseFlags parses env.Args with fs, flags and arguments in any order, and
// leaves the arguments in fs.Args(). -h, -help and --help print the
// command's usage on stdout and return errHelp (exit 0); a bad flag, or a
// number of arguments outside want, is a usage error.
func parseFlags(fs *flag.FlagSet, env *Env, want arguments) error {
	var positional []string
	args := env.Args
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			printCommandUsage(env.Stdout, env.cmd, fs)
			return errHelp
		}
		if err != nil {
			return usagef("%v (see: wirebench help %s)", err, env.cmd)
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" && !isFlagValue(fs, args[:consumed-1]) {
			positional = append(positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parsing "--" alone resets fs.Args() to the arguments and leaves the
	// flags as they are.
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return err
	}
	if n := fs.NArg(); n < want.min || n > want.max {
		return usagef("want %s, got %d: %q", want.what, n, fs.Args())
	}
	return nil
}

// isFlagValue reports whether the argument after before is the value of a
// flag (as in "-o --"), not the end of the flags.
func isFlagValue(fs *flag.FlagSet, before []string) bool {
	if len(before) == 0 {
		return false
	}
	last := strings.TrimLeft(before[len(before)-1], "-")
	if !strings.HasPrefix(before[len(before)-1], "-") || strings.Contains(last, "=") {
		return false
	}
	f := fs.Lookup(last)
	if f == nil {
		return false
	}
	b, isBool := f.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// Run runs wirebench with args (without the program name) and returns the
// process exit code. Errors are one line on stderr.
func Run(env *Env) int {
	if len(env.Args) == 0 {
		printUsage(env.Stderr)
		return ExitUsage
	}
	switch env.Args[0] {
	case "-h", "-help", "--help":
		printUsage(env.Stdout)
		return ExitOK
	case "help":
		return runHelp(env)
	}
	name := env.Args[0]
	cmd, ok := lookup(env, name, "wirebench", "; see: wirebench help")
	if !ok {
		return ExitUsage
	}
	err := cmd.runAs(env, name, env.Args[1:])
	if err == nil || errors.Is(err, errHelp) {
		return ExitOK
	}
	msg := oneLine(err.Error())
	// Package errors start with their package's name, which is often the
	// command's: say it once.
	msg = strings.TrimPrefix(msg, name+": ")
	fmt.Fprintf(env.Stderr, "wirebench %s: %s\n", name, msg)
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	return ExitError
}

// runHelp answers "wirebench help [CMD]" on stdout.
func runHelp(env *Env) int {
	switch len(env.Args) {
	case 1:
		printUsage(env.Stdout)
		return ExitOK
	case 2:
		name := env.Args[1]
		cmd, ok := lookup(env, name, "wirebench help", "")
		if !ok {
			return ExitUsage
		}
		if err := cmd.runAs(env, name, []string{"-h"}); err != nil && !errors.Is(err, errHelp) {
			fmt.Fprintf(env.Stderr, "wirebench help: %s\n", oneLine(err.Error()))
			return ExitError
		}
		return ExitOK
	}
	fmt.Fprintln(env.Stderr, "wirebench help: at most one command name (usage: wirebench help [CMD])")
	return ExitUsage
}

// lookup returns the command name, or says on stderr, after prefix, that
// there is none, with the commands there are and hint.
func lookup(env *Env, name, prefix, hint string) (command, bool) {
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(env.Stderr, "%s: unknown command %q (commands: %s%s)\n", prefix, name, strings.Join(commandNames(), ", "), hint)
	}
	return cmd, ok
}

// runAs runs the command, called name, with args.
func (c command) runAs(env *Env, name string, args []string) error {
	sub := *env
	sub.Args, sub.cmd = args, name
	return c.run(&sub, newFlags(name))
}

func oneLine(s string) string {
	return strings.ReplaceAll(s, "\n", " ")
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: wirebench COMMAND [flags] [FILE]")
	fmt.Fprintln(w, "\nFILE defaults to standard input; \"-\" is standard input or output.")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"wirebench help COMMAND\" for a command's flags.")
}

// printCommandUsage prints one command's synopsis and flags. A summary
// that starts with its flags or arguments ("-f NAME [FILE]: what it does")
// gives the usage line and the description below it.
func printCommandUsage(w io.Writer, name string, fs *flag.FlagSet) {
	summary := commands[name].summary
	synopsis, what, ok := strings.Cut(summary, ": ")
	if !ok || summary == "" || !strings.ContainsRune("-[", rune(summary[0])) {
		synopsis, what = "", summary
	}
	fmt.Fprintf(w, "usage: wirebench %s\n", strings.TrimSpace(name+" "+synopsis))
	if what != "" {
		fmt.Fprintf(w, "\n%s\n", what)
	}
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}
