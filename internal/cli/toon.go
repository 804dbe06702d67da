package cli

// toon converts any JSON document to TOON (spec v4.0) and back, with the
// generic TOON layer of codecs/toon, for the same job as the reference CLI
// (@toon-format/cli) and with its flags and output:
//
//   - The direction is -e (JSON to TOON) or -d (TOON to JSON); without
//     either, a FILE ending in .toon is decoded and anything else encoded.
//   - TOON output is what @toon-format/toon's encode(JSON.parse(text))
//     returns, byte for byte, followed by one newline, as the reference
//     CLI writes it. JSON output is JSON.stringify(value, null, indent)
//     and one newline: indented by --indent spaces (default 2).
//   - --delimiter is "," (default), "|" or a tab, also named comma, pipe
//     and tab. --indent is 1 to 64 (the reference also takes 0).
//   - --no-strict decodes leniently (spec §14); by default decoding is
//     strict.
//   - --stats prints on stderr the o200k and cl100k token counts of the
//     JSON and the TOON text and the saving: real tokenizer counts, where
//     the reference CLI prints an estimate.
//
// Two departures from the reference, both where JavaScript's number and
// object model loses what the JSON text says: integers beyond ±2^53 stay
// exact (JSON.parse rounds them to the nearest double), and object keys
// keep their order in the text (JavaScript moves keys that are array
// indices, "0", "1", ..., first). Documents without such numbers or keys
// convert byte for byte as the reference does.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
	"github.com/graphwire/graphwire/codecs/toon/toonvalue"
	"github.com/graphwire/graphwire/tokens"
)

func runToon(env *Env, fs *flag.FlagSet) error {
	encode := fs.Bool("e", false, "encode JSON to TOON (default unless FILE ends in .toon)")
	decode := fs.Bool("d", false, "decode TOON to JSON (default when FILE ends in .toon)")
	delim := fs.String("delimiter", ",", "delimiter of tabular rows and inline arrays: `D` is , (comma), tab or | (pipe)")
	indent := fs.Int("indent", toonvalue.DefaultIndentSize, "spaces per indentation level, 1 to 64 (TOON, and the JSON that -d writes)")
	noStrict := fs.Bool("no-strict", false, "decode leniently: counts unchecked, blank lines and odd indentation allowed (spec §14)")
	stats := fs.Bool("stats", false, "print the o200k and cl100k tokens of the JSON and the TOON, and the saving, on stderr")
	out := fs.String("o", "", "output `FILE` (default: standard output; - is standard output)")
	if err := parseFlags(fs, env, oneFile); err != nil {
		return err
	}
	if *encode && *decode {
		return usagef("-e and -d exclude each other")
	}
	d, err := parseDelimiter(*delim)
	if err != nil {
		return err
	}
	if *indent < 1 || *indent > 64 {
		return usagef("--indent %d: want 1 to 64", *indent)
	}
	toJSON := *decode || !*encode && fs.NArg() == 1 && strings.HasSuffix(fs.Arg(0), ".toon")
	label, data, err := readInput(env, fs.Args())
	if err != nil {
		return err
	}
	var jsonText, toonText, result []byte
	if toJSON {
		v, err := toonvalue.Unmarshal(data, toonvalue.DecodeOptions{IndentSize: *indent, Lenient: *noStrict})
		if err != nil {
			return fmt.Errorf("%s%w", label, err)
		}
		compact, err := jsonvalue.Append(nil, v)
		if err != nil {
			return fmt.Errorf("%s%w", label, err)
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, compact, "", strings.Repeat(" ", *indent)); err != nil {
			return fmt.Errorf("%sjson: %w", label, err)
		}
		toonText, jsonText, result = data, pretty.Bytes(), pretty.Bytes()
	} else {
		t, err := toonvalue.FromJSON(data, toonvalue.EncodeOptions{Delimiter: d, IndentSize: *indent})
		if err != nil {
			return fmt.Errorf("%s%w", label, err)
		}
		jsonText, toonText, result = data, t, t
	}
	var report string
	if *stats {
		if report, err = toonStats(jsonText, toonText); err != nil {
			return err
		}
	}
	if err := writeOutput(env, *out, append(result, '\n')); err != nil {
		return err
	}
	if report != "" {
		_, err = fmt.Fprint(env.Stderr, report)
	}
	return err
}

// parseDelimiter reads --delimiter.
func parseDelimiter(s string) (toonvalue.Delimiter, error) {
	switch strings.ToLower(s) {
	case ",", "comma":
		return toonvalue.Comma, nil
	case "\t", "tab", `\t`:
		return toonvalue.Tab, nil
	case "|", "pipe":
		return toonvalue.Pipe, nil
	}
	return 0, usagef("--delimiter %q: want , (comma), tab or | (pipe)", s)
}

// toonStats counts the tokens of both texts with the real tokenizers.
func toonStats(jsonText, toonText []byte) (string, error) {
	var b strings.Builder
	for _, name := range []string{tokens.O200k, tokens.Cl100k} {
		c, err := tokens.Get(name)
		if err != nil {
			return "", err
		}
		j, err := c.Count(jsonText)
		if err != nil {
			return "", err
		}
		t, err := c.Count(toonText)
		if err != nil {
			return "", err
		}
		saving := "n/a"
		if j > 0 {
			saving = strconv.FormatFloat(100*float64(j-t)/float64(j), 'f', 1, 64) + "%"
		}
		fmt.Fprintf(&b, "wirebench toon: %-6s JSON %d tokens, TOON %d tokens, saving %d (%s)\n", name, j, t, j-t, saving)
	}
	return b.String(), nil
}
