package toonvalue

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// referenceVersion is the version of the npm package @toon-format/toon the
// differential test compares against.
const referenceVersion = "4.4.0"

// referenceDocuments is the number of generated documents the differential
// test checks.
const referenceDocuments = 5000

// compareWithReference runs one document through both implementations.
func compareWithReference(ref *reference, jsonText []byte, opts EncodeOptions) error {
	opts, err := opts.resolve()
	if err != nil {
		return err
	}
	v, err := jsonvalue.Parse(jsonText)
	if err != nil {
		return fmt.Errorf("jsonvalue.Parse(%s): %v", jsonText, err)
	}
	v = jsHost(v)
	ours, err := Marshal(v, opts)
	if err != nil {
		return fmt.Errorf("Marshal(%s): %v", jsonText, err)
	}
	describe := func() string {
		return fmt.Sprintf("document: %s\noptions: delimiter %q, indent %d\nours:\n%s\n", jsonText, rune(opts.Delimiter), opts.IndentSize, ours)
	}
	theirs, err := ref.encode(jsonText, opts)
	if err != nil {
		return fmt.Errorf("reference encode failed: %v\n%s", err, describe())
	}
	if theirs != string(ours) {
		return fmt.Errorf("encode differs from the reference\n%sreference:\n%s\nours (quoted):      %q\nreference (quoted): %q", describe(), theirs, ours, theirs)
	}
	dopts := DecodeOptions{IndentSize: opts.IndentSize}
	ourValue, err := Unmarshal([]byte(theirs), dopts)
	if err != nil {
		return fmt.Errorf("Unmarshal of the reference's output: %v\n%s", err, describe())
	}
	refJSON, err := ref.decode(string(ours), opts.IndentSize)
	if err != nil {
		return fmt.Errorf("reference decode of our output failed: %v\n%s", err, describe())
	}
	refValue, err := jsonvalue.Parse([]byte(refJSON))
	if err != nil {
		return fmt.Errorf("ParseJSON of the reference's decode (%s): %v", refJSON, err)
	}
	if ourJSON, _ := jsonvalue.Append(nil, jsHost(ourValue)); !jsonvalue.Equal(jsHost(refValue), jsHost(ourValue)) {
		return fmt.Errorf("decoded values differ\n%sreference decodes to: %s\nwe decode to:         %s", describe(), refJSON, ourJSON)
	}
	if !equalUnordered(v, ourValue) {
		ourJSON, _ := jsonvalue.Append(nil, ourValue)
		return fmt.Errorf("decode(encode(x)) != x\n%sdecoded: %s", describe(), ourJSON)
	}
	return nil
}

// jsHost applies JavaScript's view of a JSON value: integers beyond ±2^53
// become the nearest double, and in every object the keys that are array
// indices (canonical integers 0 to 2^32-2) come first, in ascending order.
func jsHost(v jsonvalue.Value) jsonvalue.Value {
	switch x := v.(type) {
	case jsonvalue.Number:
		// A JavaScript number beyond ±2^53 is a double, which JavaScript
		// writes in its shortest form; model it as the number that form
		// names (read back as this package reads it).
		f := x.Float64()
		big := f == math.Trunc(f) && math.Abs(f) > 1<<53
		if i, ok := x.Int64(); ok && x.IsInt() {
			big = i > 1<<53 || i < -(1<<53)
		}
		if big && math.Abs(f) < 1e21 {
			n, _ := jsonvalue.LiteralNumber(strconv.FormatFloat(f, 'f', -1, 64))
			return n
		}
		return x
	case []jsonvalue.Value:
		out := make([]jsonvalue.Value, len(x))
		for i, item := range x {
			out[i] = jsHost(item)
		}
		return out
	case *jsonvalue.Object:
		var index, other []jsonvalue.Member
		for _, m := range x.Members {
			m.Value = jsHost(m.Value)
			if _, ok := arrayIndex(m.Key); ok {
				index = append(index, m)
			} else {
				other = append(other, m)
			}
		}
		slices.SortStableFunc(index, func(a, b jsonvalue.Member) int {
			i, _ := arrayIndex(a.Key)
			j, _ := arrayIndex(b.Key)
			return int(i - j)
		})
		return &jsonvalue.Object{Members: append(append([]jsonvalue.Member{}, index...), other...)}
	}
	return v
}

func arrayIndex(k string) (int64, bool) {
	if k == "" || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return 0, false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' { // "-0" and "+1" are not indices
			return 0, false
		}
	}
	n, err := strconv.ParseInt(k, 10, 64)
	if err != nil || n < 0 || n > 4294967294 {
		return 0, false
	}
	return n, true
}

