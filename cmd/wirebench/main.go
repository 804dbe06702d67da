// Command wirebench encodes, decodes and converts graph query results between
// wire formats, counts their tokens, and writes the format scorecard.
// Run "wirebench help" for the commands.
package main

import (
	"os"

	"github.com/mattn/go-isatty"

	"github.com/graphwire/graphwire/internal/cli"
)

func main() {
	os.Exit(cli.Run(&cli.Env{
		Args:             os.Args[1:],
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		StderrIsTerminal: isatty.IsTerminal(os.Stderr.Fd()),
		StdoutIsTerminal: isatty.IsTerminal(os.Stdout.Fd()),
	}))
}
