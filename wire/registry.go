package wire

import (
	"fmt"
	"io"
	"mime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/graphwire/graphwire/internal/mediatype"
)

// Codec is one wire format for GraphResponse.
//
// Implementations must be safe for concurrent use and deterministic: the same
// response gives the same bytes on every call. Decode must not retain data
// after it returns, must never panic, and reports bad input as a
// *DecodeError; AppendEncode reports a response it cannot write as an
// *EncodeError.
type Codec interface {
	// Info describes the codec. Name and aliases are matched
	// case-insensitively.
	Info() Info
	// AppendEncode appends the encoding of r to dst and returns the extended
	// slice. On error the returned slice is dst as given (no partial output).
	AppendEncode(dst []byte, r *GraphResponse) ([]byte, error)
	// Decode parses data into a new response.
	Decode(data []byte) (*GraphResponse, error)
}

// streamEncoder is wirecodec.StreamEncoder: a codec that writes its
// encoding to an io.Writer as it produces it.
type streamEncoder interface {
	EncodeTo(w io.Writer, r *GraphResponse) error
}

// Fidelity is what a codec keeps on a round trip, Decode(Encode(r)).
type Fidelity uint8

const (
	// Exact: the response comes back as it was, kinds and bits included.
	Exact Fidelity = iota
	// NumbersByValue: as Exact, except that int and float values compare
	// by numeric value (formats with one number type, such as TOON).
	NumbersByValue
	// Lossy: the format drops or rewrites values by design (GOON); what it
	// promises is a fixed point, Encode(Decode(Encode(r))) == Encode(r).
	Lossy
)

var fidelityNames = [...]string{Exact: "exact", NumbersByValue: "numbers-by-value", Lossy: "lossy"}

func (f Fidelity) String() string {
	if int(f) < len(fidelityNames) {
		return fidelityNames[f]
	}
	return fmt.Sprintf("Fidelity(%d)", uint8(f))
}

// Info describes a codec.
type Info struct {
	Name        string   // canonical name, lower case: "json"
	Aliases     []string // other names it answers to: "raw"
	MediaType   string   // e.g. "application/json"; parameters say layout and version
	Description string   // one line
	Fidelity    Fidelity // what a round trip keeps
	Binary      bool     // the encoding is bytes, not UTF-8 text
}

// Registry maps names to codecs. Its methods are safe for concurrent use,
// and lookups never take a lock: Register builds a new table and publishes
// it atomically. The zero Registry is empty and has the default Limits;
// the package-level functions use the one DefaultRegistry returns.
type Registry struct {
	mu     sync.Mutex // serialises writers
	tab    atomic.Pointer[table]
	limits Limits
}

type table struct {
	codecs  map[string]Codec // every lower-cased name and alias
	entries []entry          // sorted by Name
}

type entry struct {
	info  Info
	codec Codec
}

var defaultRegistry Registry

// DefaultRegistry returns the registry the package-level functions use and
// the built-in codec packages register themselves in.
func DefaultRegistry() *Registry { return &defaultRegistry }

// NewRegistry returns an empty registry whose stream reads (DecodeFrom)
// are bounded by l. Give the same Limits to the codecs registered in it
// (codecs.NewRegistry does both). It fails when l is out of range.
func NewRegistry(l Limits) (*Registry, error) {
	l, err := l.WithDefaults()
	if err != nil {
		return nil, err
	}
	return &Registry{limits: l}, nil
}

// Limits reports the registry's limits, defaults filled in.
func (g *Registry) Limits() Limits {
	l, err := g.limits.WithDefaults()
	if err != nil { // cannot happen: NewRegistry validated them
		return DefaultLimits()
	}
	return l
}

func (g *Registry) current() *table {
	if t := g.tab.Load(); t != nil {
		return t
	}
	return &table{}
}

