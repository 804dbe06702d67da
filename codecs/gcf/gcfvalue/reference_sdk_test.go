package gcfvalue_test

import (
	"bufio"
	"bytes"
	"context"
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

// sdk is a running node process answering encode/decode requests with the
// SDK.
type sdk struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

type sdkAnswer struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	GCF   string `json:"gcf"`
	JSON  string `json:"json"`
}

func (r *sdk) call(req map[string]string) (*sdkAnswer, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := r.in.Write(append(line, '\n')); err != nil {
		return nil, err
	}
	resp, err := r.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("reading the SDK's answer: %v", err)
	}
	var a sdkAnswer
	if err := json.Unmarshal(resp, &a); err != nil {
		return nil, fmt.Errorf("bad answer %q: %v", resp, err)
	}
	if !a.OK {
		return nil, errors.New(a.Error)
	}
	return &a, nil
}

func (r *sdk) encode(jsonText []byte) (string, error) {
	a, err := r.call(map[string]string{"op": "encode", "json": string(jsonText)})
	if err != nil {
		return "", err
	}
	return a.GCF, nil
}

func (r *sdk) decode(text string) (string, error) {
	a, err := r.call(map[string]string{"op": "decode", "gcf": text})
	if err != nil {
		return "", err
	}
	return a.JSON, nil
}

var (
	sdkOnce sync.Once
	sdkProc *sdk
	sdkErr  error
	sdkSkip bool
)

// startSDK returns the shared SDK process, starting it (and installing the
// npm package) on first use. Without node or npm, or when the install
// fails, the test is skipped, unless CI is set, when it fails.
func startSDK(t *testing.T) *sdk {
	t.Helper()
	sdkOnce.Do(func() { sdkProc, sdkSkip, sdkErr = launchSDK() })
	if sdkErr != nil {
		if sdkSkip && os.Getenv("CI") == "" {
			t.Skipf("GCF SDK unavailable: %v", sdkErr)
		}
		t.Fatalf("GCF SDK unavailable: %v", sdkErr)
	}
	return sdkProc
}

func launchSDK() (ref *sdk, skippable bool, err error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, true, err
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, true, err
	}
	dir, err := installSDK(npm)
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
	// node exits when its input closes, at the end of the test binary.
	return &sdk{in: in, out: bufio.NewReaderSize(out, 1<<20)}, false, nil
}

// installSDK installs @blackwell-systems/gcf@sdkVersion with npm and returns
// the npm prefix holding it: a directory under the user cache, reused when
// it holds that version, or a fresh temporary one.
func installSDK(npm string) (string, error) {
	dir := ""
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "graphwire", "gcf-reference-"+sdkVersion)
		if installedSDK(dir) == sdkVersion {
			return dir, nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			dir = ""
		}
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "gcf-reference-")
		if err != nil {
			return "", err
		}
		dir = tmp
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "@blackwell-systems/gcf@"+sdkVersion)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm install @blackwell-systems/gcf@%s: %v\n%s", sdkVersion, err, stderr.String())
	}
	if v := installedSDK(dir); v != sdkVersion {
		return "", fmt.Errorf("npm installed @blackwell-systems/gcf %q, want %s", v, sdkVersion)
	}
	return dir, nil
}

func installedSDK(prefix string) string {
	data, err := os.ReadFile(filepath.Join(prefix, "node_modules", "@blackwell-systems", "gcf", "package.json"))
	if err != nil {
		return ""
	}
	var p struct{ Version string }
	if json.Unmarshal(data, &p) != nil {
		return ""
	}
	return strings.TrimSpace(p.Version)
}
