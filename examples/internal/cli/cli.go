// Package cli is the command line shared by the example servers: with no
// flags a server speaks MCP on stdin and stdout; with -http ADDR it serves
// Streamable HTTP at http://ADDR/mcp instead, with sessions, or without
// them with -stateless as well; with -prompt TEXT it runs one query
// through the Claude Code CLI with the server's tools in-process.
//
// Replicas behind a load balancer share the key that seals a call's state
// between the rounds of asking the client (runtime.Server.StateKey): set
// MCPGEN_STATE_KEY to the same 32 random bytes, in hex, for each. A server
// built WithRedis takes -redis URL as well: its tasks, and the
// notifications of the other replicas, then go through that Redis. A
// server built WithAuthorization takes -issuer URL and -audience URI: over
// HTTP it then requires access tokens from that authorization server.
package cli

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
	"github.com/mcpgen/mcpgen/runtime/store"
)

var (
	httpAddr   = flag.String("http", "", "serve Streamable HTTP at `addr` (host:port; \":8080\" binds 127.0.0.1) under /mcp, instead of stdio")
	stateless  = flag.Bool("stateless", false, "with -http, serve without Mcp-Session-Id sessions, so that any replica behind a load balancer can answer any request")
	prompt     = flag.String("prompt", "", "run one `query` through the Claude Code CLI with this server's tools in-process, and print the conversation")
	claudePath = flag.String("claude", "", "`path` of the Claude Code CLI for -prompt (default: claude in PATH)")
	keptTasks  = flag.Int("kept-tasks", 0, "the most tasks one client keeps, ended ones included, until their records expire (runtime.TaskOptions.MaxKeptPerClient; 0: 1024); over HTTP, clients without a token are their address, and behind a proxy all are the proxy's")
	keptBytes  = flag.Int("kept-task-bytes", 0, "the most bytes of task records, results included, one client keeps (runtime.TaskOptions.MaxKeptBytesPerClient; 0: 16 MiB)")
	pageSize   = flag.Int("page-size", 0, "the most items a page of tools/list, prompts/list, skills/list and resources/directory/read holds (runtime.Server.PageSize; 0: all on one page)")
)

// StateKeyEnv names the environment variable that holds the key, in hex,
// that replicas share to seal a call's state between the rounds of asking
// the client (runtime.Server.StateKey).
const StateKeyEnv = "MCPGEN_STATE_KEY"

// An Option adds to the command line of Main.
type Option func(*options)

type options struct {
	openStore   func(ctx context.Context, url string) (store.Store, error)
	newVerifier func(issuer string) (runtime.TokenVerifier, error)
}

// WithRedis adds -redis URL to the command line: open returns the store
// in the Redis at URL (module github.com/mcpgen/mcpgen/store/redis), which
// the server then keeps its tasks in and hears the other replicas through.
// A store that is an io.Closer is closed when the server returns.
func WithRedis(open func(ctx context.Context, url string) (store.Store, error)) Option {
	return func(o *options) { o.openStore = open }
}

// WithAuthorization adds -issuer URL and -audience URI to the command
// line. With -issuer, a server over HTTP requires a bearer token from that
// authorization server on every request, checked by the verifier that
// newVerifier returns for the issuer (a JWT verifier of the module
// github.com/mcpgen/mcpgen/auth, say), issued for the audience: the
// server's own http://ADDR/mcp unless -audience names another, such as
// its public URL behind a proxy. The scopes each tool, resource and prompt
// declares are then enforced. Over stdio and with -prompt nothing changes:
// those take their credentials from the environment.
func WithAuthorization(newVerifier func(issuer string) (runtime.TokenVerifier, error)) Option {
	return func(o *options) { o.newVerifier = newVerifier }
}

