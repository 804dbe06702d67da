package codecs_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wire/wiretest"
)

// TestConcurrentAllCodecs: wiretest.Goroutines goroutines encode and decode
// the same responses (and the same encoded bytes) with every registered
// codec at once, through the registry, and get exactly the bytes of a
// sequential run. Run it under -race: the responses and byte slices are
// shared, so an encoder that writes to its input, a decoder that writes to
// its bytes, or a codec with unguarded shared state is reported.
func TestConcurrentAllCodecs(t *testing.T) {
	rs := wiretest.FixedResponses()
	gen := wiretest.ResponseWith(wiretest.Options{}) // identifier names, finite floats: every codec carries them
	for seed := 1; seed <= 32; seed++ {
		rs = append(rs, gen.Example(seed))
	}
	rs = append(rs, wiretest.ResponseWith(wiretest.Options{MaxNodes: 1500, MaxRows: 300}).Example(7))
	names := registered()

	type job struct {
		codec    string
		r        *wire.GraphResponse
		enc      []byte // EncodeWith(codec, r), sequentially
		reEnc    []byte // EncodeWith(codec, DecodeWith(codec, enc)), sequentially
		asJSON   []byte // EncodeWith("json", DecodeWith(codec, enc)), sequentially
		describe string
	}
	var jobs []job
	for _, name := range names {
		for i, r := range rs {
			j := job{codec: name, r: r, describe: fmt.Sprintf("%s, response %d", name, i)}
			var err error
			if j.enc, err = wire.EncodeWith(name, r); err != nil {
				t.Fatalf("%s: encode: %v", j.describe, err)
			}
			back, err := wire.DecodeWith(name, j.enc)
			if err != nil {
				t.Fatalf("%s: decode: %v", j.describe, err)
			}
			if j.reEnc, err = wire.EncodeWith(name, back); err != nil {
				t.Fatalf("%s: re-encode: %v", j.describe, err)
			}
			if j.asJSON, err = wire.EncodeWith("json", back); err != nil {
				t.Fatalf("%s: json encode: %v", j.describe, err)
			}
			jobs = append(jobs, j)
		}
	}
	errs := wiretest.ConcurrentRun(wiretest.Goroutines, len(jobs), func(i int) error {
		j := jobs[i]
		b, err := wire.EncodeWith(j.codec, j.r)
		if err != nil {
			return fmt.Errorf("%s: encode: %v", j.describe, err)
		}
		if !bytes.Equal(b, j.enc) {
			return fmt.Errorf("%s: concurrent encode differs %s", j.describe, wiretest.ByteDiff(j.enc, b))
		}
		back, err := wire.DecodeWith(j.codec, j.enc)
		if err != nil {
			return fmt.Errorf("%s: decode: %v", j.describe, err)
		}
		if b, err = wire.EncodeWith(j.codec, back); err != nil || !bytes.Equal(b, j.reEnc) {
			return fmt.Errorf("%s: concurrent decode and re-encode differs (err %v) %s", j.describe, err, wiretest.ByteDiff(j.reEnc, b))
		}
		if b, err = wire.EncodeWith("json", back); err != nil || !bytes.Equal(b, j.asJSON) {
			return fmt.Errorf("%s: concurrent decode and json encode differs (err %v) %s", j.describe, err, wiretest.ByteDiff(j.asJSON, b))
		}
		return nil
	})
	for _, err := range errs {
		t.Error(err)
	}
	t.Logf("%d goroutines × %d codecs × %d responses", wiretest.Goroutines, len(names), len(rs))
}
