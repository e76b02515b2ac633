package runtimetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// The two forms of the protocol a Client speaks; a test of a server that
// should work with every client runs once with each.
const (
	// SessionRevision is a revision in which the client begins with
	// initialize, which declares its capabilities for the connection, and
	// the server asks the client a question as a request of its own while
	// the call waits. It is the default. The older revisions of this form
	// (2024-11-05, 2025-03-26, 2025-06-18) may be named too.
	SessionRevision = "2025-11-25"
	// RequestRevision is the revision in which every request carries its
	// revision and the client's capabilities in its _meta, and a call whose
	// handler asks the client ends with input_required: the client answers
	// the questions and makes the call again.
	RequestRevision = "2026-07-28"
)

// Options configure a Client. The zero value is a client of
// SessionRevision that can answer no question.
//
// Each function that answers a question runs with the context of the
// call that led to it under RequestRevision, and under a session
// revision with one that ends when the Client is closed or the server
// withdraws the question. An error it returns answers the question with
// a JSON-RPC error under a session revision (a *runtime.ClientError
// gives its code and message, any other error -32603 and its text),
// which the handler gets as a *runtime.ClientError; under
// RequestRevision, where an answer cannot be an error, the call fails
// with it.
type Options struct {
	// Revision is the protocol revision the client speaks:
	// SessionRevision (when empty), an older revision that begins with
	// initialize, or RequestRevision.
	Revision string

	// Elicit, if set, answers the server's forms (elicitation/create in
	// form mode): set q.Action and, to accept, q.Content, a JSON object
	// that the server checks against q.Schema.
	Elicit func(ctx context.Context, q *runtime.ElicitQuestion) error
	// ElicitURL, if set, answers the server's requests to send the user
	// to a URL (elicitation/create in URL mode): set q.Action.
	ElicitURL func(ctx context.Context, q *runtime.ElicitURLQuestion) error
	// Sample, if set, answers the server's requests for a message of the
	// client's model (sampling/createMessage, with tools or without): set
	// q.Result (see SampleText).
	Sample func(ctx context.Context, q *runtime.SampleQuestion) error
	// Roots, if set, answers the server's requests for the client's roots
	// (roots/list): set q.Roots.
	Roots func(ctx context.Context, q *runtime.RootsQuestion) error
}

// A Client is a client of one *runtime.Server, connected in process
// through a runtime.Conn. Its methods may be called from several
// goroutines at once.
type Client struct {
	conn       *runtime.Conn
	opts       Options
	perRequest bool
	caps       json.RawMessage // the client's capabilities, as JSON
	nextID     atomic.Int64

	// For the questions of the server's under a session revision.
	ctx     context.Context // ends when the Client is closed
	cancel  context.CancelFunc
	mu      sync.Mutex
	closed  bool
	asking  sync.WaitGroup                // the answers being made
	pending map[string]context.CancelFunc // by the question's id, as JSON
}

// Connect connects a new Client to srv: under a session revision it
// sends initialize, and fails if the server negotiates another revision.
// Close the Client when done.
func Connect(ctx context.Context, srv *runtime.Server, opts *Options) (*Client, error) {
	if err := srv.Check(); err != nil {
		return nil, err
	}
	c := &Client{pending: map[string]context.CancelFunc{}}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.Revision == "" {
		c.opts.Revision = SessionRevision
	}
	c.perRequest = c.opts.Revision == RequestRevision
	c.caps = capabilities(&c.opts)
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.conn = srv.NewConn(c.receive)
	if c.perRequest {
		return c, nil
	}
	if err := c.initialize(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("runtimetest: initialize: %w", err)
	}
	return c, nil
}

// NewClient is Connect for a test: it fails the test when the client
// cannot connect, and closes the client when the test ends.
func NewClient(tb testing.TB, srv *runtime.Server, opts *Options) *Client {
	tb.Helper()
	c, err := Connect(tb.Context(), srv, opts)
	if err != nil {
		tb.Fatalf("runtimetest: connecting to the server: %v", err)
	}
	tb.Cleanup(c.Close)
	return c
}

// Revision returns the protocol revision the client speaks.
func (c *Client) Revision() string { return c.opts.Revision }

// Close ends the connection: the server cancels the calls in flight and
// forgets the client. Close waits for the functions of Options that
// answer the server's questions to return. Calling it again does nothing.
func (c *Client) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.conn.Close()
	c.cancel()
	c.asking.Wait()
}

// capabilities returns the client's capabilities as JSON: those of the
// functions of opts that are set.
func capabilities(opts *Options) json.RawMessage {
	empty := struct{}{}
	caps := map[string]any{}
	elicit := map[string]any{}
	if opts.Elicit != nil {
		elicit["form"] = empty
	}
	if opts.ElicitURL != nil {
		elicit["url"] = empty
	}
	if len(elicit) > 0 {
		caps["elicitation"] = elicit
	}
	if opts.Sample != nil {
		caps["sampling"] = map[string]any{"tools": empty}
	}
	if opts.Roots != nil {
		caps["roots"] = empty
	}
	b, _ := json.Marshal(caps) // maps of maps: nothing fails
	return b
}