// Register makes c available by its name and aliases. It panics if c is nil,
// if its name is empty, or if its name or any alias (compared
// case-insensitively) is already taken, as database/sql.Register does.
func (g *Registry) Register(c Codec) {
	if c == nil {
		panic("wire: Register codec is nil")
	}
	info := c.Info()
	name := strings.ToLower(info.Name)
	if name == "" {
		panic("wire: Register codec with an empty name")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	old := g.current()
	next := &table{codecs: make(map[string]Codec, len(old.codecs)+1+len(info.Aliases))}
	for k, v := range old.codecs {
		next.codecs[k] = v
	}
	for _, n := range append([]string{name}, info.Aliases...) {
		n = strings.ToLower(n)
		if n == "" {
			panic(fmt.Sprintf("wire: Register codec %q with an empty alias", name))
		}
		if _, dup := next.codecs[n]; dup {
			panic(fmt.Sprintf("wire: Register called twice for codec name %q", n))
		}
		next.codecs[n] = c
	}
	info = cloneInfo(info)
	info.Name = name
	for i, a := range info.Aliases {
		info.Aliases[i] = strings.ToLower(a)
	}
	next.entries = append(slices.Clone(old.entries), entry{info, c})
	slices.SortStableFunc(next.entries, func(a, b entry) int { return strings.Compare(a.info.Name, b.info.Name) })
	g.tab.Store(next)
}

func cloneInfo(i Info) Info {
	i.Aliases = slices.Clone(i.Aliases)
	return i
}

// Lookup returns the codec registered under name or alias, matched
// case-insensitively. An unknown name gives an error that lists the
// registered names and aliases and matches ErrUnknownCodec.
func (g *Registry) Lookup(name string) (Codec, error) {
	t := g.current()
	if c, ok := t.codecs[strings.ToLower(name)]; ok {
		return c, nil
	}
	have := t.names()
	if len(have) == 0 {
		have = []string{"none; forgotten import of github.com/graphwire/graphwire/codecs?"}
	}
	return nil, &unknownError{what: "unknown codec", name: name, have: have}
}

// names lists every name with its aliases: "json (raw)".
func (t *table) names() []string {
	names := make([]string, len(t.entries))
	for i, e := range t.entries {
		info := e.info
		names[i] = info.Name
		if len(info.Aliases) > 0 {
			names[i] += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
	}
	return names
}

// unknownError is the error of a lookup that found no codec.
type unknownError struct {
	what, name string
	have       []string
}

func (e *unknownError) Error() string {
	return fmt.Sprintf("wire: %s %q (have: %s)", e.what, e.name, strings.Join(e.have, ", "))
}

func (e *unknownError) Is(target error) bool { return target == ErrUnknownCodec }

// LookupMediaType returns the codec whose media type matches mediaType: the
// same type and subtype (case-insensitive), and every parameter mediaType
// gives equal to the codec's (names case-insensitive, values exact;
// "charset=utf-8" is ignored for text codecs). When several match, the
// first by name wins. No match gives an error matching ErrUnknownCodec.
func (g *Registry) LookupMediaType(mediaType string) (Codec, error) {
	want, wantParams, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return nil, fmt.Errorf("wire: media type %q: %w", mediaType, err)
	}
	t := g.current()
	offered := make([]string, len(t.entries))
	for i, e := range t.entries {
		if mediatype.Matches(e.info.MediaType, e.info.Binary, want, wantParams) {
			return e.codec, nil
		}
		offered[i] = e.info.MediaType
	}
	return nil, &unknownError{what: "no codec for media type", name: mediaType, have: offered}
}

// List returns every registered codec's Info, sorted by name, names and
// aliases in lower case. The result is a copy: changing it does not change
// the registry.
func (g *Registry) List() []Info {
	t := g.current()
	out := make([]Info, len(t.entries))
	for i, e := range t.entries {
		out[i] = cloneInfo(e.info)
	}
	return out
}

// EncodeWith encodes r with the codec registered under name.
func (g *Registry) EncodeWith(name string, r *GraphResponse) ([]byte, error) {
	c, err := g.Lookup(name)
	if err != nil {
		return nil, err
	}
	return c.AppendEncode(nil, r)
}

// EncodeTo encodes r with the codec registered under name and writes it to
// w: as it goes when the codec implements wirecodec.StreamEncoder, otherwise in one Write
// of the whole encoding. An encoding error means nothing was written.
func (g *Registry) EncodeTo(name string, w io.Writer, r *GraphResponse) error {
	c, err := g.Lookup(name)
	if err != nil {
		return err
	}
	if s, ok := c.(streamEncoder); ok {
		return s.EncodeTo(w, r)
	}
	b, err := c.AppendEncode(nil, r)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// DecodeWith decodes data with the codec registered under name.
func (g *Registry) DecodeWith(name string, data []byte) (*GraphResponse, error) {
	c, err := g.Lookup(name)
	if err != nil {
		return nil, err
	}
	return c.Decode(data)
}

// DecodeFrom reads rd to its end and decodes what it read with the codec
// registered under name: one stream, one response, whatever the codec
// (bytes after a JSON value are refused as Decode refuses them, with the
// same error). It reads in chunks of at most 32 KiB (ahead of time, when
// rd has a Len method, as bytes.Reader does) and at most the registry's
// MaxInputBytes: a longer stream is refused with a *DecodeError matching
// ErrLimit, after reading one byte past the limit and no more. To read
// several responses one after another, or to stop at the end of one
// without waiting for the stream's, use a Decoder (NewDecoder).
func (g *Registry) DecodeFrom(name string, rd io.Reader) (*GraphResponse, error) {
	d, err := g.NewDecoder(name, rd)
	if err != nil {
		return nil, err
	}
	return d.next(true)
}

// Register makes c available in the default registry by its name and
// aliases; see Registry.Register. Codec packages call it from init.
func Register(c Codec) { defaultRegistry.Register(c) }

// Lookup returns the codec registered in the default registry under name or
// alias; see Registry.Lookup.
func Lookup(name string) (Codec, error) { return defaultRegistry.Lookup(name) }

// List describes every codec of the default registry; see Registry.List.
func List() []Info { return defaultRegistry.List() }

// EncodeWith encodes r with the default registry's codec named name.
func EncodeWith(name string, r *GraphResponse) ([]byte, error) {
	return defaultRegistry.EncodeWith(name, r)
}

// DecodeWith decodes data with the default registry's codec named name.
func DecodeWith(name string, data []byte) (*GraphResponse, error) {
	return defaultRegistry.DecodeWith(name, data)
}
