package testsupport

import (
	"os"
	"testing"

	"github.com/graphwire/graphwire/wire"
)

// LoadResponse reads the canonical-JSON response at path (a corpus case,
// say); a missing file or a bad document fails t.
func LoadResponse(t testing.TB, path string) *wire.GraphResponse {
	t.Helper()
	data, err := os.ReadFile(path)
	var r *wire.GraphResponse
	if err == nil {
		r, err = wire.DecodeWith("json", data)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}
