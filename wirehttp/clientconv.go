package wirehttp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// heldAnswer is the answer a Client keeps for a URL (ClientOptions.Deltas):
// the response as the codec carries it, its codec, and its entity tag.
type heldAnswer struct {
	etag  string // as the server sent it
	codec string
	resp  *wire.GraphResponse
}

// errStale marks an answer the Client cannot trust to give what the
// server sent (a delta that does not apply to the response held, a
// reference its session cannot resolve, a response whose tag is not the
// server's): it asks again, fresh.
var errStale = errors.New("wirehttp: the answer does not apply to what the client holds")

// converses sets up what o asks for besides plain requests: the answers
// held for Deltas, the session for Session.
func (c *Client) converses(o ClientOptions) error {
	if o.Deltas {
		n, b := o.MaxHeld, o.MaxHeldBytes
		if n == 0 {
			n = DefaultMaxHeld
		}
		if b == 0 {
			b = DefaultMaxHeldBytes
		}
		if n < 0 || b < 0 {
			return fmt.Errorf("wirehttp: ClientOptions.MaxHeld %d, MaxHeldBytes %d: a negative bound", o.MaxHeld, o.MaxHeldBytes)
		}
		c.held = newLRU[string, heldAnswer](n, b)
	}
	if o.Session {
		s, err := delta.NewSession(o.SessionLimits)
		if err != nil {
			return fmt.Errorf("wirehttp: ClientOptions.SessionLimits: %w", err)
		}
		c.sess = s
	}
	return nil
}

// converse sends req, a GET, in the Client's conversation: with the tag
// of the answer held for its URL, in its session. An answer it cannot
// trust (errStale) makes it forget what it holds for the URL, start a
// new session, and ask once more without If-None-Match and A-IM.
func (c *Client) converse(req *http.Request) (*wire.GraphResponse, error) {
	c.conv.Lock()
	defer c.conv.Unlock()
	key := req.URL.String()
	resp, err := c.exchange(req, key, false)
	if !errors.Is(err, errStale) {
		return resp, err
	}
	if c.held != nil {
		c.held.drop(key)
	}
	if c.sess != nil {
		c.sess.Reset()
		c.sessID = ""
	}
	resp, err = c.exchange(req, key, true)
	if errors.Is(err, errStale) {
		return nil, fmt.Errorf("wirehttp: asked again without deltas and in a new session: %w", err)
	}
	return resp, err
}

// exchange sends one request of the conversation and reads its answer.
func (c *Client) exchange(req *http.Request, key string, fresh bool) (*wire.GraphResponse, error) {
	r := req.Clone(req.Context())
	var held heldAnswer
	var holds bool
	if c.held != nil && !fresh {
		// A-IM on every request, so that the server keeps the answer as
		// the base of the next delta.
		r.Header.Set("A-IM", DeltaIM)
		if held, holds = c.held.get(key); holds {
			r.Header.Set("If-None-Match", held.etag)
		}
	}
	if c.sess != nil {
		id := c.sessID
		if id == "" {
			id = SessionNew
		}
		r.Header.Set(SessionHeader, id)
	}
	res, err := c.http.Do(r)
	if err != nil {
		return nil, fmt.Errorf("wirehttp: %w", err)
	}
	defer res.Body.Close()
	inSession := false
	if c.sess != nil {
		if id := res.Header.Get(SessionHeader); id != "" {
			if id != c.sessID { // a new session: the server's remembers nothing
				c.sess.Reset()
				c.sessID = id
			}
			inSession = true
		}
	}
	switch {
	case res.StatusCode == http.StatusNotModified:
		if !holds {
			return nil, statusError(res) // the caller's own If-None-Match
		}
		return held.resp, nil
	case res.StatusCode >= 300:
		return nil, statusError(res)
	}
	codec, err := c.answerCodec(res)
	if err != nil {
		return nil, err
	}
	var resp *wire.GraphResponse
	switch {
	case res.StatusCode == http.StatusIMUsed:
		resp, err = c.applyDelta(res, codec, held, holds, inSession)
	case inSession:
		resp, err = c.decodeInSession(res, codec)
	default:
		resp, err = c.decodeAnswer(res, codec)
	}
	if err != nil {
		return nil, err
	}
	if c.held != nil && codec != nil {
		c.held.drop(key)
		if tag := res.Header.Get("ETag"); tag != "" {
			c.held.add(key, heldAnswer{etag: tag, codec: codec.Info().Name, resp: resp}, wirecodec.InMemorySize(resp))
		}
	}
	return resp, nil
}

// readBody reads res's body, of codec, within MaxInputBytes.
func (c *Client) readBody(res *http.Response, codec wire.Codec) ([]byte, error) {
	data, err := wirecodec.ReadLimited(codec.Info().Name, res.Body, c.reg.Limits().MaxInputBytes)
	return data, answerFailure(err)
}

// applyDelta reads a 226's delta and applies it to the response held,
// resolving its references in the session when it was written in one.
// A delta that does not apply (another base or codec, a failed check, a
// reference the session cannot resolve) is errStale.
func (c *Client) applyDelta(res *http.Response, codec wire.Codec, held heldAnswer, holds, inSession bool) (*wire.GraphResponse, error) {
	if codec == nil || !holds || held.codec != codec.Info().Name || !sameTag(res.Header.Get("Delta-Base"), held.etag) {
		return nil, fmt.Errorf("%w: a 226 for a base the Client does not hold", errStale)
	}
	data, err := c.readBody(res, codec)
	if err != nil {
		return nil, err
	}
	var next *wire.GraphResponse
	if inSession {
		next, err = c.sess.Patch(c.reg, codec.Info().Name, held.resp, data)
	} else {
		var d *delta.Delta
		if d, err = delta.DecodeDelta(codec, data); err == nil {
			next, err = delta.Patch(held.resp, d)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errStale, err)
	}
	return next, nil
}

// decodeInSession reads a response written in the session, puts back
// the nodes it references, and checks the result against the answer's
// ETag (the tag of the response written whole, which the codec writes
// the same from what its reader holds): a session out of step with the
// server's is errStale, never a response with stale nodes.
func (c *Client) decodeInSession(res *http.Response, codec wire.Codec) (*wire.GraphResponse, error) {
	if codec == nil {
		return nil, fmt.Errorf("wirehttp: an answer in a session without Content-Type")
	}
	data, err := c.readBody(res, codec)
	if err != nil {
		return nil, err
	}
	resp, err := c.sess.Decode(c.reg, codec.Info().Name, data)
	if errors.Is(err, delta.ErrUnresolved) {
		return nil, fmt.Errorf("%w: %w", errStale, err)
	}
	if err != nil {
		return nil, err
	}
	if tag := res.Header.Get("ETag"); tag != "" {
		whole, err := codec.AppendEncode(nil, resp)
		if err != nil || !sameTag(tag, etagOf(res.Header.Get("Content-Type"), whole)) {
			return nil, fmt.Errorf("%w: the response its references resolve to is not the server's (ETag %s)", errStale, clip(tag))
		}
	}
	return resp, nil
}

// sameTag reports whether two entity tags name the same bytes: equal
// without W/ and without a content coding's suffix.
func sameTag(a, b string) bool {
	return opaqueTag(a) == opaqueTag(b)
}

func opaqueTag(t string) string {
	t = strings.Trim(strings.TrimPrefix(strings.TrimSpace(t), "W/"), `"`)
	for _, suf := range codingSuffixes {
		if s, ok := strings.CutSuffix(t, suf); ok {
			return s
		}
	}
	return t
}
