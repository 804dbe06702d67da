package cli

// The codec commands: list, encode, decode and convert.
//
// Output is exactly the codec's bytes, written only once the whole
// conversion has succeeded, so that bad input leaves stdout empty. Text
// output (JSON and TOON, media types application/json and text/*) ends with
// one newline: added when the codec's bytes do not already end with one
// (GOON's do), so that a terminal prompt or the next line of a pipeline
// starts on a line of its own. Binary output (msgpack, cbor) is written as
// it is. Decoders accept that newline back: it is insignificant whitespace
// in JSON and TOON and part of GOON.
//
// Exit codes: a codec name that is not registered is a usage error (2),
// and its message lists the registered names; bad input and failed
// encodings are errors (1), reported on one line that names the input, the
// codec and the position (json: offset N, goon: line N).

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	_ "github.com/graphwire/graphwire/codecs" // every built-in codec
	"github.com/graphwire/graphwire/wire"
)

func init() {
	register("list", "list the registered codecs: name, aliases, media type, description", runList)
	register("encode", "-f NAME [FILE]: canonical JSON in, NAME out", runEncode)
	register("decode", "-f NAME [FILE]: NAME in, canonical JSON out", runDecode)
	register("convert", "-from A -to B [FILE]: A in, B out", runConvert)
}

func runList(env *Env) error {
	fs := newFlags(env, "list")
	if err := parseFlags(fs, env); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("list takes no arguments")
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

func runEncode(env *Env) error {
	fs := newFlags(env, "encode")
	to := fs.String("f", "", "output codec `NAME` (see wirebench list)")
	if err := parseFlags(fs, env); err != nil {
		return err
	}
	return convert(env, fs.Args(), "json", *to, "-f")
}

func runDecode(env *Env) error {
	fs := newFlags(env, "decode")
	from := fs.String("f", "", "input codec `NAME` (see wirebench list)")
	if err := parseFlags(fs, env); err != nil {
		return err
	}
	return convert(env, fs.Args(), *from, "json", "-f")
}

func runConvert(env *Env) error {
	fs := newFlags(env, "convert")
	from := fs.String("from", "", "input codec `NAME`")
	to := fs.String("to", "", "output codec `NAME`")
	if err := parseFlags(fs, env); err != nil {
		return err
	}
	if *from == "" {
		return usagef("missing -from NAME (codecs: %s)", codecNames())
	}
	return convert(env, fs.Args(), *from, *to, "-to")
}

// convert reads FILE (or stdin), decodes it with codec from, encodes the
// response with codec to and writes the bytes. flagName names the flag that
// chose the codec given by the user, for the message when it is missing.
func convert(env *Env, args []string, from, to, flagName string) error {
	if from == "" || to == "" {
		return usagef("missing %s NAME (codecs: %s)", flagName, codecNames())
	}
	if len(args) > 1 {
		return usagef("too many arguments: %q (want at most one FILE)", args)
	}
	dec, err := wire.Lookup(from)
	if err != nil {
		return usagef("%v", err)
	}
	enc, err := wire.Lookup(to)
	if err != nil {
		return usagef("%v", err)
	}
	name, data, err := readInput(env, args)
	if err != nil {
		return err
	}
	r, err := dec.Decode(data)
	if err != nil {
		return fmt.Errorf("%s%w", name, err)
	}
	out, err := enc.AppendEncode(nil, r)
	if err != nil {
		return fmt.Errorf("%sencoding as %s: %w", name, enc.Info().Name, err)
	}
	if isText(enc.Info().MediaType) && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	_, err = env.Stdout.Write(out)
	return err
}

// isText reports whether a media type is text, which ends with a newline on
// the command line.
func isText(mediaType string) bool {
	return strings.HasPrefix(mediaType, "text/") || mediaType == "application/json"
}

// readInput reads the one FILE argument, or stdin when there is none or it
// is "-". It returns a prefix for messages: "FILE: ", or "" for stdin.
func readInput(env *Env, args []string) (string, []byte, error) {
	if len(args) == 0 || args[0] == "-" {
		if env.Stdin == nil {
			return "", nil, nil
		}
		b, err := io.ReadAll(env.Stdin)
		if err != nil {
			return "", nil, fmt.Errorf("reading standard input: %w", err)
		}
		return "", b, nil
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return "", nil, err
	}
	return args[0] + ": ", b, nil
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