// initialize opens a session of the client's revision.
func (c *Client) initialize(ctx context.Context) error {
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	params := map[string]any{
		"protocolVersion": c.opts.Revision,
		"capabilities":    c.caps,
		"clientInfo":      map[string]string{"name": "runtimetest", "version": "1"},
	}
	if err := c.request(ctx, "initialize", params, &res); err != nil {
		return err
	}
	if res.ProtocolVersion != c.opts.Revision {
		return fmt.Errorf("the server answered with revision %q, not %q", res.ProtocolVersion, c.opts.Revision)
	}
	c.conn.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return nil
}

// A response is a JSON-RPC response to one of the client's requests.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// roundTrip sends the request method with params (encoded with
// encoding/json; under RequestRevision, a map to which it adds the
// _meta) and returns the result, or the error response as a
// *runtime.ProtocolError.
func (c *Client) roundTrip(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	if c.perRequest {
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    c.opts.Revision,
			"io.modelcontextprotocol/clientCapabilities": c.caps,
		}
	}
	id := c.nextID.Add(1)
	msg, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      int64          `json:"id"`
		Method  string         `json:"method"`
		Params  map[string]any `json:"params"`
	}{"2.0", id, method, params})
	if err != nil {
		return nil, fmt.Errorf("encoding the params of %s: %w", method, err)
	}
	out := c.conn.Handle(ctx, msg)
	if out == nil {
		return nil, fmt.Errorf("the server did not answer %s", method)
	}
	var resp response
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("the answer to %s is not a JSON-RPC response: %w: %.200s", method, err, out)
	}
	switch {
	case string(resp.ID) != fmt.Sprint(id):
		return nil, fmt.Errorf("the answer to %s has the id %s, not %d", method, resp.ID, id)
	case resp.Error != nil:
		pe := &runtime.ProtocolError{Code: resp.Error.Code, Message: resp.Error.Message}
		if len(resp.Error.Data) > 0 {
			pe.Data = resp.Error.Data
		}
		return nil, pe
	case resp.Result == nil:
		return nil, fmt.Errorf("the answer to %s has neither a result nor an error: %.200s", method, out)
	}
	return resp.Result, nil
}

// maxRounds bounds the rounds of one call under RequestRevision: a
// handler that asks again whatever it is told would otherwise never end.
const maxRounds = 64

// request sends the request method with params and decodes its result
// into v. Under RequestRevision it answers the questions of an
// input_required result and makes the request again, until the result is
// complete.
func (c *Client) request(ctx context.Context, method string, params map[string]any, v any) error {
	for range maxRounds {
		raw, err := c.roundTrip(ctx, method, params)
		if err != nil {
			return err
		}
		if c.perRequest {
			var kind struct {
				ResultType    string                     `json:"resultType"`
				InputRequests map[string]json.RawMessage `json:"inputRequests"`
				RequestState  *string                    `json:"requestState"`
			}
			if err := json.Unmarshal(raw, &kind); err != nil {
				return fmt.Errorf("the result of %s: %w", method, err)
			}
			switch kind.ResultType {
			case "input_required":
				answers, err := c.answerAll(ctx, kind.InputRequests)
				if err != nil {
					return fmt.Errorf("%s: %w", method, err)
				}
				params["inputResponses"] = answers
				if kind.RequestState != nil {
					params["requestState"] = *kind.RequestState
				} else {
					delete(params, "requestState")
				}
				continue
			case "complete":
			default:
				return fmt.Errorf("the result of %s has the resultType %q, where a client of %s wants complete or input_required", method, kind.ResultType, c.opts.Revision)
			}
		}
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("the result of %s: %w", method, err)
		}
		return nil
	}
	return fmt.Errorf("%s still asked the client after %d rounds", method, maxRounds)
}

// list sends the list request method, and again with each nextCursor,
// and returns the items of every page, which each page holds under key,
// decoded with decode.
func list[T any](ctx context.Context, c *Client, method, key string, decode func(json.RawMessage) (T, error)) ([]T, error) {
	var items []T
	seen := map[string]bool{}
	params := map[string]any{}
	for {
		var page map[string]json.RawMessage
		if err := c.request(ctx, method, params, &page); err != nil {
			return nil, fmt.Errorf("runtimetest: %s: %w", method, err)
		}
		var these []json.RawMessage
		if err := json.Unmarshal(page[key], &these); err != nil {
			return nil, fmt.Errorf("runtimetest: the result of %s has no list %q: %w", method, key, err)
		}
		for _, raw := range these {
			item, err := decode(raw)
			if err != nil {
				return nil, fmt.Errorf("runtimetest: %s: item %d: %w", method, len(items), err)
			}
			items = append(items, item)
		}
		var next string
		if raw, ok := page["nextCursor"]; ok {
			if err := json.Unmarshal(raw, &next); err != nil {
				return nil, fmt.Errorf("runtimetest: the nextCursor of %s: %w", method, err)
			}
		}
		if next == "" {
			return items, nil
		}
		if seen[next] {
			return nil, fmt.Errorf("runtimetest: %s gave the cursor %q twice", method, next)
		}
		seen[next] = true
		params = map[string]any{"cursor": next}
	}
}
