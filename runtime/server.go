package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/registry"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// A Server holds tools, resources and prompts and answers MCP requests
// for them. The same Server can be served over stdio (ServeStdio),
// Streamable HTTP (HTTPHandler, ListenAndServeHTTP), a transport of your
// own (NewConn) and in-process to the Claude Code CLI (package
// runtime/claude), at the same time if need be.
//
// Set the exported fields before serving; add what it serves with
// AddTool, AddResource, AddResourceTemplate and AddPrompt (mcpgen's
// generated Register does it for annotated functions).
type Server struct {
	// Name and Version identify the server in the initialize result.
	Name    string
	Version string
	// Title is an optional human-readable name.
	Title string
	// Instructions, if set, tell the client how to use the server's tools.
	Instructions string
	// Logger receives the server's own diagnostics, such as the stack of a
	// panicking handler. Nil means a text logger on stderr: never stdout,
	// which may carry the protocol.
	Logger *slog.Logger
	// MaxInFlight, if positive, bounds the handlers of the program's
	// (tools, prompts, resources, completions) that run at once; further
	// calls wait for a free slot, up to MaxInFlight of them. Past that,
	// stdio stops reading until a call ends, and Streamable HTTP answers
	// 503.
	MaxInFlight int
	// MaxMessageSize bounds the size of one incoming message, a line on
	// stdio or a request body over HTTP. Zero means DefaultMaxMessageSize
	// (16 MiB).
	MaxMessageSize int
	// MaxPendingBytes bounds the bytes of the messages that the server
	// holds at once over all its connections, being parsed, waiting or
	// running; each counts 4 KiB more than its size, for what holding it
	// costs besides. When it is reached, stdio stops reading until calls
	// end, and Streamable HTTP answers 503. A single message is always
	// accepted when nothing else is held. Zero means four times
	// MaxMessageSize.
	MaxPendingBytes int
	// ShutdownTimeout bounds how long a transport waits for calls in
	// flight when its context is cancelled. Zero means 5 seconds.
	ShutdownTimeout time.Duration
	// AskTimeout bounds how long a handler waits for the client's answer
	// to a question (Elicit, Sample, Roots). Zero means 10 minutes: a
	// person may take a while to fill a form.
	AskTimeout time.Duration
	// OnRootsChanged, if set, runs in a goroutine of its own when a client
	// says that its roots changed (notifications/roots/list_changed);
	// Roots(ctx) then asks that client for them. At most one runs per
	// client at a time: changes announced meanwhile make it run once more
	// when it returns. Its context ends with the client's session.
	OnRootsChanged func(ctx context.Context)

	// Middleware wraps the handling of every request, outermost first
	// (see Middleware).
	Middleware []Middleware

	// MaxListens bounds the subscriptions/listen requests open at once on
	// the server, and MaxListensPerClient those of one client (an HTTP
	// client is its verified token's subject, or else its address). Zero
	// means 256 and 16.
	MaxListens          int
	MaxListensPerClient int

	// ListResources, if set, lists resources known only at run time,
	// after the ones added with AddResource.
	ListResources ResourceLister

	// PageSize, if positive, is the most items one page of tools/list,
	// prompts/list, skills/list and resources/directory/read holds; the
	// page's nextCursor, which the client sends back, gives the next.
	// Zero means every item on one page.
	PageSize int

	// ListCache is the cache hint that clients of revision 2026-07-28 get
	// with the lists of tools, prompts, resources and templates, and with
	// server/discover. The zero value says the lists go stale at once and
	// may be shared between users; set Private when they depend on who
	// asks (through ListResources, say).
	ListCache CacheHint
	// StateKey seals the state that a call which asks the client carries
	// from one round to the next under revision 2026-07-28 (see Ask). Give
	// every replica behind a load balancer the same key, 32 random bytes,
	// so that any of them can finish a call that another began. Empty
	// means a random key per Server: enough for one process.
	StateKey []byte

	// Store keeps what outlives a request or must reach every replica:
	// the records of tasks and the bus that carries list changes, resource
	// updates and task events between replicas. (A Streamable HTTP
	// session, with the events a client resumes by Last-Event-ID, stays
	// on the replica that holds it.) Nil means the Server's own memory,
	// which is enough for one process; replicas behind a load balancer
	// share one (module github.com/mcpgen/mcpgen/store/redis), and then
	// need the same StateKey as well. See store.Store.
	Store store.Store
	// Tasks bounds and times the tasks of the tools that run as tasks
	// (Tool.Task); the zero value means the defaults given there.
	Tasks TaskOptions

	tools     registry.Registry[*Tool]
	resources registry.Registry[*Resource]
	templates registry.Registry[*ResourceTemplate]
	prompts   registry.Registry[*Prompt]
	skills    skillSet // see skills.go
	fanout    fanout

	trees jsonvalue.TreePool // for parsing messages

	stateBoxOnce sync.Once
	stateBoxed   *wire.Box // seals request states; see stateBox

	limitsOnce sync.Once
	admitted   *admission // MaxPendingBytes and MaxInFlight

	sharedStore sharedStore  // the Store, as tasks and the bus use it; see shared
	bus         replicaBus   // see replicabus.go
	running     runningTasks // the tasks whose handlers run here
	ledgers     ledgerLocks  // see lockLedger
}

// errKeyless is why a server that shares its store cannot serve.
var errKeyless = errors.New("Server.Store is set, but Server.StateKey is empty: give every replica that shares the store the same StateKey (32 random bytes), so that each can open the task records and bus messages the others seal")

// Check reports what keeps s from serving, as it is set up: a Store
// without a StateKey, whose task records and bus messages no other
// replica could open; a skill whose files are not those its manifest
// lists (see AddSkill). Serve, ServeStdio and ListenAndServeHTTP return its
// error before serving anything, and HTTPHandler and NewConn, which
// return none, panic with it (as HTTPHandler does for an Authorization no
// request could satisfy); call it first to have the error instead.
func (s *Server) Check() error {
	if s.Store != nil && len(s.StateKey) == 0 {
		return fmt.Errorf("runtime: %w", errKeyless)
	}
	return s.checkSkills()
}

// mustCheck panics with Check's error, for what cannot return one.
func (s *Server) mustCheck() {
	if err := s.Check(); err != nil {
		panic(err.Error())
	}
}

func (s *Server) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return defaultLogger
}

var defaultLogger = slog.New(slog.NewTextHandler(os.Stderr, nil))

func (s *Server) shutdownTimeout() time.Duration {
	if s.ShutdownTimeout > 0 {
		return s.ShutdownTimeout
	}
	return 5 * time.Second
}

// waitGroup waits for wg until stop is closed or, if timeout is positive,
// the timeout expires: transports wait for calls in flight, but not for
// ever on a handler that ignores its context.
func waitGroup(wg *sync.WaitGroup, stop <-chan struct{}, timeout time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-done:
	case <-stop:
	case <-expired:
	}
}
