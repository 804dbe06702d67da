package wire

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Codec is one wire format for GraphResponse.
//
// Implementations must be safe for concurrent use and deterministic: the same
// response gives the same bytes on every call. Decode must not retain data
// after it returns, must never panic, and reports bad input as a
// *DecodeError.
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

// Info describes a codec.
type Info struct {
	Name        string   // canonical name, lower case: "json"
	Aliases     []string // other names it answers to: "raw"
	MediaType   string   // e.g. "application/json"
	Description string   // one line
}

type registry struct {
	codecs map[string]Codec // every lower-cased name and alias
	infos  []Info           // sorted by Name
}

var (
	regMu sync.Mutex // serialises writers
	reg   atomic.Pointer[registry]
)

func current() *registry {
	if r := reg.Load(); r != nil {
		return r
	}
	return &registry{}
}

// Register makes c available by its name and aliases. It panics if c is nil,
// if its name is empty, or if its name or any alias (compared
// case-insensitively) is already taken, as database/sql.Register does. Codec
// packages call it from init.
//
// Lookups never block: Register builds a new table and publishes it
// atomically.
func Register(c Codec) {
	if c == nil {
		panic("wire: Register codec is nil")
	}
	info := c.Info()
	name := strings.ToLower(info.Name)
	if name == "" {
		panic("wire: Register codec with an empty name")
	}
	regMu.Lock()
	defer regMu.Unlock()
	old := current()
	next := &registry{codecs: make(map[string]Codec, len(old.codecs)+1+len(info.Aliases))}
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
	next.infos = append(slices.Clone(old.infos), info)
	slices.SortFunc(next.infos, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	reg.Store(next)
}

func cloneInfo(i Info) Info {
	i.Aliases = slices.Clone(i.Aliases)
	return i
}

// Lookup returns the codec registered under name or alias, matched
// case-insensitively. An unknown name gives an error that lists the
// registered names and matches ErrUnknownCodec.
func Lookup(name string) (Codec, error) {
	r := current()
	if c, ok := r.codecs[strings.ToLower(name)]; ok {
		return c, nil
	}
	names := make([]string, len(r.infos))
	for i, info := range r.infos {
		names[i] = info.Name
	}
	return nil, &unknownCodecError{name: name, have: names}
}

type unknownCodecError struct {
	name string
	have []string
}

func (e *unknownCodecError) Error() string {
	have := strings.Join(e.have, ", ")
	if have == "" {
		have = "none; forgotten import of github.com/graphwire/graphwire/codecs?"
	}
	return fmt.Sprintf("wire: unknown codec %q (have: %s)", e.name, have)
}

func (e *unknownCodecError) Is(target error) bool { return target == ErrUnknownCodec }

// List returns every registered codec's Info, sorted by name, names and
// aliases in lower case. The result is a copy: changing it does not change
// the registry.
func List() []Info {
	r := current()
	out := make([]Info, len(r.infos))
	for i, info := range r.infos {
		out[i] = cloneInfo(info)
	}
	return out
}

// EncodeWith encodes r with the codec registered under name.
func EncodeWith(name string, r *GraphResponse) ([]byte, error) {
	c, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return c.AppendEncode(nil, r)
}

// EncodeTo encodes r with the codec registered under name and writes the
// bytes to w. Nothing is written when encoding fails.
func EncodeTo(w io.Writer, name string, r *GraphResponse) error {
	b, err := EncodeWith(name, r)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// DecodeWith decodes data with the codec registered under name.
func DecodeWith(name string, data []byte) (*GraphResponse, error) {
	c, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return c.Decode(data)
}

// DecodeFrom reads all of r and decodes it with the codec registered under
// name.
func DecodeFrom(r io.Reader, name string) (*GraphResponse, error) {
	c, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return c.Decode(buf.Bytes())
}
