package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/jaegertest"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/internal/proctest"
)

// bin is the example's command, built once by TestMain.
var bin string

// TestMain builds the command into a temporary folder for the tests,
// which run it as a user's client would.
func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "greeter")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "greeter")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// command is the built command with args, in an environment of its own:
// the test's, without any OpenTelemetry or GREETER_ variable, plus env.
func command(bin string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") && !strings.HasPrefix(kv, "GREETER_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// greet calls the greet tool through cs and returns its text.
func greet(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string) string {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": name}})
	if err != nil {
		t.Fatalf("greet: %v", err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("greet: %+v", res)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("greet: %T content", res.Content[0])
	}
	return text.Text
}

// TestStdio runs the command as a client that starts it does, without
// flags, through the official Go SDK's client: initialize, tools/list
// and tools/call over its stdin and stdout, with the greeting from
// GREETER_GREETING (the //mcp:config field); the process exits cleanly
// at the end of its input.
func TestStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr strings.Builder
	cmd := command(bin, []string{"GREETER_GREETING=Hi"})
	cmd.Stderr = &stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "greeter-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if got := cs.InitializeResult().ServerInfo; got.Name != "greeter" || got.Version != "1.0.0" {
		t.Errorf("serverInfo: %+v", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "greet" {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	if got := greet(t, ctx, cs, "Ada"); got != "Hi, Ada!" {
		t.Errorf("greet: %q, want %q", got, "Hi, Ada!")
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v\n%s", err, stderr.String())
	}
	if !cmd.ProcessState.Success() {
		t.Errorf("exit: %v\n%s", cmd.ProcessState, stderr.String())
	}
}

// TestHTTP runs greeter -http ADDR and calls greet through the official
// Go SDK's Streamable HTTP client; without GREETER_GREETING the greeting
// is Config's default.
func TestHTTP(t *testing.T) {
	addr := proctest.FreePort(t)
	proc := proctest.Start(t, "greeter", command(bin, nil, "-http", addr))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	endpoint := "http://" + addr + "/mcp"
	if err := proc.WaitReady(ctx, func(ctx context.Context) bool {
		return proctest.HTTPStatus(ctx, http.DefaultClient, endpoint) != 0
	}); err != nil {
		t.Fatalf("greeter -http: %s", proc.Explain(err))
	}
	cs := connectHTTP(t, ctx, endpoint, "")
	if got := greet(t, ctx, cs, "Ada"); got != "Hello, Ada!" {
		t.Errorf("greet: %q, want %q", got, "Hello, Ada!")
	}
}

// TestIssuer runs greeter -http ADDR -issuer URL against a real ORY
// Hydra: a request without a token is refused with 401 pointing to the
// server's metadata, one whose token lacks the scope greet with 403, and
// one with it is served.
func TestIssuer(t *testing.T) {
	hydra := hydratest.Start(t)
	addr := proctest.FreePort(t)
	resource := "http://" + addr + "/mcp"
	prm := "http://" + addr + "/.well-known/oauth-protected-resource/mcp"
	proc := proctest.Start(t, "greeter", command(bin, nil, "-http", addr, "-issuer", hydra.Issuer()))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := proc.WaitReady(ctx, func(ctx context.Context) bool {
		return proctest.HTTPStatus(ctx, http.DefaultClient, prm) == http.StatusOK
	}); err != nil {
		t.Fatalf("greeter -issuer: %s", proc.Explain(err))
	}

	r := mcptest.Post(t, resource, mcptest.Initialize(1, "2025-11-25"))
	if r.Status != http.StatusUnauthorized || !strings.Contains(r.Header.Get("WWW-Authenticate"), `resource_metadata="`+prm+`"`) {
		t.Errorf("without a token: %d, WWW-Authenticate %q", r.Status, r.Header.Get("WWW-Authenticate"))
	}
	client := hydra.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{"greet", "other"}, Audience: []string{resource}})
	other := hydra.Token(t, client, []string{"other"}, []string{resource})
	r = mcptest.Post(t, resource, mcptest.Call(2, "greet", `{"name":"Ada"}`), "Authorization", "Bearer "+other, "Mcp-Protocol-Version", "2025-11-25")
	if challenge := r.Header.Get("WWW-Authenticate"); r.Status != http.StatusForbidden || !strings.Contains(challenge, `error="insufficient_scope"`) {
		t.Errorf("greet without the scope greet: %d, WWW-Authenticate %q, %s", r.Status, challenge, r.Body)
	}
	token := hydra.Token(t, client, []string{"greet"}, []string{resource})
	cs := connectHTTP(t, ctx, resource, token)
	if got := greet(t, ctx, cs, "Ada"); got != "Hello, Ada!" {
		t.Errorf("greet with a token: %q", got)
	}
}

// TestTelemetry runs the command over stdio with the standard
// OpenTelemetry environment pointing at a real Jaeger, and calls greet
// with a traceparent in the call's _meta: the call's SERVER span,
// "tools/call greet" of the service OTEL_SERVICE_NAME names, is in that
// trace once the process has exited, which flushed it.
func TestTelemetry(t *testing.T) {
	js := jaegertest.Start(t)
	service := "greeter-test-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := command(bin, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + js.OTLPHTTP(), "OTEL_SERVICE_NAME=" + service})
	c := mcp.NewClient(&mcp.Implementation{Name: "greeter-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	var id [24]byte
	rand.Read(id[:])
	traceID, parentID := hex.EncodeToString(id[:16]), hex.EncodeToString(id[16:])
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Meta:      mcp.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01"},
		Name:      "greet",
		Arguments: map[string]any{"name": "Ada"},
	})
	if err != nil || res.IsError {
		t.Fatalf("greet: %v %+v", err, res)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	var found bool
	for _, sp := range js.Trace(t, traceID, 1) { // waits for the span, or fails
		found = found || sp.Name == "tools/call greet" && sp.Kind == "SERVER" && sp.Service == service && sp.ParentSpanID == parentID
	}
	if !found {
		t.Errorf("trace %s: no SERVER span tools/call greet of %s under %s", traceID, service, parentID)
	}
}

// TestRefused: a configuration that does not fit Config's schema,
// -issuer without -http and -audience without -issuer stop the command before it serves, with a
// message on standard error that names the problem and nothing on
// standard output.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		env, args []string
		want      string
	}{
		{[]string{"GREETER_GREETING=" + strings.Repeat("x", 41)}, nil, "GREETER_GREETING"},
		{nil, []string{"-issuer", "https://auth.example.com"}, "-issuer needs -http"},
		{nil, []string{"-http", "127.0.0.1:0", "-audience", "https://greeter.example.com/mcp"}, "-audience needs -issuer"},
	} {
		// A command that serves instead is killed, and fails the test.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, c.args...)
		cmd.Env = command(bin, c.env).Env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), c.want) || stdout.Len() != 0 {
			t.Errorf("greeter %v with %v: %v, stdout %q, stderr %q; want exit status 1 and %q", c.args, c.env, err, stdout.String(), stderr.String(), c.want)
		}
	}
}

