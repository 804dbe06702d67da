package wirestore_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/graphwire/graphwire/codecs"
	"github.com/graphwire/graphwire/wire"
	"github.com/graphwire/graphwire/wirestore"
)

// One request of a conversation, as any replica of a service serves it:
// load the session under the client's id (a new one when the id is
// unknown), encode the answer in it, save it.
func Example() {
	ctx := context.Background()
	st, err := wirestore.Open("memory") // or "redis://127.0.0.1:6379/0"
	if err != nil {
		panic(err)
	}
	sessions, err := wirestore.NewSessions(st, wirestore.SessionOptions{Namespace: "example"})
	if err != nil {
		panic(err)
	}
	registry, err := codecs.NewRegistry(codecs.Options{})
	if err != nil {
		panic(err)
	}
	answer := func(id string, resp *wire.GraphResponse) (string, string) {
		sess, err := sessions.Load(ctx, id)
		switch {
		case errors.Is(err, wirestore.ErrUnknownSession):
			id = sessions.NewID() // never the client's own
		case err != nil:
			fmt.Println("store:", err) // answered in full, reported
		}
		body, _, err := sess.Encode(registry, "json", resp)
		if err != nil {
			panic(err)
		}
		if err := sessions.Save(ctx, id, sess); err != nil {
			fmt.Println("store:", err)
		}
		return id, string(body)
	}
	ada := wire.Node{Type: "User", ID: 1, Properties: []wire.Property{wire.Prop("name", wire.String("ada"))}}
	resp := &wire.GraphResponse{FormatVersion: "1.0.0", QueryType: "search", Nodes: []wire.Node{ada}, Edges: []wire.Edge{}}

	id, body := answer("a forged id", resp)
	fmt.Println(body)
	_, body = answer(id, resp)
	fmt.Println(body)
	// Output:
	// {"format_version":"1.0.0","query_type":"search","nodes":[{"type":"User","id":"1","name":"ada"}],"edges":[]}
	// {"sent_earlier":"User 1","sent_earlier_at":[0],"content":{"format_version":"1.0.0","query_type":"search"}}
}
