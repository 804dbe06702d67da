package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/graphwire/graphwire/internal/cli"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// json.Marshal of a response, as a service would call it, writes what
// `wirebench decode -f json` prints for it (minus the newline the command
// ends its output with), byte for byte, and json.Unmarshal reads it back
// exactly.
func TestJSONMarshalEqualsDecodeCommand(t *testing.T) {
	const file = "../../bench/corpus/text-heavy/traversal_adr_50u_200mr.json"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r wire.GraphResponse
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := cli.Run(&cli.Env{Args: []string{"decode", "-f", "json", file}, Stdout: &out, Stderr: &errOut}); code != 0 {
		t.Fatalf("wirebench decode exited %d: %s", code, errOut.String())
	}
	// The corpus file ends without a newline, and so does the command's
	// output of it.
	want := out.Bytes()
	if !bytes.Equal(got, want) {
		t.Fatalf("json.Marshal (%d bytes) differs from wirebench decode -f json (%d bytes)", len(got), len(want))
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("json.Marshal differs from %s", file)
	}
	var back wire.GraphResponse
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&r, &back, wiretest.CmpOptions(wire.Exact)); d != "" {
		t.Fatalf("json.Unmarshal back (-want +got):\n%s", d)
	}
}
