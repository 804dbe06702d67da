package gcfvalue_test

import (
	"testing"

	"github.com/graphwire/graphwire/internal/testsupport"
)

// sdk is the node process answering encode/decode requests with the SDK
// (testdata/reference.mjs).
type sdk struct{ node *testsupport.Node }

func (r *sdk) encode(jsonText []byte) (string, error) {
	return r.node.Ask(map[string]string{"op": "encode", "json": string(jsonText)}, "gcf")
}

func (r *sdk) decode(text string) (string, error) {
	return r.node.Ask(map[string]string{"op": "decode", "gcf": text}, "json")
}

// startSDK returns the shared SDK process, starting it (and installing the
// npm package) on first use. Without node or npm, or when the install
// fails, the test is skipped, unless CI is set, when it fails.
func startSDK(t *testing.T) *sdk {
	t.Helper()
	return &sdk{testsupport.StartNode(t, "testdata/reference.mjs", "@blackwell-systems/gcf@"+sdkVersion)}
}
