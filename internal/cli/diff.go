package cli

// The delta commands: diff and patch.
//
// diff BASE NEXT -f NAME writes the delta that turns BASE into NEXT in the
// delta document of codec NAME (package delta; the codec implements
// delta.DocumentCodec). BASE and NEXT may be in any codec: -from names it, or
// auto (the default) detects each. When NAME is a lossy codec (goon), the
// delta is between the responses as a reader of NAME holds them (each
// encoded in NAME and decoded back), which is what such a client patches.
//
// patch BASE DELTA applies DELTA to BASE and writes the result, by default
// in BASE's codec (-f NAME for another). The delta's syntax is detected
// (-d NAME to name it: otherwise the first codec, by its Sniff, that
// reads DELTA as a delta); a delta for another base, or truncated or altered,
// is an error and nothing is written. BASE is read as the delta's codec
// carries it before the delta is checked against it: for a codec that is
// not exact (goon; toon and gcf, which write 81.0 as 81), BASE encoded in
// that codec and decoded back, as diff computed the delta; so the file
// given to diff, in whatever codec, is a base the delta applies to.

import (
	"cmp"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

func runDiff(env *Env, fs *flag.FlagSet) error {
	to := fs.String("f", "", "delta syntax: the codec `NAME` whose delta to write (see wirebench list)")
	from := fs.String("from", Auto, "codec `NAME` of BASE and NEXT, or auto to detect each")
	out := fs.String("o", "", "output `FILE` (default: standard output; - is standard output)")
	if err := parseFlags(fs, env, arguments{2, 2, "two files, BASE and NEXT"}); err != nil {
		return err
	}
	if *to == "" {
		return usagef("missing -f NAME (codecs with a delta syntax: %s)", deltaCodecNames())
	}
	enc, err := deltaCodec(*to)
	if err != nil {
		return err
	}
	inCodec, err := lookupOrAuto(*from)
	if err != nil {
		return err
	}
	if err := refuseBinaryToTerminal(env, enc.Info(), *out); err != nil {
		return err
	}
	var rs [2]*wire.GraphResponse
	for i, file := range fs.Args() {
		if rs[i], err = readResponse(env, file, inCodec); err != nil {
			return err
		}
		if rs[i], err = delta.Held(enc, rs[i]); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	d, err := delta.Diff(rs[0], rs[1])
	if err != nil {
		return err
	}
	b, err := delta.AppendDelta(enc, nil, d)
	if err != nil {
		return fmt.Errorf("writing the delta as %s: %w", enc.Info().Name, err)
	}
	if !enc.Info().Binary {
		b = finalNewline(env, *out, b, false)
	}
	return writeOutput(env, *out, b)
}

func runPatch(env *Env, fs *flag.FlagSet) error {
	from := fs.String("from", Auto, "codec `NAME` of BASE, or auto to detect it. BASE is read as the delta's codec carries it before the\ndelta's check: encoded in that codec and decoded back when it is not exact (goon; toon and gcf write 81.0 as 81),\nas diff computed the delta; so the file given to diff, in any codec, is a base its delta applies to")
	dname := fs.String("d", Auto, "delta syntax of DELTA: a codec `NAME`, or auto to detect it")
	to := fs.String("f", "", "output codec `NAME` (default: BASE's codec)")
	out := fs.String("o", "", "output `FILE` (default: standard output; - is standard output)")
	if err := parseFlags(fs, env, arguments{2, 2, "two files, BASE and DELTA"}); err != nil {
		return err
	}
	inCodec, err := lookupOrAuto(*from)
	if err != nil {
		return err
	}
	var dc wire.Codec
	if !strings.EqualFold(*dname, Auto) {
		if dc, err = deltaCodec(*dname); err != nil {
			return err
		}
	}
	var enc wire.Codec
	if *to != "" {
		if enc, err = wire.Lookup(*to); err != nil {
			return usagef("%v", err)
		}
		if err := refuseBinaryToTerminal(env, enc.Info(), *out); err != nil {
			return err
		}
	}
	baseFile, deltaFile := fs.Arg(0), fs.Arg(1)
	name, data, err := readInput(env, []string{baseFile})
	if err != nil {
		return err
	}
	if inCodec == nil {
		if inCodec, err = detect(data); err != nil {
			return fmt.Errorf("%s%w", name, err)
		}
	}
	base, err := inCodec.Decode(data)
	if err != nil {
		return fmt.Errorf("%s%w%s", name, err, looksLike(data, inCodec.Info().Name))
	}
	if enc == nil {
		enc = inCodec
		if err := refuseBinaryToTerminal(env, enc.Info(), *out); err != nil {
			return err
		}
	}
	dn, ddata, err := readInput(env, []string{deltaFile})
	if err != nil {
		return err
	}
	var d *delta.Delta
	if dc == nil {
		d, dc, err = detectDelta(ddata)
	} else {
		d, err = delta.DecodeDelta(dc, ddata)
	}
	if err != nil {
		return fmt.Errorf("%s%w", dn, err)
	}
	if base, err = delta.Held(dc, base); err != nil {
		return fmt.Errorf("%sreading the base as %s carries it: %w", name, dc.Info().Name, err)
	}
	next, err := delta.Patch(base, d)
	if err != nil {
		return fmt.Errorf("%s%w", dn, err)
	}
	b, err := enc.AppendEncode(nil, next)
	if err != nil {
		return fmt.Errorf("encoding the result as %s: %w", enc.Info().Name, err)
	}
	if !enc.Info().Binary {
		b = finalNewline(env, *out, b, !inCodec.Info().Binary && len(data) > 0 && data[len(data)-1] == '\n')
	}
	return writeOutput(env, *out, b)
}

// lookupOrAuto returns the codec named, or nil for auto.
func lookupOrAuto(name string) (wire.Codec, error) {
	if strings.EqualFold(name, Auto) {
		return nil, nil
	}
	c, err := wire.Lookup(name)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return c, nil
}

// deltaCodec returns the registered codec name, which must have a delta
// syntax.
func deltaCodec(name string) (wire.Codec, error) {
	c, err := wire.Lookup(name)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if _, ok := c.(delta.DocumentCodec); !ok {
		return nil, usagef("codec %s has no delta syntax (codecs with one: %s)", c.Info().Name, deltaCodecNames())
	}
	return c, nil
}

func deltaCodecNames() string {
	var names []string
	for _, info := range wire.List() {
		if c, err := wire.Lookup(info.Name); err == nil {
			if _, ok := c.(delta.DocumentCodec); ok {
				names = append(names, info.Name)
			}
		}
	}
	return strings.Join(names, ", ")
}

// readResponse reads and decodes the response in file with c, or with the
// codec detected when c is nil.
func readResponse(env *Env, file string, c wire.Codec) (*wire.GraphResponse, error) {
	name, data, err := readInput(env, []string{file})
	if err != nil {
		return nil, err
	}
	if c == nil {
		if c, err = detect(data); err != nil {
			return nil, fmt.Errorf("%s%w", name, err)
		}
	}
	r, err := c.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s%w%s", name, err, looksLike(data, c.Info().Name))
	}
	return r, nil
}

// detectDelta reads data as a delta of the codec it most likely is:
// codecs that write documents, in order of their Sniff's confidence, the
// first that reads it, and that codec; when none does, the error of the
// likeliest (of confidence minConfidence or more), else one that says so.
func detectDelta(data []byte) (*delta.Delta, wire.Codec, error) {
	type candidate struct {
		c    wire.Codec
		conf float64
	}
	var cs []candidate
	prefix := data[:min(len(data), wirecodec.SniffLen)]
	for _, info := range wire.List() {
		c, err := wire.Lookup(info.Name)
		if err != nil {
			continue
		}
		if _, ok := c.(delta.DocumentCodec); !ok {
			continue
		}
		conf := 0.0
		if s, ok := c.(wirecodec.Sniffer); ok {
			conf = s.Sniff(prefix)
		}
		cs = append(cs, candidate{c, conf})
	}
	slices.SortStableFunc(cs, func(a, b candidate) int { return cmp.Compare(b.conf, a.conf) })
	var first error
	for _, cand := range cs {
		d, err := delta.DecodeDelta(cand.c, data)
		if err == nil {
			return d, cand.c, nil
		}
		if first == nil && cand.conf >= minConfidence {
			first = err // the likeliest codec's reason
		}
	}
	if first != nil {
		return nil, nil, first
	}
	return nil, nil, fmt.Errorf("cannot read the delta in any codec (it starts %s); name its codec with -d NAME (codecs with a delta syntax: %s)", excerpt(data), deltaCodecNames())
}
