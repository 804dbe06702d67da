package testsupport

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// NpmInstall returns the path of node and the npm prefix holding pkg
// (name@version) under node_modules, installed with npm into a directory
// of the user cache, reused when it holds that version (else into a
// temporary directory). Without node or npm the test is skipped, or fails
// when CI is set; so does a failed install.
func NpmInstall(tb testing.TB, pkg string) (node, prefix string) {
	tb.Helper()
	node = Tool(tb, "node", "Node.js")
	npm := Tool(tb, "npm", "Node.js")
	prefix, err := npmInstall(npm, pkg)
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatal(err)
		}
		tb.Skip(err)
	}
	return node, prefix
}

var npmMu sync.Mutex // one install at a time in a test binary

func npmInstall(npm, pkg string) (string, error) {
	npmMu.Lock()
	defer npmMu.Unlock()
	at := strings.LastIndex(pkg, "@")
	name, version := pkg[:at], pkg[at+1:]
	dir := ""
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "graphwire", "npm-"+strings.NewReplacer("/", "+", "@", "").Replace(pkg))
		if npmVersion(dir, name) == version {
			return dir, nil
		}
		if os.MkdirAll(dir, 0o755) != nil {
			dir = ""
		}
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "graphwire-npm-")
		if err != nil {
			return "", err
		}
		dir = tmp
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", pkg).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm install %s: %v\n%s", pkg, err, out)
	}
	if v := npmVersion(dir, name); v != version {
		return "", fmt.Errorf("npm installed %s %q, want %s", name, v, version)
	}
	return dir, nil
}

// npmVersion returns the version of the package name installed under
// prefix, or "".
func npmVersion(prefix, name string) string {
	data, err := os.ReadFile(filepath.Join(prefix, "node_modules", filepath.FromSlash(name), "package.json"))
	if err != nil {
		return ""
	}
	var p struct{ Version string }
	if json.Unmarshal(data, &p) != nil {
		return ""
	}
	return strings.TrimSpace(p.Version)
}

// nodeRunner is node.mjs, the loop that answers a Node's requests.
//
//go:embed node.mjs
var nodeRunner string

// Node is a node process that answers requests, one JSON object a line
// on its standard input, with one JSON object a line on its standard
// output, in order: {"ok":true, ...} or {"ok":false,"error":"..."}. The
// differential tests run a reference implementation from npm this way.
type Node struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

var nodes sync.Map // script and package → *nodeStart

type nodeStart struct {
	once sync.Once
	node *Node
	err  error
}

// StartNode returns the process answering requests with the handlers of
// script (a path relative to the test's directory; see node.mjs) over the
// npm package pkg, installing pkg (see NpmInstall) and starting the process
// on the first call for them in the test binary; later calls share it. It
// lives as long as the binary: node exits when its input closes.
func StartNode(tb testing.TB, script, pkg string) *Node {
	tb.Helper()
	node, prefix := NpmInstall(tb, pkg)
	s, _ := nodes.LoadOrStore(script+"\x00"+pkg, new(nodeStart))
	start := s.(*nodeStart)
	start.once.Do(func() { start.node, start.err = startNode(node, script, prefix) })
	if start.err != nil {
		tb.Fatalf("node %s: %v", script, start.err)
	}
	return start.node
}

func startNode(node, script, prefix string) (*Node, error) {
	path, err := filepath.Abs(script)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, "--input-type=module", "-e", nodeRunner, prefix, path)
	cmd.Stderr = os.Stderr
	in, inErr := cmd.StdinPipe()
	out, outErr := cmd.StdoutPipe()
	if err := errors.Join(inErr, outErr); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Node{in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

// Ask sends req, marshalled as JSON, and returns the text the answer
// holds under key; an answer that is not ok is an error carrying its text.
func (n *Node) Ask(req any, key string) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	line, err := json.Marshal(req)
	if err != nil {
		return "", err
	}
	if _, err := n.in.Write(append(line, '\n')); err != nil {
		return "", err
	}
	resp, err := n.out.ReadBytes('\n')
	if err != nil {
		return "", fmt.Errorf("reading the answer: %v", err)
	}
	var answer map[string]any
	if err := json.Unmarshal(resp, &answer); err != nil {
		return "", fmt.Errorf("bad answer %q: %v", resp, err)
	}
	if answer["ok"] != true {
		return "", fmt.Errorf("%v", answer["error"])
	}
	text, ok := answer[key].(string)
	if !ok {
		return "", errors.New("the answer has no " + key + " text")
	}
	return text, nil
}