// TestNoInternalImports: the command's own files import nothing a user's
// module could not (no internal package), so that they can be copied.
func TestNoInternalImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); strings.Contains("/"+p+"/", "/internal/") {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}

// TestAudience: -audience is the resource the server's metadata names,
// which its tokens must be issued for. The issuer is not reached until a
// token arrives, so none runs here.
func TestAudience(t *testing.T) {
	addr := proctest.FreePort(t)
	const audience = "https://greeter.example.com/mcp"
	prm := "http://" + addr + "/.well-known/oauth-protected-resource/mcp"
	proc := proctest.Start(t, "greeter", command(bin, nil, "-http", addr, "-issuer", "http://127.0.0.1:1", "-audience", audience))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := proc.WaitReady(ctx, func(ctx context.Context) bool {
		return proctest.HTTPStatus(ctx, http.DefaultClient, prm) == http.StatusOK
	}); err != nil {
		t.Fatalf("greeter -audience: %s", proc.Explain(err))
	}
	res, err := mcptest.Client.Get(prm)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var meta struct {
		Resource string `json:"resource"`
	}
	if err := json.NewDecoder(res.Body).Decode(&meta); err != nil || meta.Resource != audience {
		t.Errorf("metadata's resource: %q (%v), want %q", meta.Resource, err, audience)
	}
}

// connectHTTP connects the official Go SDK's client to the Streamable
// HTTP endpoint url, with a bearer token unless token is empty.
func connectHTTP(t *testing.T, ctx context.Context, url, token string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Timeout: 30 * time.Second}
	if token != "" {
		hc.Transport = mcptest.Bearer(token)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "greeter-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
