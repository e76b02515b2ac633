package auth_test

// The end-to-end tests of authorization over Streamable HTTP (files
// e2e_*_test.go) use real parts only: a server built on the runtime and
// this package's verifiers, served by ListenAndServeHTTP (or mounted by
// hand); ORY Hydra as the authorization server (internal/hydratest); and
// as clients the official Go SDK, the official TypeScript SDK and the
// Claude Code CLI.

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/runtime"
)

// Scopes of the notes server's operations.
const (
	readScope  = "notes:read"
	writeScope = "notes:write"
)

// A notes is a server of notes whose reading tool needs notes:read and
// whose writing tool needs notes:write; it counts the runs of its
// handlers, so that a test can tell that a refused request ran none.
type notes struct {
	runs atomic.Int64

	mu    sync.Mutex
	notes []string
}

func (n *notes) server() *runtime.Server {
	s := &runtime.Server{Name: "notes", Version: "1.0.0", Logger: slog.New(slog.DiscardHandler)}
	s.AddTool(&runtime.Tool{
		Name:        "list_notes",
		Description: "List the notes.",
		InputSchema: `{"type":"object"}`,
		Scopes:      []string{readScope},
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			n.runs.Add(1)
			n.mu.Lock()
			defer n.mu.Unlock()
			return runtime.TextResult(fmt.Sprintf("%d notes for %s: %s", len(n.notes), runtime.TokenInfoFromContext(ctx).Subject, strings.Join(n.notes, "; "))), nil
		},
	})
	s.AddTool(&runtime.Tool{
		Name:        "add_note",
		Description: "Add a note.",
		InputSchema: `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
		Scopes:      []string{writeScope},
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			n.runs.Add(1)
			var in struct{ Text string }
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			n.mu.Lock()
			defer n.mu.Unlock()
			n.notes = append(n.notes, in.Text)
			return runtime.TextResult("added by " + runtime.TokenInfoFromContext(ctx).Subject), nil
		},
	})
	return s
}

// A served is a notes server running on a loopback port.
type served struct {
	*notes
	url string // the MCP endpoint, http://127.0.0.1:PORT/mcp
}

// options are the HTTP options of a notes server that takes the tokens v
// verifies, issued by issuer, for resource (empty: the address
// ListenAndServeHTTP listens on), with sessions or without.
func options(v runtime.TokenVerifier, issuer, resource string, sessions bool) *runtime.HTTPOptions {
	return &runtime.HTTPOptions{
		Sessions: sessions,
		Authorization: &runtime.Authorization{
			Verifier:             v,
			Resource:             resource,
			AuthorizationServers: []string{issuer},
			ResourceName:         "notes",
		},
	}
}

// serve runs a notes server behind ListenAndServeHTTP, which serves its
// metadata document too, until the test ends.
func serve(t testing.TB, v runtime.TokenVerifier, issuer string, sessions bool) *served {
	t.Helper()
	n := &notes{}
	return &served{notes: n, url: listen(t, n.server(), options(v, issuer, "", sessions))}
}

// serveMounted runs a notes server the other way a program can: its
// HTTPHandler and its ProtectedResourceMetadataHandler mounted on a mux
// of its own, behind a middleware that records every request in log:
// "RS", its method and path, and its status; "with token" when it
// carried an Authorization header.
func serveMounted(t testing.TB, v runtime.TokenVerifier, issuer string, log *requestLog) *served {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	n := &notes{}
	s := n.server()
	url := "http://" + ln.Addr().String() + "/mcp"
	opts := options(v, issuer, url, true)
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler(opts))
	mux.Handle("/.well-known/oauth-protected-resource/mcp", s.ProtectedResourceMetadataHandler(opts.Authorization))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		mux.ServeHTTP(sw, r)
		entry := fmt.Sprintf("RS %s %s %d", r.Method, r.URL.Path, sw.status)
		if r.Header.Get("Authorization") != "" {
			entry += " with token"
		}
		log.add(entry)
	}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return &served{notes: n, url: url}
}

// jwtVerifier is a verifier of h's JWT access tokens that reads the time
// from c (nil: the real time).
func jwtVerifier(t testing.TB, h *hydratest.Server, c *clock) *auth.JWTVerifier {
	t.Helper()
	return newVerifier(t, auth.JWTConfig{Issuer: h.Issuer()}, c)
}

// listen runs s.ListenAndServeHTTP on a free loopback port until the test
// ends and returns the endpoint's URL, which it reads from the server's
// log.
func listen(t testing.TB, s *runtime.Server, opts *runtime.HTTPOptions) string {
	t.Helper()
	urls := make(chan string, 1)
	s.Logger = slog.New(&urlCatcher{urls: urls})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServeHTTP(ctx, "127.0.0.1:0", opts) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case u := <-urls:
		return u
	case err := <-done:
		t.Fatalf("ListenAndServeHTTP: %v", err)
		return ""
	}
}

// A statusWriter remembers the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection, for the
// deadlines the runtime sets and the flushes of its streams.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// A requestLog is a list of what happened, in order.
type requestLog struct {
	mu   sync.Mutex
	list []string
}

func (l *requestLog) add(what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.list = append(l.list, what)
}

func (l *requestLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.list)
}

// urlCatcher is a slog handler that passes on the URL ListenAndServeHTTP
// logs once it listens, and drops everything else.
type urlCatcher struct{ urls chan<- string }

func (c *urlCatcher) Enabled(context.Context, slog.Level) bool { return true }
func (c *urlCatcher) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *urlCatcher) WithGroup(string) slog.Handler            { return c }
func (c *urlCatcher) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "url" {
			select {
			case c.urls <- a.Value.String():
			default:
			}
			return false
		}
		return true
	})
	return nil
}
