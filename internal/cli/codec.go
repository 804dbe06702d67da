package cli

// The codec commands: list, encode, decode and convert.
//
// Output is exactly the codec's bytes, written only once the whole
// conversion has succeeded, so that bad input leaves the output empty.
// Text output (JSON, TOON, GOON) gets one final newline when it does not
// end with one and either the input was text ending with one or standard
// output is a terminal: "decode -f json" of a canonical file (no final newline) prints
// it back byte for byte, a file with a final newline keeps it, and a
// terminal prompt starts on a line of its own. Binary output (msgpack,
// cbor) is never touched, and is refused when it would go to a terminal
// unless -o names the destination ("-o -" writes it anyway), as curl does.
//
// -f auto (decode; convert -from auto) detects the input's codec with
// wire.Registry.Sniff and decodes with the most likely one; with -v, or when stderr
// is a terminal, the codec found is named on stderr. Input that looks like
// no codec is refused. When an explicitly named codec fails to decode the
// input and the input looks like another codec, the error says so:
// "cbor: offset 1: ... (input looks like goon)".
//
// Exit codes: a codec name that is not registered is a usage error (2),
// and its message lists the registered names and aliases; bad input and
// failed encodings are errors (1), reported on one line that names the
// input, the codec and the position (json: offset N, goon: line N).

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	_ "github.com/graphwire/graphwire/codecs" // every built-in codec
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// Auto is the codec name that asks for detection.
const Auto = "auto"

// minConfidence is the least sniffing confidence -f auto accepts.
const minConfidence = 0.5

