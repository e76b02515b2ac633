package runtime_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
)

// sessionRevision makes the official client speak 2025-11-25, whose sessions carry
// the server's questions as requests; it speaks 2026-07-28 by default.
var sessionRevision = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// TestAskOfficialClient: the official Go SDK's client answers the
// handler's questions in both eras: under 2025-11-25, over Streamable HTTP
// with sessions, they travel on the call's event stream and the answers
// come back as POSTs; under 2026-07-28, over stateless HTTP, the call
// answers input_required and the client calls again with the answers.
func TestAskOfficialClient(t *testing.T) {
	t.Run("2025-11-25", func(t *testing.T) { testAskOfficialClient(t, &runtime.HTTPOptions{Sessions: true}, sessionRevision) })
	t.Run("2026-07-28", func(t *testing.T) { testAskOfficialClient(t, nil, nil) })
}

func testAskOfficialClient(t *testing.T, opts *runtime.HTTPOptions, version *mcp.ClientSessionOptions) {
	linepeer.CheckLeaks(t)
	s := askServer()
	ts := httptest.NewServer(s.HTTPHandler(opts))
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "official", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Grace", "age": 85}}, nil
		},
		CreateMessageHandler: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m2", Content: &mcp.TextContent{Text: "sampled"}}, nil
		},
	})
	client.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, version)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if version == nil && cs.ID() != "" {
		t.Errorf("a 2026-07-28 client got the session %q", cs.ID())
	}
	for tool, want := range map[string]string{
		"elicit": `accept {"age":85,"name":"Grace"}`,
		"sample": "m2: sampled",
		"roots":  "[{file:///work work}]",
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(got, want) {
			t.Errorf("%s: %q (isError %v), want %q", tool, got, res.IsError, want)
		}
	}
}

// TestAskStatelessHTTP: without sessions, the client's answer could reach
// another replica: asking fails at once with ErrNotSupported.
func TestAskStatelessHTTP(t *testing.T) {
	s := askServer()
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "official", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("the stateless server asked the client")
			return nil, nil
		},
	})
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, sessionRevision)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "elicit"})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "not supported by this client") {
		t.Errorf("%v %+v", err, res)
	}
}

// TestAskTwoReplicas: a 2026-07-28 client (the official Go SDK's) reaches
// two stateless replicas through a balancer that alternates between them,
// so that the retry of a call that asks lands on the other replica than
// the first round: the replicas share their StateKey, and the call
// completes.
func TestAskTwoReplicas(t *testing.T) {
	linepeer.CheckLeaks(t)
	var replicas [2]*httptest.Server
	var served [2]atomic.Int32
	for i := range replicas {
		s := askServer()
		s.StateKey = []byte("the key every replica has")
		h := s.HTTPHandler(nil)
		replicas[i] = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			served[i].Add(1)
			h.ServeHTTP(w, r)
		}))
		defer replicas[i].Close()
	}
	var next atomic.Int32
	balancer := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		u, _ := url.Parse(replicas[next.Add(1)%2].URL)
		r.SetURL(u)
		r.Out.Host = u.Host // the replicas accept loopback hosts only
	}})
	defer balancer.Close()

	asked := 0
	client := mcp.NewClient(&mcp.Implementation{Name: "official", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked++
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Grace"}}, nil
		},
	})
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: balancer.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for i := range 3 {
		before := [2]int32{served[0].Load(), served[1].Load()}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "elicit"})
		if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `accept {"name":"Grace"}`) {
			t.Fatalf("call %d: %v %+v", i, err, res)
		}
		if served[0].Load() == before[0] || served[1].Load() == before[1] {
			t.Errorf("call %d: its rounds did not reach both replicas: %v, then %d %d", i, before, served[0].Load(), served[1].Load())
		}
	}
	if asked != 3 {
		t.Errorf("the user was asked %d times for 3 calls", asked)
	}
}
