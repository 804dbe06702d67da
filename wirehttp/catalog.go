package wirehttp

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphwire/graphwire/wire"
)

// Resource is a named graph response that a Catalog serves at /Name.
type Resource struct {
	Name     string
	Response *wire.GraphResponse
}

// Catalog returns a handler for a set of responses: GET or HEAD /NAME
// serves the response named NAME in every format by negotiation (Static),
// GET or HEAD / lists the responses and the formats as text, POST /
// converts the request body (Convert), anything else is 404 or 405. Names
// must be non-empty and distinct; a name may hold '/' between non-empty
// segments ("lean/traversal_s", served at /lean/traversal_s).
func (s *Server) Catalog(rs []Resource) (http.Handler, error) {
	c := &catalog{s: s, byName: make(map[string]http.Handler, len(rs)), convert: s.Convert()}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d graph responses, each in any of these formats (?format=NAME, or an Accept header):\n\n", len(rs))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  FORMAT\tALIASES\tMEDIA TYPE")
	for _, o := range s.offers {
		aliases := strings.Join(o.info.Aliases, ",")
		if aliases == "" {
			aliases = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.info.Name, aliases, o.info.MediaType)
	}
	tw.Flush() //nolint:errcheck // writes to a buffer
	fmt.Fprintf(&b, "\nthe default is %s; POST / converts a body sent with its Content-Type.\n\n", s.offers[s.def].info.Name)
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  PATH\tQUERY TYPE\tNODES\tEDGES\tROWS")
	for _, r := range rs {
		if r.Name == "" || strings.HasPrefix(r.Name, "/") || strings.HasSuffix(r.Name, "/") || strings.Contains(r.Name, "//") {
			return nil, fmt.Errorf("wirehttp: Catalog: resource name %q is empty or has an empty path segment", r.Name)
		}
		if r.Response == nil {
			return nil, fmt.Errorf("wirehttp: Catalog: resource %q has no response", r.Name)
		}
		if _, dup := c.byName[r.Name]; dup {
			return nil, fmt.Errorf("wirehttp: Catalog: resource name %q given twice", r.Name)
		}
		c.byName[r.Name] = s.Static(r.Response)
		rows := "-"
		if r.Response.Rows != nil {
			rows = strconv.Itoa(len(r.Response.Rows))
		}
		fmt.Fprintf(tw, "  /%s\t%s\t%d\t%d\t%s\n", r.Name, r.Response.QueryType, len(r.Response.Nodes), len(r.Response.Edges), rows)
	}
	tw.Flush() //nolint:errcheck // writes to a buffer
	c.index = b.Bytes()
	c.indexTag = etagOf("text/plain; charset=utf-8", c.index)
	return c, nil
}

type catalog struct {
	s        *Server
	byName   map[string]http.Handler
	convert  http.Handler
	index    []byte
	indexTag string
}

func (c *catalog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		switch r.Method {
		case http.MethodPost:
			c.convert.ServeHTTP(w, r)
		case http.MethodGet, http.MethodHead:
			if c.s.writeHead(w, r, "text/plain; charset=utf-8", c.indexTag, int64(len(c.index))) {
				w.Write(c.index) //nolint:errcheck // the client went away
			}
		default:
			w.Header().Set("Allow", "GET, HEAD, POST")
			c.s.WriteError(w, r, &Error{Status: http.StatusMethodNotAllowed, Msg: "method " + clip(r.Method) + " not allowed on / (allowed: GET, HEAD, POST)"})
		}
		return
	}
	h, ok := c.byName[name]
	if !ok {
		c.s.WriteError(w, r, &Error{Status: http.StatusNotFound, Msg: fmt.Sprintf("no response named %q (GET / lists them)", clip(name))})
		return
	}
	h.ServeHTTP(w, r)
}
