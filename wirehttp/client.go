package wirehttp

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/graphwire/graphwire/delta"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirecodec"
)

// DefaultCursorParam is ClientOptions.CursorParam when it is empty.
const DefaultCursorParam = "cursor"

// ClientOptions configure a Client. The zero value asks for any format
// of the registry and follows cursors in the "cursor" query parameter.
type ClientOptions struct {
	// Format is the codec to ask for, a name or alias of the registry
	// ("goon", "llm"): the Client sends its media type as Accept. Empty
	// means every codec of the registry, their media types in one
	// Accept, and the server chooses. Whatever the server answers is
	// decoded by its Content-Type, if the registry reads it.
	Format string

	// HTTP sends the requests; nil means http.DefaultClient. Leave
	// Accept-Encoding to it: net/http asks for gzip and decompresses.
	HTTP *http.Client

	// Header is added to every request (Authorization, ...); Accept is
	// the Client's own.
	Header http.Header

	// CursorParam is the query parameter by which Pages hands a page's
	// next_cursor back to the upstream. Empty means DefaultCursorParam.
	CursorParam string

	// Deltas keeps the answer to each URL a GET fetched and asks for that
	// URL again with its ETag in If-None-Match and A-IM: DeltaIM (RFC
	// 3229): a 304 gives the response held, a 226 is applied to it and
	// verified. See "Client" in the package doc.
	Deltas bool

	// Session converses in a session of the server (SessionHeader): the
	// nodes the server sent before come as references, which the Client
	// puts back from its own delta.Session. See "Client" in the package
	// doc.
	Session bool

	// SessionLimits bound the Client's session. They must be the
	// server's (wirestore.SessionOptions.Limits), so that the two
	// remember and forget the same; zero fields take delta's defaults.
	SessionLimits delta.SessionLimits

	// MaxHeld and MaxHeldBytes bound the answers Deltas keeps, each
	// counted as its response's wirecodec.InMemorySize, least recently used
	// forgotten first. Zero means DefaultMaxHeld (256) and
	// DefaultMaxHeldBytes (64 MiB).
	MaxHeld      int
	MaxHeldBytes int64
}

// The defaults of ClientOptions.MaxHeld and MaxHeldBytes.
const (
	DefaultMaxHeld      = 256
	DefaultMaxHeldBytes = 64 << 20
)

// Client fetches graph responses over HTTP: it asks for a format by
// Accept, reads the answer within the registry's Limits.MaxInputBytes,
// and decodes it by its Content-Type through the registry
// (wire.Registry.LookupMediaType; without one, as it looks, as
// DecodeRequest reads a body). Pages follows the next_cursor of an
// upstream that paginates. A Client is safe for concurrent use.
//
// It reads an answer in chunks through wire.Registry.DecodeFrom (a
// wire.Decoder reading the body to its end: one body, one response) and
// decodes it once read, as the codecs decode from bytes; the limit
// bounds what that holds. It does not read GKG's
// envelope (Options.Envelope): ask an enveloping server for a binary
// format, or for the bare text.
type Client struct {
	reg    *wire.Registry
	http   *http.Client
	accept string
	header http.Header
	param  string

	// A conversation (Deltas or Session): one request at a time.
	conv   sync.Mutex
	held   *lru[string, heldAnswer] // nil without Deltas
	sess   *delta.Session           // nil without Session
	sessID string
}

// NewClient returns a Client over reg (nil: wire.DefaultRegistry()). It
// fails when the registry is empty or Format names no codec of it.
func NewClient(reg *wire.Registry, o ClientOptions) (*Client, error) {
	if reg == nil {
		reg = wire.DefaultRegistry()
	}
	c := &Client{reg: reg, http: o.HTTP, header: o.Header.Clone(), param: o.CursorParam}
	if err := c.converses(o); err != nil {
		return nil, err
	}
	if c.http == nil {
		c.http = http.DefaultClient
	}
	c.param = cmp.Or(c.param, DefaultCursorParam)
	if o.Format != "" {
		codec, err := reg.Lookup(o.Format)
		if err != nil {
			return nil, fmt.Errorf("wirehttp: ClientOptions.Format: %w", err)
		}
		c.accept = codec.Info().MediaType
		return c, nil
	}
	infos := reg.List()
	if len(infos) == 0 {
		return nil, errors.New("wirehttp: the registry has no codec")
	}
	types := make([]string, len(infos))
	for i, info := range infos {
		types[i] = info.MediaType
	}
	c.accept = strings.Join(types, ", ")
	return c, nil
}

// Get fetches the graph response at rawURL.
func (c *Client) Get(ctx context.Context, rawURL string) (*wire.GraphResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("wirehttp: %w", err)
	}
	return c.Do(req)
}

