package codecs_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
)

// A service that decodes request bodies builds one registry with its own
// limits and uses it for every request; a body past a limit gives an error
// that maps to 413.
func ExampleNewRegistry() {
	reg, err := codecs.NewRegistry(codecs.Options{Limits: wire.Limits{MaxInputBytes: 1 << 10}})
	if err != nil {
		panic(err)
	}
	body := `{"format_version":"1.2.0","query_type":"search","nodes":[{"type":"User","id":"1","bio":"` +
		strings.Repeat("x", 2000) + `"}],"edges":[]}`
	_, err = reg.DecodeFrom("json", strings.NewReader(body))
	fmt.Println(errors.Is(err, wire.ErrLimit))
	fmt.Println(err)

	// The default registry's limits are larger.
	_, err = wire.DefaultRegistry().DecodeFrom("json", strings.NewReader(body))
	fmt.Println(err)
	// Output:
	// true
	// json: offset 1024: input is longer than the limit of 1024 bytes (MaxInputBytes)
	// <nil>
}
