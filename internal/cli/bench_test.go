package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graphwire/graphwire/bench/speed"
	"github.com/graphwire/graphwire/internal/cli"
)

func TestBenchJSON(t *testing.T) {
	t.Setenv("GOON_REFERENCE_DIR", "")
	dir := smallCorpus(t, "traversal_s", "aggregation_s")
	res := runCmd(false, "", "bench", "-json", "-time", "1ms", "-codecs", "json", "-corpus", dir)
	if res.code != 0 || res.stderr != "" {
		t.Fatalf("bench -json: %+v", res)
	}
	var rep speed.Report
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		t.Fatalf("bench -json output does not parse: %v\n%s", err, res.stdout)
	}
	if len(rep.Measurements) != 2*5*2 { // 2 cases × (4 JSON libraries + json) × 2 ops
		t.Errorf("%d measurements, want 20", len(rep.Measurements))
	}
	if len(rep.Medians) != 5 || rep.Medians[4].Codec != "json" || rep.Medians[4].EncodeVsSonic <= 0 || rep.Medians[4].DecodeAllocs <= 0 {
		t.Errorf("bench -json medians: %+v; want 5 rows, json's last with its ratio to sonic and allocations", rep.Medians)
	}
}

func TestBenchTableAndProgress(t *testing.T) {
	t.Setenv("GOON_REFERENCE_DIR", "")
	dir := smallCorpus(t, "traversal_s")
	res := runCmd(true, "", "bench", "-time", "1ms", "-codecs", "json", "-corpus", dir)
	if res.code != 0 || !strings.Contains(res.stdout, "vs encoding/json") || !strings.Contains(res.stdout, "encode ÷ sonic") {
		t.Fatalf("bench: %+v", res)
	}
	if !strings.Contains(res.stderr, "[1/10] traversal_s encoding/json encode") {
		t.Errorf("no progress on a terminal: %q", res.stderr)
	}
	res = runCmd(false, "", "bench", "-time", "1ms", "-codecs", "json", "-corpus", dir)
	if res.code != 0 || res.stderr != "" {
		t.Errorf("progress written when stderr is not a terminal: %q", res.stderr)
	}
}

func TestBenchErrors(t *testing.T) {
	t.Setenv("GOON_REFERENCE_DIR", "")
	dir := smallCorpus(t, "traversal_s")
	for _, args := range [][]string{{"-time", "0"}, {"-case", "("}, {"extra"}} {
		res := runCmd(false, "", append([]string{"bench", "-corpus", dir}, args...)...)
		if res.code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, res.code, cli.ExitUsage)
		}
	}
	res := runCmd(false, "", "bench", "-corpus", dir, "-case", "^nothing$")
	if res.code != cli.ExitError || res.stdout != "" || !strings.Contains(res.stderr, "no case matches") {
		t.Errorf("no matching case: %+v", res)
	}
	res = runCmd(false, "", "bench", "-corpus", dir, "-codecs", "nope", "-time", "1ms")
	if res.code != cli.ExitUsage || !strings.Contains(res.stderr, `unknown codec "nope"`) {
		t.Errorf("unknown codec: %+v", res)
	}
}