// Do sends req, with the Client's Header added to its header and its
// Accept set to the Client's (send each req through one Do only), and
// decodes the answer. An answer of status 300 or more (redirects
// net/http did not follow, 4xx, 5xx) is an *Error with that status and
// the first line of its body (at most 200 bytes of it); a Content-Type
// no codec of the registry reads is an error matching
// wire.ErrUnknownCodec; a body the codec refuses is its
// *wire.DecodeError (matching wire.ErrLimit past MaxInputBytes).
func (c *Client) Do(req *http.Request) (*wire.GraphResponse, error) {
	c.prepare(req)
	if c.held != nil || c.sess != nil {
		if req.Method == http.MethodGet && (req.Body == nil || req.Body == http.NoBody) {
			return c.converse(req)
		}
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("wirehttp: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return nil, statusError(res)
	}
	codec, err := c.answerCodec(res)
	if err != nil {
		return nil, err
	}
	return c.decodeAnswer(res, codec)
}

// prepare adds the Client's Header to req's and sets its Accept.
func (c *Client) prepare(req *http.Request) {
	for k, vs := range c.header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Accept", c.accept)
}

// statusError is the *Error of an answer of status 300 or more: its
// status and the first line of its body (at most 200 bytes of it).
func statusError(res *http.Response) error {
	line, _ := bufio.NewReader(io.LimitReader(res.Body, 200)).ReadString('\n')
	line = strings.TrimSpace(strings.TrimPrefix(line, "wirehttp: "))
	io.Copy(io.Discard, io.LimitReader(res.Body, 4<<10)) //nolint:errcheck // to reuse the connection
	switch {
	case res.StatusCode == http.StatusNotModified:
		line = "the answer the request's If-None-Match names is current (ClientOptions.Deltas keeps answers and returns them)"
	case line == "":
		line = "(no body)"
	}
	return &Error{Status: res.StatusCode, Msg: fmt.Sprintf("upstream answered %s: %s", res.Status, line)}
}

// answerCodec is the codec of res's Content-Type (nil without one), and
// the error of an answer longer than MaxInputBytes by its Content-Length.
func (c *Client) answerCodec(res *http.Response) (wire.Codec, error) {
	max := c.reg.Limits().MaxInputBytes
	var codec wire.Codec
	if ct := res.Header.Get("Content-Type"); ct != "" {
		var err error
		if codec, err = c.reg.LookupMediaType(ct); err != nil {
			return nil, fmt.Errorf("wirehttp: answer's Content-Type %q: %w", clip(ct), err)
		}
	}
	if res.ContentLength > max {
		name := "answer"
		if codec != nil {
			name = codec.Info().Name
		}
		return nil, &wire.DecodeError{Codec: name, Offset: max, Limit: "MaxInputBytes",
			Msg: fmt.Sprintf("answer of %d bytes is longer than the limit of %d bytes (MaxInputBytes)", res.ContentLength, max)}
	}
	return codec, nil
}

// decodeAnswer reads res's body, a response of codec (nil: as it looks),
// within MaxInputBytes.
func (c *Client) decodeAnswer(res *http.Response, codec wire.Codec) (*wire.GraphResponse, error) {
	max := c.reg.Limits().MaxInputBytes
	name := "answer"
	if codec != nil { // read as it arrives, in chunks, within the limit
		resp, err := c.reg.DecodeFrom(codec.Info().Name, res.Body)
		return resp, answerFailure(err)
	}
	data, err := wirecodec.ReadLimited(name, res.Body, max)
	if err != nil {
		return nil, answerFailure(err)
	}
	return c.sniff(data).Decode(data)
}

// answerFailure is err, or, for an error of the connection rather than of
// the answer's bytes, err wrapped to say so.
func answerFailure(err error) error {
	var de *wire.DecodeError
	if err == nil || errors.As(err, &de) {
		return err
	}
	return fmt.Errorf("wirehttp: reading the answer: %w", err)
}

// sniff is the codec to read an answer without Content-Type in: the one
// it looks like at SniffConfidence or more, else json, else the first.
func (c *Client) sniff(data []byte) wire.Codec {
	if g := wirecodec.Sniff(c.reg, data); len(g) > 0 && g[0].Confidence >= SniffConfidence {
		if codec, err := c.reg.Lookup(g[0].Name); err == nil {
			return codec
		}
	}
	if codec, err := c.reg.Lookup("json"); err == nil {
		return codec
	}
	codec, _ := c.reg.Lookup(c.reg.List()[0].Name)
	return codec
}

// Pages fetches rawURL, then, while a page's pagination has a
// next_cursor (schema v5), the same URL with CursorParam set to it,
// yielding each page in order. It stops after the first page without
// next_cursor (whose pagination says whether the upstream has more that
// no cursor can fetch: has_more under schema v2), at the first error
// (yielded with a nil page, wrapped with the page's number; errors.As
// still finds the *Error or *wire.DecodeError), when the caller stops
// ranging, or when ctx is done. A cursor the upstream gave before is an
// error rather than a loop.
func (c *Client) Pages(ctx context.Context, rawURL string) iter.Seq2[*wire.GraphResponse, error] {
	return func(yield func(*wire.GraphResponse, error) bool) {
		u, err := url.Parse(rawURL)
		if err != nil {
			yield(nil, fmt.Errorf("wirehttp: %w", err))
			return
		}
		seen := map[string]bool{}
		for n := 1; ; n++ {
			page, err := c.Get(ctx, u.String())
			if err != nil {
				yield(nil, fmt.Errorf("page %d: %w", n, err))
				return
			}
			if !yield(page, nil) {
				return
			}
			p := page.Pagination
			if p == nil || !p.NextCursor.Valid {
				return
			}
			cursor := p.NextCursor.V
			if seen[cursor] {
				yield(nil, fmt.Errorf("wirehttp: page %d: the upstream gave cursor %q before: it would loop", n, clip(cursor)))
				return
			}
			seen[cursor] = true
			q := u.Query()
			q.Set(c.param, cursor)
			u.RawQuery = q.Encode()
		}
	}
}
