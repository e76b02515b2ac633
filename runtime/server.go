package runtime

import (
	"bytes"
	"context"
	"crypto/cipher"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

// A Server holds a set of tools and answers MCP requests for them. The
// same Server can be served over stdio (ServeStdio), Streamable HTTP
// (HTTPHandler) and in-process to the Claude Code CLI (StartClaude), at the
// same time if need be.
//
// Set the exported fields before serving; add tools with AddTool.
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
	// MaxInFlight, if positive, bounds the tool calls that run at once;
	// further calls wait for a free slot, up to MaxInFlight of them. Past
	// that, stdio stops reading until a call ends, and Streamable HTTP
	// answers 503.
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
	// Roots(ctx) then asks that client for them.
	OnRootsChanged func(ctx context.Context)

	// ListResources, if set, lists resources known only at run time,
	// after the ones added with AddResource.
	ListResources ResourceLister

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

	mu            sync.RWMutex
	tools         []*Tool
	byName        map[string]*Tool
	lists         [2][]byte // tools/list results, legacy and modern, built on first use
	resources     []*Resource
	resourceByURI map[string]*Resource
	templates     []*ResourceTemplate
	prompts       []*Prompt
	promptByName  map[string]*Prompt

	liveMu    sync.Mutex
	live      map[*session]struct{}  // sessions that can be sent notifications
	listeners map[*listener]struct{} // open subscriptions/listen requests

	trees sync.Pool // *jsonvalue.Tree, for parsing messages

	stateOnce sync.Once
	stateAEAD cipher.AEAD // seals request states; see stateCipher

	limitsOnce sync.Once
	slots      chan struct{} // MaxInFlight semaphore; nil when unbounded
	admitted   *admission    // MaxPendingBytes and the calls waiting for slots
}

// AddTool registers t. It panics if the tool is malformed (no name or
// handler, a duplicate name, or an input schema that is not a valid object
// schema), as these are programming errors that no request can fix.
// Clients that are connected learn that the list changed.
func (s *Server) AddTool(t *Tool) {
	if err := s.addTool(t); err != nil {
		panic("runtime: AddTool: " + err.Error())
	}
	s.listChanged("tools")
}

// RemoveTool removes the tool named name, and reports whether there was
// one. Clients that are connected learn that the list changed.
func (s *Server) RemoveTool(name string) bool {
	s.mu.Lock()
	t := s.byName[name]
	if t != nil {
		delete(s.byName, name)
		s.tools = deleteFirst(s.tools, t)
		s.lists = [2][]byte{}
	}
	s.mu.Unlock()
	if t != nil {
		s.listChanged("tools")
	}
	return t != nil
}

func (s *Server) addTool(t *Tool) error {
	if !validSpecToolName(t.Name) {
		return fmt.Errorf("invalid tool name %q: use 1 to 128 of A-Z a-z 0-9 _ - .", t.Name)
	}
	if t.Handler == nil {
		return fmt.Errorf("tool %q has no handler", t.Name)
	}
	input := t.InputSchema
	if input == "" {
		input = emptyObjectSchema
	}
	sc, err := schema.Compile([]byte(input))
	if err != nil {
		return fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	if !sc.IsObject() {
		return fmt.Errorf("tool %q: input schema must have \"type\": \"object\"", t.Name)
	}
	headers, err := headerParams([]byte(input))
	if err != nil {
		return fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	var out *schema.Schema
	if t.OutputSchema != "" {
		if out, err = schema.Compile([]byte(t.OutputSchema)); err != nil {
			return fmt.Errorf("tool %q: output schema: %w", t.Name, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.byName[t.Name]; dup {
		return fmt.Errorf("duplicate tool name %q", t.Name)
	}
	if s.byName == nil {
		s.byName = make(map[string]*Tool)
	}
	t.input, t.output, t.wrapOutput, t.headers = sc, out, out != nil && !out.IsObject(), headers
	s.tools = append(s.tools, t)
	s.byName[t.Name] = t
	s.lists = [2][]byte{}
	return nil
}

func (s *Server) tool(name string) *Tool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byName[name]
}

// toolNamed is the tool named by the JSON string v, or nil. A name
// without escapes is looked up in place, without copying it.
func (s *Server) toolNamed(v jsonvalue.Value) *Tool {
	name := v.Raw()[1 : len(v.Raw())-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		return s.tool(v.Str())
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byName[string(name)]
}

func (s *Server) toolNames() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
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

// tree returns a tree to parse a message into, reused from an earlier
// message when one is free. Give it back with freeTree once nothing
// refers to the message any more: its call has ended and been answered.
func (s *Server) tree() *jsonvalue.Tree {
	if t, ok := s.trees.Get().(*jsonvalue.Tree); ok {
		return t
	}
	return new(jsonvalue.Tree)
}

// freeTree gives back a tree that tree returned. Trees of large messages
// are left to the garbage collector, so that one hostile message does not
// keep its memory in the pool.
func (s *Server) freeTree(t *jsonvalue.Tree) {
	if t.Reset() <= maxPooledNodes {
		s.trees.Put(t)
	}
}

// maxPooledNodes bounds the trees kept for reuse: 48 KiB of nodes.
const maxPooledNodes = 4 << 10

// initLimits makes the server's bounds from its fields, once.
func (s *Server) initLimits() {
	s.limitsOnce.Do(func() {
		if s.MaxInFlight > 0 {
			s.slots = make(chan struct{}, s.MaxInFlight)
		}
		maxBytes := int64(s.MaxPendingBytes)
		if maxBytes <= 0 {
			maxBytes = 4 * int64(s.maxMessageSize())
		}
		s.admitted = newAdmission(maxBytes, 2*s.MaxInFlight)
	})
}

// slotsChan returns the MaxInFlight semaphore, or nil when calls are not
// bounded.
func (s *Server) slotsChan() chan struct{} {
	s.initLimits()
	return s.slots
}

// admission returns what bounds the messages the server holds at once.
func (s *Server) admission() *admission {
	s.initLimits()
	return s.admitted
}

// toolsList returns the tools/list result for a client of the modern era
// or not, building it once per set of tools: the schemas are compacted
// and the whole list is encoded once.
func (s *Server) toolsList(modern bool) ([]byte, error) {
	era := 0
	if modern {
		era = 1
	}
	s.mu.RLock()
	list := s.lists[era]
	s.mu.RUnlock()
	if list != nil {
		return list, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lists[era] != nil {
		return s.lists[era], nil
	}
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i, t := range s.tools {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := t.appendListEntry(&b, modern); err != nil {
			return nil, fmt.Errorf("encoding tools/list: tool %s: %w", t.Name, err)
		}
	}
	b.WriteString("]}")
	data := b.Bytes()
	s.lists[era] = data
	return data, nil
}