func runList(env *Env, fs *flag.FlagSet) error {
	if err := parseFlags(fs, env, noArguments); err != nil {
		return err
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tALIASES\tMEDIA TYPE\tDESCRIPTION")
	for _, info := range wire.List() {
		aliases := strings.Join(info.Aliases, ",")
		if aliases == "" {
			aliases = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", info.Name, aliases, info.MediaType, info.Description)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := env.Stdout.Write(buf.Bytes())
	return err
}

// conversion is what encode, decode and convert share.
type conversion struct {
	from, to string // codec names; from may be Auto
	out      string // -o
	verbose  bool   // -v
	flagName string // the flag that names the codec the user must give
}

func runEncode(env *Env, fs *flag.FlagSet) error {
	c := conversion{from: "json", flagName: "-f"}
	fs.StringVar(&c.to, "f", "", "output codec `NAME` (see wirebench list)")
	fs.StringVar(&c.out, "o", "", "output `FILE` (default: standard output; - is standard output)")
	if err := parseFlags(fs, env, oneFile); err != nil {
		return err
	}
	return c.run(env, fs.Args())
}

func runDecode(env *Env, fs *flag.FlagSet) error {
	c := conversion{to: "json", flagName: "-f"}
	fs.StringVar(&c.from, "f", "", "input codec `NAME`, or auto to detect it (see wirebench list)")
	fs.StringVar(&c.out, "o", "", "output `FILE` (default: standard output; - is standard output)")
	fs.BoolVar(&c.verbose, "v", false, "name the detected codec on stderr (always when stderr is a terminal)")
	if err := parseFlags(fs, env, oneFile); err != nil {
		return err
	}
	return c.run(env, fs.Args())
}

func runConvert(env *Env, fs *flag.FlagSet) error {
	c := conversion{flagName: "-to"}
	fs.StringVar(&c.from, "from", "", "input codec `NAME`, or auto to detect it")
	fs.StringVar(&c.to, "to", "", "output codec `NAME`")
	fs.StringVar(&c.out, "o", "", "output `FILE` (default: standard output; - is standard output)")
	fs.BoolVar(&c.verbose, "v", false, "name the detected codec on stderr (always when stderr is a terminal)")
	if err := parseFlags(fs, env, oneFile); err != nil {
		return err
	}
	if c.from == "" {
		return usagef("missing -from NAME (codecs: %s, or auto)", codecNames())
	}
	return c.run(env, fs.Args())
}

// run reads FILE (or stdin), decodes it, encodes the response and writes
// the bytes.
func (c conversion) run(env *Env, args []string) error {
	if c.from == "" || c.to == "" {
		return usagef("missing %s NAME (codecs: %s)", c.flagName, codecNames())
	}
	var dec wire.Codec
	if !strings.EqualFold(c.from, Auto) {
		var err error
		if dec, err = wire.Lookup(c.from); err != nil {
			return usagef("%v", err)
		}
	}
	enc, err := wire.Lookup(c.to)
	if err != nil {
		return usagef("%v", err)
	}
	if err := refuseBinaryToTerminal(env, enc.Info(), c.out); err != nil {
		return err
	}
	name, data, err := readInput(env, args)
	if err != nil {
		return err
	}
	if dec == nil {
		if dec, err = detect(data); err != nil {
			return fmt.Errorf("%s%w", name, err)
		}
		if c.verbose || env.StderrIsTerminal {
			fmt.Fprintf(env.Stderr, "wirebench %s: %sdetected %s\n", env.cmd, name, dec.Info().Name)
		}
	}
	r, err := dec.Decode(data)
	if err != nil {
		return fmt.Errorf("%s%w%s", name, err, looksLike(data, dec.Info().Name))
	}
	out, err := enc.AppendEncode(nil, r)
	if err != nil {
		return fmt.Errorf("%sencoding as %s: %w", name, enc.Info().Name, err)
	}
	if !enc.Info().Binary {
		out = finalNewline(env, c.out, out, !dec.Info().Binary && bytes.HasSuffix(data, []byte("\n")))
	}
	return writeOutput(env, c.out, out)
}

// detect returns the codec data most likely is in, or an error when it
// looks like none.
func detect(data []byte) (wire.Codec, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("cannot tell the format of empty input; name its codec with -f NAME")
	}
	guesses := wirecodec.Sniff(wire.DefaultRegistry(), data)
	if len(guesses) == 0 || guesses[0].Confidence < minConfidence {
		return nil, fmt.Errorf("cannot tell the input's format: it looks like none of %s (it starts %s); name its codec with -f NAME", codecNames(), excerpt(data))
	}
	return wire.Lookup(guesses[0].Name)
}

// looksLike returns " (input looks like NAME)" when data, which codec
// tried could not decode, looks like another codec.
func looksLike(data []byte, tried string) string {
	g := wirecodec.Sniff(wire.DefaultRegistry(), data)
	if len(g) == 0 || g[0].Confidence < minConfidence || g[0].Name == tried {
		return ""
	}
	return " (input looks like " + g[0].Name + ")"
}

// excerpt quotes the first bytes of data: as text when they are printable
// UTF-8, in hex otherwise.
func excerpt(data []byte) string {
	const n = 16
	if len(data) == 0 {
		return "empty"
	}
	head := data[:min(len(data), n)]
	more := ""
	if len(data) > n {
		more = " ..."
	}
	if isText(head) {
		return fmt.Sprintf("%q%s", head, more)
	}
	return fmt.Sprintf("with bytes % x%s", head, more)
}

// isText reports whether b is printable UTF-8 (tabs and newlines allowed).
func isText(b []byte) bool {
	for _, r := range string(b) {
		if r == '\uFFFD' || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return false
		}
	}
	return true
}

// finalNewline appends a newline to text output that lacks one when the
// input ended with one or the output is a terminal.
func finalNewline(env *Env, out string, text []byte, inputEndsInNewline bool) []byte {
	if bytes.HasSuffix(text, []byte("\n")) {
		return text
	}
	toTerminal := (out == "" || out == "-") && env.StdoutIsTerminal
	if inputEndsInNewline || toTerminal {
		return append(text, '\n')
	}
	return text
}

// refuseBinaryToTerminal refuses binary output bound for a terminal when
// -o did not ask for it.
func refuseBinaryToTerminal(env *Env, info wire.Info, out string) error {
	if info.Binary && out == "" && env.StdoutIsTerminal {
		return usagef("not writing %s (binary) to a terminal; redirect the output or give -o FILE (-o - writes it anyway)", info.Name)
	}
	return nil
}

// writeOutput writes data to the file out, or to stdout when out is "" or
// "-".
func writeOutput(env *Env, out string, data []byte) error {
	if out == "" || out == "-" {
		_, err := env.Stdout.Write(data)
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// maxInput is the most bytes any command reads: every decoder refuses a
// longer input under the default Limits, so reading more would only spend
// memory before the refusal. A file is refused from its size before it is
// read; standard input after maxInput+1 bytes.
var maxInput = wire.DefaultLimits().MaxInputBytes

// readInput reads the one FILE argument, or stdin when there is none or it
// is "-", refusing input longer than maxInput. It returns a prefix for
// messages: "FILE: ", or "" for stdin.
func readInput(env *Env, args []string) (string, []byte, error) {
	if len(args) == 0 || args[0] == "-" {
		if env.Stdin == nil {
			return "", nil, nil
		}
		b, err := io.ReadAll(io.LimitReader(env.Stdin, maxInput+1))
		if err != nil {
			return "", nil, fmt.Errorf("reading standard input: %w", err)
		}
		if int64(len(b)) > maxInput {
			return "", nil, tooLong(-1)
		}
		return "", b, nil
	}
	name := args[0] + ": "
	f, err := os.Open(args[0])
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > maxInput {
			return "", nil, fmt.Errorf("%s%w", name, tooLong(st.Size()))
		}
		buf.Grow(int(st.Size()) + bytes.MinRead) // read at once, with room to see the end
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, maxInput+1)); err != nil {
		return "", nil, fmt.Errorf("%s%w", name, err)
	}
	if int64(buf.Len()) > maxInput {
		return "", nil, fmt.Errorf("%s%w", name, tooLong(-1))
	}
	return name, buf.Bytes(), nil
}

// tooLong is the error for input past maxInput; size is its length when
// known, else -1.
func tooLong(size int64) error {
	what := "the input is longer than"
	if size >= 0 {
		what = fmt.Sprintf("the input of %d bytes is longer than", size)
	}
	return fmt.Errorf("%s %d bytes, the most any decoder reads (MaxInputBytes)", what, int64(maxInput))
}

func codecNames() string {
	var names []string
	for _, info := range wire.List() {
		name := info.Name
		if len(info.Aliases) > 0 {
			name += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ")
}
