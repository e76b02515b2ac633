package runtime_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestAskOfficialClient: the official Go SDK's client, over Streamable HTTP
// with sessions, answers the handler's questions: they travel on the
// call's event stream, and the answers come back as POSTs.
func TestAskOfficialClient(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := askServer()
	ts := httptest.NewServer(s.HTTPHandler(&runtime.HTTPOptions{Sessions: true}))
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
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
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
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "elicit"})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "not supported by this client") {
		t.Errorf("%v %+v", err, res)
	}
}
