package runtime_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// greetServer is a server with one tool, written by hand; mcpgen
// generates this registration from an annotated function.
func greetServer() *runtime.Server {
	s := &runtime.Server{Name: "demo", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{
		Name:        "greet",
		Description: "Greet a person by name.",
		InputSchema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in struct{ Name string }
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			return runtime.TextResult("Hello, " + in.Name + "!"), nil
		},
	})
	return s
}

// Serve speaks newline-delimited JSON-RPC, one message per line: here it
// reads a request from a string instead of stdin (which ServeStdio reads),
// and returns at the end of its input once every call is answered.
func ExampleServer_Serve() {
	requests := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}` + "\n"
	s := greetServer()
	if err := s.Serve(context.Background(), strings.NewReader(requests), os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}
}

// HTTPHandler serves the same tools over Streamable HTTP, stateless: any
// replica can answer any request. ListenAndServeHTTP does the listening
// for you; here the handler is mounted on a test server.
func ExampleServer_HTTPHandler() {
	s := greetServer()
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"))
	fmt.Println(string(answer))
	// Output:
	// 200 OK application/json
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}
}

// A Conn serves one client over a transport of your own: hand it every
// message the client sends, and deliver what it returns. Notifications
// need no answer. The last call is refused before the handler runs,
// because its arguments do not match the tool's schema.
func ExampleConn() {
	s := greetServer()
	conn := s.NewConn(func(msg []byte) { fmt.Printf("server sends: %s\n", msg) })
	defer conn.Close()
	ctx := context.Background()
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"nom":"Ada"}}}`,
	} {
		if resp := conn.Handle(ctx, []byte(msg)); resp != nil {
			fmt.Printf("%s\n", resp)
		}
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"tools":{"listChanged":true}},"serverInfo":{"name":"demo","version":"1.0.0"}}}
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}
	// {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"invalid arguments for tool greet:\n- nom: unknown property (allowed: name)\n- name: is required"}],"isError":true}}
}

// A handler reports progress to a client that asked for it (its request
// carries a progressToken) and logs to the client through Logger.
func ExampleReportProgress() {
	s := &runtime.Server{Name: "demo"}
	s.AddTool(&runtime.Tool{
		Name: "count",
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			for i := 1; i <= 2; i++ {
				runtime.ReportProgress(ctx, float64(i), 2, fmt.Sprintf("step %d", i))
			}
			runtime.Logger(ctx).Info("counted", "to", 2)
			return runtime.TextResult("done"), nil
		},
	})
	requests := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","_meta":{"progressToken":"p1"}}}` + "\n"
	if err := s.Serve(context.Background(), strings.NewReader(requests), os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":2,"message":"step 1"}}
	// {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":2,"total":2,"message":"step 2"}}
	// {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"count","data":{"msg":"counted","to":2}}}
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}
}

//docs:begin middleware

// A Middleware sees every request a server answers, on every transport,
// and may refuse one: here, a per-tool rate limit of two calls a minute.
func ExampleMiddleware() {
	s := greetServer()
	var mu sync.Mutex
	calls := map[string][]time.Time{} // by tool: the calls of the last minute
	s.Middleware = append(s.Middleware, func(next runtime.RequestHandler) runtime.RequestHandler {
		return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
			if req.Method == "tools/call" {
				mu.Lock()
				now := time.Now()
				recent := slices.DeleteFunc(calls[req.Target], func(t time.Time) bool { return now.Sub(t) > time.Minute })
				full := len(recent) >= 2
				if !full {
					recent = append(recent, now)
				}
				calls[req.Target] = recent
				mu.Unlock()
				if full {
					return runtime.Refuse(-32000, "rate limit: "+req.Target+" may be called twice a minute")
				}
			}
			return next(ctx, req)
		}
	})
	conn := s.NewConn(nil)
	for i := range 3 {
		call := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`, i)
		fmt.Println(string(conn.Handle(context.Background(), []byte(call))))
	}
	// Output:
	// {"jsonrpc":"2.0","id":0,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"rate limit: greet may be called twice a minute"}}
}

//docs:end middleware

// fixedTokens is a TokenVerifier that knows a fixed set of tokens, for
// the example; a real server verifies JWT access tokens or asks the
// authorization server, with the verifiers of the module
// github.com/mcpgen/mcpgen/auth (auth.NewJWTVerifier,
// auth.NewIntrospectionVerifier).
type fixedTokens map[string]*runtime.TokenInfo

func (v fixedTokens) VerifyToken(ctx context.Context, token string) (*runtime.TokenInfo, error) {
	if ti, ok := v[token]; ok {
		return ti, nil
	}
	return nil, fmt.Errorf("%w: unknown token", runtime.ErrInvalidToken)
}

// With HTTPOptions.Authorization the endpoint is an OAuth 2.0 protected
// resource: a request without a token gets 401 and a challenge that
// names the metadata document (where clients find the authorization
// server); a token without the scopes a tool needs gets 403 naming them;
// a handler finds the verified token with TokenInfoFromContext.
func ExampleAuthorization() {
	s := &runtime.Server{Name: "notes", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{
		Name:        "whoami",
		InputSchema: `{"type":"object"}`,
		Scopes:      []string{"notes:read"}, // //mcp:tool whoami scopes=notes:read
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			ti := runtime.TokenInfoFromContext(ctx)
			return runtime.TextResult(ti.Subject + " holds " + strings.Join(ti.Scopes, " ")), nil
		},
	})
	const resource = "https://mcp.example.com/mcp" // as clients reach the server
	tokens := fixedTokens{
		"ada-token": {Subject: "ada", Audience: []string{resource}, Scopes: []string{"notes:read"}},
		"bob-token": {Subject: "bob", Audience: []string{resource}, Scopes: []string{"profile"}},
	}
	ts := httptest.NewServer(s.HTTPHandler(&runtime.HTTPOptions{Authorization: &runtime.Authorization{
		Verifier:             tokens,
		Resource:             resource,
		AuthorizationServers: []string{"https://auth.example.com"},
	}}))
	defer ts.Close()

	call := func(token string) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}`
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		answer, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			return
		}
		fmt.Println(resp.StatusCode, string(answer))
	}
	call("")
	call("bob-token")
	call("ada-token")
	// Output:
	// 401 Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 403 Bearer error="insufficient_scope", error_description="insufficient scope: tool whoami needs the scopes notes:read; ask the authorization server for a token with them", scope="notes:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 200 {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ada holds notes:read"}]}}
}

// TokenInfoFromContext gives a handler the verified token of its request:
// who the user is, for what client, with which scopes. It is nil for a
// request that carried none: over stdio, in the Claude Code host, or over
// HTTP without Authorization.
func ExampleTokenInfoFromContext() {
	handler := func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		ti := runtime.TokenInfoFromContext(ctx)
		if ti == nil {
			return runtime.TextResult("a local user (stdio: credentials come from the environment)"), nil
		}
		return runtime.TextResult("user " + ti.Subject + " through client " + ti.ClientID), nil
	}
	s := &runtime.Server{Name: "demo", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{Name: "whoami", InputSchema: `{"type":"object"}`, Handler: handler})
	in := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}` + "\n"
	if err := s.Serve(context.Background(), strings.NewReader(in), os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a local user (stdio: credentials come from the environment)"}]}}
}