// equalUnordered is Equal with object members compared as sets: tabular
// forms give every row the first row's key order (spec §2).
func equalUnordered(a, b jsonvalue.Value) bool {
	switch x := a.(type) {
	case []jsonvalue.Value:
		y, ok := b.([]jsonvalue.Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalUnordered(x[i], y[i]) {
				return false
			}
		}
		return true
	case *jsonvalue.Object:
		y, ok := b.(*jsonvalue.Object)
		if !ok || x == nil || y == nil || len(x.Members) != len(y.Members) {
			return ok && x == nil && y == nil
		}
		for _, m := range x.Members {
			w, ok := y.Get(m.Key)
			if !ok || !equalUnordered(m.Value, w) {
				return false
			}
		}
		return true
	}
	if n, ok := a.(jsonvalue.Number); ok && !n.IsInt() && (n.Float64() != n.Float64()) {
		return b == nil // NaN encodes as null
	}
	return jsonvalue.Equal(a, b)
}

// reference is a running node process answering encode/decode requests.
type reference struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

func (r *reference) call(req *jsonvalue.Object) (*jsonvalue.Object, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line, err := jsonvalue.Append(nil, req)
	if err != nil {
		return nil, err
	}
	if _, err := r.in.Write(append(line, '\n')); err != nil {
		return nil, err
	}
	resp, err := r.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("reading the reference's answer: %v", err)
	}
	v, err := jsonvalue.Parse(resp)
	if err != nil {
		return nil, fmt.Errorf("bad answer %q: %v", resp, err)
	}
	o, ok := v.(*jsonvalue.Object)
	if !ok {
		return nil, fmt.Errorf("bad answer %q", resp)
	}
	if ok, _ := o.Get("ok"); ok != true {
		msg, _ := o.Get("error")
		return nil, fmt.Errorf("%v", msg)
	}
	return o, nil
}

func (r *reference) encode(jsonText []byte, opts EncodeOptions) (string, error) {
	o, err := opts.resolve()
	if err != nil {
		return "", err
	}
	options := &jsonvalue.Object{}
	options.Add("delimiter", string(rune(o.Delimiter)))
	options.Add("indentSize", jsonvalue.Int(int64(o.IndentSize)))
	return r.ask("encode", "json", string(jsonText), options, "toon")
}

func (r *reference) decode(toonText string, indent int) (string, error) {
	options := &jsonvalue.Object{}
	options.Add("indentSize", jsonvalue.Int(int64(indent)))
	return r.ask("decode", "toon", toonText, options, "json")
}

// ask sends op with its input under key and its options, and returns the
// text the answer holds under want.
func (r *reference) ask(op, key, input string, options *jsonvalue.Object, want string) (string, error) {
	req := &jsonvalue.Object{}
	req.Add("op", op)
	req.Add(key, input)
	req.Add("options", options)
	resp, err := r.call(req)
	if err != nil {
		return "", err
	}
	s, _ := resp.Get(want)
	text, ok := s.(string)
	if !ok {
		return "", errors.New("answer has no " + want + " text")
	}
	return text, nil
}

var (
	referenceOnce sync.Once
	referenceProc *reference
	referenceErr  error
	referenceSkip bool
)

// startReference returns the shared reference process, starting it (and
// installing the npm package) on first use.
func startReference(t *testing.T) *reference {
	t.Helper()
	referenceOnce.Do(func() {
		referenceProc, referenceSkip, referenceErr = launchReference()
	})
	if referenceErr != nil {
		if referenceSkip && os.Getenv("CI") == "" {
			t.Skipf("reference implementation unavailable: %v", referenceErr)
		}
		t.Fatalf("reference implementation unavailable: %v", referenceErr)
	}
	return referenceProc
}

func launchReference() (ref *reference, skippable bool, err error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, true, err
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, true, err
	}
	dir, err := installReference(npm)
	if err != nil {
		return nil, true, err
	}
	script, err := filepath.Abs(filepath.Join("testdata", "reference.mjs"))
	if err != nil {
		return nil, false, err
	}
	cmd := exec.Command(node, script, dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, false, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, false, err
	}
	// The process lives as long as the test binary; closing stdin at exit
	// ends it (TestMain is not needed: node exits when its input closes).
	return &reference{in: in, out: bufio.NewReaderSize(out, 1<<20)}, false, nil
}

// installReference installs @toon-format/toon@referenceVersion with npm and
// returns the npm prefix holding it. It reuses an installation cached under
// the user cache directory; without a usable cache it installs into a fresh
// temporary directory.
func installReference(npm string) (string, error) {
	dir := ""
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "graphwire", "toon-reference-"+referenceVersion)
		if installedVersion(dir) == referenceVersion {
			return dir, nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			dir = ""
		}
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "toon-reference-")
		if err != nil {
			return "", err
		}
		dir = tmp
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "@toon-format/toon@"+referenceVersion)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm install @toon-format/toon@%s: %v\n%s", referenceVersion, err, stderr.String())
	}
	if v := installedVersion(dir); v != referenceVersion {
		return "", fmt.Errorf("npm installed @toon-format/toon %q, want %s", v, referenceVersion)
	}
	return dir, nil
}

func installedVersion(prefix string) string {
	data, err := os.ReadFile(filepath.Join(prefix, "node_modules", "@toon-format", "toon", "package.json"))
	if err != nil {
		return ""
	}
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return ""
	}
	o, _ := v.(*jsonvalue.Object)
	ver, _ := o.Get("version")
	s, _ := ver.(string)
	return strings.TrimSpace(s)
}
