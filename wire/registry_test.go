package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// The registry is global, and the package's examples print List(). Tests
// that register codecs therefore run in a child process of the test binary
// (see isolated), so the examples see only the codecs they import.

const isolatedEnv = "GRAPHWIRE_WIRE_ISOLATED_TEST"

// isolated reports whether the calling test should run its body here. In
// the parent process it re-runs the test alone in a child process, reports
// the child's result, and returns false; in the child it returns true.
func isolated(t *testing.T) bool {
	t.Helper()
	if os.Getenv(isolatedEnv) == t.Name() {
		return true
	}
	args := []string{"-test.run=^" + t.Name() + "$", "-test.count=1", "-test.v"}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+max(time.Until(d), time.Second).String())
	}
	cmd := exec.Command(os.Args[0], args...)
	// The race detector's pause at exit (one second by default) would
	// dominate these short runs.
	cmd.Env = append(os.Environ(), isolatedEnv+"="+t.Name(), "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s in a child process: %v\n%s", t.Name(), err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("%s did not run in the child process:\n%s", t.Name(), out)
	}
	return false
}

// fake is a codec for registry tests. Its encoding is the format version
// followed by the query type; decoding reverses that.
type fake struct {
	info wire.Info
}

func newFake(name string, aliases ...string) *fake {
	return &fake{info: wire.Info{
		Name:        name,
		Aliases:     aliases,
		MediaType:   "application/x-" + strings.ToLower(name),
		Description: "test codec " + name,
	}}
}

func (f *fake) Info() wire.Info { return f.info }

func (f *fake) AppendEncode(dst []byte, r *wire.GraphResponse) ([]byte, error) {
	if r == nil {
		return dst, errors.New("fake: nil response")
	}
	dst = append(dst, r.FormatVersion...)
	dst = append(dst, ' ')
	return append(dst, r.QueryType...), nil
}

func (f *fake) Decode(data []byte) (*wire.GraphResponse, error) {
	v, q, ok := bytes.Cut(data, []byte{' '})
	if !ok {
		return nil, &wire.DecodeError{Codec: f.info.Name, Offset: int64(len(data)), Msg: "expected a space"}
	}
	return &wire.GraphResponse{FormatVersion: string(v), QueryType: wire.QueryType(q)}, nil
}

// mustPanic runs f and returns the panic value's text, failing t if f
// returns normally.
func mustPanic(t *testing.T, f func()) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic")
		}
		msg = fmt.Sprint(r)
	}()
	f()
	return ""
}

func registeredNames() []string {
	var names []string
	for _, info := range wire.List() {
		names = append(names, info.Name)
		names = append(names, info.Aliases...)
	}
	return names
}