// Main serves s as the command line asks and exits.
func Main(s *runtime.Server, opts ...Option) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	var redisURL *string
	if o.openStore != nil {
		redisURL = flag.String("redis", "", "keep tasks in, and hear the other replicas through, the Redis at `url` (redis://host:6379/0); replicas need the same "+StateKeyEnv+" as well")
	}
	var issuer, audience *string
	if o.newVerifier != nil {
		issuer = flag.String("issuer", "", "with -http, require access tokens from the OAuth authorization server whose issuer is `url` (https://auth.example.com)")
		audience = flag.String("audience", "", "with -issuer, the `uri` tokens must be issued for: the server's URL as clients reach it (default http://ADDR/mcp)")
	}
	flag.Parse()
	s.Tasks.MaxKeptPerClient = cmp.Or(*keptTasks, s.Tasks.MaxKeptPerClient)
	s.Tasks.MaxKeptBytesPerClient = cmp.Or(*keptBytes, s.Tasks.MaxKeptBytesPerClient)
	s.PageSize = cmp.Or(*pageSize, s.PageSize)
	if *stateless && *httpAddr == "" {
		fmt.Fprintf(os.Stderr, "%s: -stateless needs -http\n", s.Name)
		os.Exit(2)
	}
	var authz *runtime.Authorization
	if issuer != nil && *issuer != "" {
		if *httpAddr == "" {
			fmt.Fprintf(os.Stderr, "%s: -issuer needs -http: over stdio a server takes its credentials from the environment\n", s.Name)
			os.Exit(2)
		}
		v, err := o.newVerifier(*issuer)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: -issuer %s: %v\n", s.Name, *issuer, err)
			os.Exit(2)
		}
		authz = &runtime.Authorization{Verifier: v, Resource: *audience, AuthorizationServers: []string{*issuer}}
	} else if audience != nil && *audience != "" {
		fmt.Fprintf(os.Stderr, "%s: -audience needs -issuer\n", s.Name)
		os.Exit(2)
	}
	if k := os.Getenv(StateKeyEnv); k != "" {
		key, err := hex.DecodeString(k)
		if err != nil || len(key) != 32 {
			fmt.Fprintf(os.Stderr, "%s: %s must be 32 bytes in hex (64 hex digits), such as the output of openssl rand -hex 32\n", s.Name, StateKeyEnv)
			os.Exit(2)
		}
		s.StateKey = key
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if redisURL != nil && *redisURL != "" {
		if s.StateKey == nil {
			fmt.Fprintf(os.Stderr, "%s: -redis shares tasks between replicas, which must open each other's: set %s to the same 32 random bytes, in hex, for each\n", s.Name, StateKeyEnv)
			os.Exit(2)
		}
		store, err := o.openStore(ctx, *redisURL)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: -redis %s: %v\n", s.Name, redacted(*redisURL), err)
			os.Exit(2)
		}
		if c, ok := store.(io.Closer); ok {
			defer c.Close()
		}
		s.Store = store
	}
	var err error
	switch {
	case *prompt != "":
		err = ask(ctx, s, *prompt)
	case *httpAddr != "":
		// The examples are single local processes, so they keep sessions
		// unless told otherwise: the log level a client sets then applies
		// to its later calls. Replicas behind a load balancer without
		// sticky routing run -stateless.
		err = s.ListenAndServeHTTP(ctx, *httpAddr, &runtime.HTTPOptions{Sessions: !*stateless, Authorization: authz})
	default:
		err = s.ServeStdio(ctx)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(1)
	}
}

// redacted is the URL u with its password, if any, replaced by xxxxx, for
// an error message; a URL that does not parse is not shown at all.
func redacted(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return p.Redacted()
}

// ask runs prompt through the Claude Code CLI with s hosted in this
// process, its tools allowed, and prints the conversation.
func ask(ctx context.Context, s *runtime.Server, prompt string) error {
	res, err := claude.Query(ctx, prompt, claude.Options{
		Path:         *claudePath,
		Servers:      map[string]*runtime.Server{s.Name: s},
		AllowedTools: []string{"mcp__" + s.Name + "__*"},
	}, printMessage)
	if err != nil {
		return err
	}
	return res.Err() // why the run failed, in the CLI's words, or nil
}

// printMessage prints one message of the conversation for a person.
func printMessage(m claude.Message) {
	switch m := m.(type) {
	case *claude.SystemMessage:
		if m.Subtype == "init" {
			fmt.Printf("[session %s, model %s]\n", m.SessionID, m.Model)
			for _, srv := range m.MCPServers {
				fmt.Printf("[MCP server %s: %s]\n", srv.Name, srv.Status)
			}
		}
	case *claude.AssistantMessage:
		for _, b := range m.Message.Content {
			switch b.Type {
			case "text":
				fmt.Printf("claude: %s\n", b.Text)
			case "tool_use":
				fmt.Printf("claude calls %s %s\n", b.Name, b.Input)
			}
		}
	case *claude.UserMessage:
		for _, b := range m.Message.Content {
			if b.Type == "tool_result" {
				status := "result"
				if b.IsError {
					status = "error"
				}
				fmt.Printf("  %s: %s\n", status, toolResultText(b))
			}
		}
	case *claude.ResultMessage:
		fmt.Printf("[%s after %d turns, %.1fs, $%.4f]\n", m.Subtype, m.NumTurns, float64(m.DurationMS)/1000, m.TotalCostUSD)
	}
}

// toolResultText flattens a tool_result's content, a string or a list of
// blocks, to text.
func toolResultText(b claude.ContentBlock) string {
	var text string
	if json.Unmarshal(b.Content, &text) == nil {
		return text
	}
	var blocks []claude.ContentBlock
	json.Unmarshal(b.Content, &blocks)
	var parts []string
	for _, c := range blocks {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		} else {
			parts = append(parts, "["+c.Type+"]")
		}
	}
	return strings.Join(parts, " ")
}