func TestRegisterPanics(t *testing.T) {
	if !isolated(t) {
		return
	}
	wire.Register(newFake("Panic-Base", "pb-alias"))

	var typedNil wire.Codec // an interface holding nothing
	tests := []struct {
		name  string
		codec wire.Codec
		want  string // substring of the panic message
	}{
		{"nil codec", typedNil, "nil"},
		{"empty name", newFake(""), "empty name"},
		{"empty alias", newFake("panic-empty-alias", ""), "empty alias"},
		{"duplicate name", newFake("panic-base"), `"panic-base"`},
		{"duplicate name other case", newFake("PANIC-BASE"), `"panic-base"`},
		{"name taken by an alias", newFake("PB-Alias"), `"pb-alias"`},
		{"alias taken by a name", newFake("panic-new-1", "Panic-Base"), `"panic-base"`},
		{"alias taken by an alias", newFake("panic-new-2", "pb-ALIAS"), `"pb-alias"`},
		{"alias equal to own name", newFake("panic-self", "PANIC-SELF"), `"panic-self"`},
		{"two equal aliases", newFake("panic-twice", "twice-a", "Twice-A"), `"twice-a"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := wire.List()
			msg := mustPanic(t, func() { wire.Register(tc.codec) })
			if !strings.HasPrefix(msg, "wire: ") || !strings.Contains(msg, tc.want) {
				t.Errorf("panic %q, want it to start with \"wire: \" and contain %q", msg, tc.want)
			}
			if diff := cmp.Diff(before, wire.List()); diff != "" {
				t.Errorf("a failed Register changed the registry (-before +after):\n%s", diff)
			}
		})
	}
	// A failed registration leaves none of its names behind.
	for _, n := range []string{"panic-new-1", "panic-new-2", "panic-self", "panic-twice", "twice-a"} {
		if _, err := wire.Lookup(n); !errors.Is(err, wire.ErrUnknownCodec) {
			t.Errorf("Lookup(%q) after a failed Register: err = %v, want ErrUnknownCodec", n, err)
		}
	}
}

func TestLookupCaseInsensitive(t *testing.T) {
	if !isolated(t) {
		return
	}
	c := newFake("Lookup-Case", "LC-Alias")
	wire.Register(c)
	for _, n := range []string{"lookup-case", "LOOKUP-CASE", "Lookup-Case", "lc-alias", "LC-ALIAS"} {
		got, err := wire.Lookup(n)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", n, err)
		}
		if got != wire.Codec(c) {
			t.Errorf("Lookup(%q) = %v, want the registered codec", n, got)
		}
	}
	// The registry stores the canonical name and the aliases in lower case.
	list := wire.List()
	i := slices.IndexFunc(list, func(info wire.Info) bool { return info.Name == "lookup-case" })
	if i < 0 {
		t.Fatalf("List() has no %q: %v", "lookup-case", registeredNames())
	}
	if diff := cmp.Diff([]string{"lc-alias"}, list[i].Aliases); diff != "" {
		t.Errorf("List() aliases (-want +got):\n%s", diff)
	}
}

func TestListSortedCopies(t *testing.T) {
	if !isolated(t) {
		return
	}
	aliases := []string{"list-alias"}
	c := newFake("list-m", aliases...)
	for _, n := range []string{"list-z", "list-a"} {
		wire.Register(newFake(n))
	}
	wire.Register(c)

	list := wire.List()
	if !slices.IsSortedFunc(list, func(a, b wire.Info) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("List() not sorted by name: %v", registeredNames())
	}
	want := wire.Info{Name: "list-m", Aliases: []string{"list-alias"}, MediaType: "application/x-list-m", Description: "test codec list-m"}
	i := slices.IndexFunc(list, func(info wire.Info) bool { return info.Name == "list-m" })
	if i < 0 {
		t.Fatalf("List() has no list-m")
	}
	if diff := cmp.Diff(want, list[i]); diff != "" {
		t.Errorf("List() entry (-want +got):\n%s", diff)
	}

	// Changing what List returned does not change the registry.
	list[i].Name = "changed"
	list[i].Aliases[0] = "changed-alias"
	list[i].MediaType = "changed"
	list = append(list[:0], wire.Info{Name: "only"})
	_ = list
	// Nor does changing the slice the codec handed to Register.
	aliases[0] = "changed-too"
	c.info.Aliases[0] = "changed-too"

	again := wire.List()
	i = slices.IndexFunc(again, func(info wire.Info) bool { return info.Name == "list-m" })
	if i < 0 {
		t.Fatalf("List() lost list-m after its result was changed: %v", registeredNames())
	}
	if diff := cmp.Diff(want, again[i]); diff != "" {
		t.Errorf("List() entry after changing an earlier result (-want +got):\n%s", diff)
	}
	if _, err := wire.Lookup("list-alias"); err != nil {
		t.Errorf("Lookup(list-alias): %v", err)
	}
}

func TestUnknownCodec(t *testing.T) {
	if !isolated(t) {
		return
	}
	wire.Register(newFake("unknown-b"))
	wire.Register(newFake("unknown-a", "unknown-alias"))

	check := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, wire.ErrUnknownCodec) {
			t.Fatalf("%s: err = %v, want one matching ErrUnknownCodec", op, err)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, `wire: unknown codec "No-Such" (have: `) {
			t.Errorf("%s: error %q does not start with the name asked for", op, msg)
		}
		var names []string
		for _, info := range wire.List() {
			name := info.Name
			if len(info.Aliases) > 0 {
				name += " (" + strings.Join(info.Aliases, ", ") + ")"
			}
			names = append(names, name)
		}
		if want := "(have: " + strings.Join(names, ", ") + ")"; !strings.HasSuffix(msg, want) {
			t.Errorf("%s: error %q, want it to end with %q", op, msg, want)
		}
	}
	_, err := wire.Lookup("No-Such")
	check("Lookup", err)
	b, err := wire.EncodeWith("No-Such", &wire.GraphResponse{})
	check("EncodeWith", err)
	if b != nil {
		t.Errorf("EncodeWith: %q, want no bytes", b)
	}
	r, err := wire.DecodeWith("No-Such", []byte("1.0.0 traversal"))
	check("DecodeWith", err)
	if r != nil {
		t.Errorf("DecodeWith: %+v, want nil", r)
	}
	var w bytes.Buffer
	check("EncodeTo", wire.DefaultRegistry().EncodeTo("No-Such", &w, &wire.GraphResponse{}))
	if w.Len() != 0 {
		t.Errorf("EncodeTo wrote %q", w.Bytes())
	}
	_, err = wire.DefaultRegistry().DecodeFrom("No-Such", strings.NewReader("1.0.0 traversal"))
	check("DecodeFrom", err)
}

func TestEncodeDecodeWith(t *testing.T) {
	if !isolated(t) {
		return
	}
	wire.Register(newFake("with-codec", "with-alias"))
	in := &wire.GraphResponse{FormatVersion: "1.2.0", QueryType: wire.Search}
	b, err := wire.EncodeWith("WITH-ALIAS", in)
	if err != nil || string(b) != "1.2.0 search" {
		t.Fatalf("EncodeWith = %q, %v; want %q", b, err, "1.2.0 search")
	}
	out, err := wire.DecodeWith("with-codec", b)
	if err != nil {
		t.Fatalf("DecodeWith: %v", err)
	}
	if diff := wiretest.Diff(in, out, wire.Exact); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}

	var w bytes.Buffer
	if err := wire.DefaultRegistry().EncodeTo("with-codec", &w, in); err != nil || w.String() != "1.2.0 search" {
		t.Errorf("EncodeTo wrote %q, %v", w.Bytes(), err)
	}
	// An encoding error writes nothing.
	w.Reset()
	if err := wire.DefaultRegistry().EncodeTo("with-codec", &w, nil); err == nil || w.Len() != 0 {
		t.Errorf("EncodeTo(nil) = %v and wrote %q; want an error and nothing written", err, w.Bytes())
	}
	out, err = wire.DefaultRegistry().DecodeFrom("With-Codec", strings.NewReader("1.2.0 search"))
	if err != nil {
		t.Fatalf("DecodeFrom: %v", err)
	}
	if diff := wiretest.Diff(in, out, wire.Exact); diff != "" {
		t.Errorf("DecodeFrom (-want +got):\n%s", diff)
	}
	// Decode errors pass through unchanged.
	_, err = wire.DecodeWith("with-codec", []byte("nospace"))
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Offset != 7 {
		t.Errorf("DecodeWith(bad) = %v, want a *wire.DecodeError at offset 7", err)
	}
	// A reader that fails gives its error.
	readErr := errors.New("broken reader")
	if _, err := wire.DefaultRegistry().DecodeFrom("with-codec", errReader{readErr}); !errors.Is(err, readErr) {
		t.Errorf("DecodeFrom(failing reader) = %v, want %v", err, readErr)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestConcurrentRegistry registers codecs from several goroutines while
// others look them up, encode, decode and list. Run it with -race.
func TestConcurrentRegistry(t *testing.T) {
	if !isolated(t) {
		return
	}
	const writers, perWriter, readers = 4, 25, 6
	wire.Register(newFake("conc-stable"))
	var (
		wg         sync.WaitGroup
		registered atomic.Int64
		stop       = make(chan struct{})
		errs       = make(chan error, writers+readers)
	)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWriter; i++ {
				wire.Register(newFake(fmt.Sprintf("conc-%d-%d", w, i), fmt.Sprintf("conc-alias-%d-%d", w, i)))
				registered.Add(1)
			}
		}()
	}
	var readersWG sync.WaitGroup
	for r := 0; r < readers; r++ {
		readersWG.Add(1)
		go func() {
			defer readersWG.Done()
			in := &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: wire.Neighbors}
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				b, err := wire.EncodeWith("conc-stable", in)
				if err != nil {
					errs <- err
					return
				}
				out, err := wire.DecodeWith("CONC-STABLE", b)
				if err != nil || out.QueryType != wire.Neighbors {
					errs <- fmt.Errorf("DecodeWith = %+v, %v", out, err)
					return
				}
				list := wire.List()
				if !slices.IsSortedFunc(list, func(a, b wire.Info) int { return strings.Compare(a.Name, b.Name) }) {
					errs <- errors.New("List() not sorted during concurrent Register")
					return
				}
				// Whatever List shows can be looked up, by name and alias.
				info := list[n%len(list)]
				if _, err := wire.Lookup(info.Name); err != nil {
					errs <- fmt.Errorf("Lookup(%q) of a listed codec: %v", info.Name, err)
					return
				}
				for _, a := range info.Aliases {
					if _, err := wire.Lookup(a); err != nil {
						errs <- fmt.Errorf("Lookup(%q) of a listed alias: %v", a, err)
						return
					}
				}
				if _, err := wire.Lookup(fmt.Sprintf("conc-%d-%d", n%writers, n%perWriter)); err != nil && !errors.Is(err, wire.ErrUnknownCodec) {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	readersWG.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for w := 0; w < writers; w++ {
		for i := 0; i < perWriter; i++ {
			for _, n := range []string{fmt.Sprintf("conc-%d-%d", w, i), fmt.Sprintf("CONC-ALIAS-%d-%d", w, i)} {
				c, err := wire.Lookup(n)
				if err != nil {
					t.Fatalf("Lookup(%q) after all Register calls: %v", n, err)
				}
				if got, want := c.Info().Name, fmt.Sprintf("conc-%d-%d", w, i); got != want {
					t.Errorf("Lookup(%q) found %q", n, got)
				}
			}
		}
	}
	if got := registered.Load(); got != writers*perWriter {
		t.Errorf("registered %d codecs, want %d", got, writers*perWriter)
	}
	count := 0
	for _, info := range wire.List() {
		if strings.HasPrefix(info.Name, "conc-") {
			count++
		}
	}
	if want := writers*perWriter + 1; count != want {
		t.Errorf("List() has %d conc- codecs, want %d", count, want)
	}
}

func TestDecodeErrorFormat(t *testing.T) {
	inner := errors.New("inner cause")
	tests := []struct {
		name string
		err  *wire.DecodeError
		want string
	}{
		{"offset", &wire.DecodeError{Codec: "json", Offset: 120, Msg: "unexpected end of input"}, "json: offset 120: unexpected end of input"},
		{"offset zero", &wire.DecodeError{Codec: "cbor", Msg: "empty input"}, "cbor: offset 0: empty input"},
		{"line", &wire.DecodeError{Codec: "goon", Line: 7, Msg: "expected @nodes"}, "goon: line 7: expected @nodes"},
		{"line and column", &wire.DecodeError{Codec: "toon", Line: 3, Column: 5, Offset: 99, Msg: "bad indent"}, "toon: line 3, column 5: bad indent"},
		{"wrapped", &wire.DecodeError{Codec: "msgpack", Offset: 4, Msg: "reading a node", Err: inner}, "msgpack: offset 4: reading a node: inner cause"},
		{"wrapped without message", &wire.DecodeError{Codec: "msgpack", Offset: 4, Err: inner}, "msgpack: offset 4: inner cause"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("Error() = %q, want %q", got, tc.want)
			}
			if tc.err.Err != nil && !errors.Is(tc.err, inner) {
				t.Errorf("errors.Is(err, inner) = false")
			}
			var wrapped error = fmt.Errorf("context: %w", tc.err)
			var de *wire.DecodeError
			if !errors.As(wrapped, &de) || de != tc.err {
				t.Errorf("errors.As through a wrapper failed")
			}
		})
	}
}
