package runtime

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A Middleware wraps the handling of every request a server answers, on
// every transport (stdio, Streamable HTTP, a Conn, the Claude Code host):
// it sees what the request is (Request), may refuse it (by returning an
// Outcome of its own instead of calling next, see Refuse), and sees how
// it ended. The ctx it passes to next is the context the request's
// handler gets, so that a value it adds there (a trace span, say)
// reaches the program's code. Notifications and the client's responses
// are not requests, and pass by no middleware; nor does what Streamable
// HTTP refuses before reading a request (a bad token, a full server).
//
// Server.Middleware lists them, outermost first. A server without
// middleware pays nothing for the feature.
type Middleware func(next RequestHandler) RequestHandler

// A RequestHandler answers a request: the runtime's, which runs the
// method, or a Middleware's, which wraps it.
type RequestHandler func(ctx context.Context, req *Request) Outcome

// A Request is what a Middleware knows of a request. It is valid only
// until the request's handler returns: keep copies of what outlives it.
type Request struct {
	// Method is the MCP method, such as "tools/call".
	Method string
	// Target is what the method acts on: the tool or prompt name, the
	// resource URI, the argument completed; "" when there is none or the
	// request does not name it well (the method then refuses it).
	Target string
	// ID is the request's JSON-RPC id, as JSON: 7, or "abc" with its
	// quotes.
	ID json.RawMessage
	// Revision is the protocol revision the request is served under:
	// the one initialize negotiated, or the one its _meta names; "" for
	// a request of a session that has not initialized.
	Revision string
	// SessionID is the request's Streamable HTTP session, if it has one.
	SessionID string
	// Transport is "stdio", "http" or "conn" (a Conn, which the Claude
	// Code host uses).
	Transport string
	// Token is the request's verified bearer token, over Streamable HTTP
	// with a TokenVerifier; nil otherwise.
	Token *TokenInfo
	// Params is the request's params object as the client sent it; nil
	// when it sent none.
	Params json.RawMessage

	params jsonvalue.Value
}

// Meta returns the string member key of the request's params._meta, such
// as "traceparent"; "" when there is none, or it is not a string.
func (r *Request) Meta(key string) string {
	return r.params.Get("_meta").Get(key).Str()
}

// An Outcome is how a request ended, as a Middleware sees it.
type Outcome struct {
	// Code is the JSON-RPC error code the request was answered with, 0
	// for a result.
	Code int
	// Message is the error's message, for an error.
	Message string
	// ToolError says that a tools/call's result has isError set: the
	// tool failed, and the model was told why.
	ToolError bool
	// InputRequired says that a request of revision 2026-07-28 was
	// answered with questions for the client (input_required).
	InputRequired bool

	resp     response
	answered bool // resp holds the runtime's answer
}

// Refuse returns the Outcome of a request that a Middleware answers
// itself with the JSON-RPC error code and message, without calling the
// next handler: -32602 (invalid params) or -32603 (internal error), say,
// or an error code of the server's own, from -32000 to -32099.
func Refuse(code int, message string) Outcome {
	return Outcome{Code: code, Message: message}
}

// outcomeOf describes resp to a middleware, keeping it for the transport.
func outcomeOf(resp response) Outcome {
	o := Outcome{resp: resp, answered: true, InputRequired: resp.kind == resultInputRequired}
	switch {
	case resp.err != nil:
		o.Code, o.Message = resp.err.code, resp.err.message
	default:
		if tr, ok := resp.result.(*ToolResult); ok {
			o.ToolError = tr.IsError
		}
	}
	return o
}

// response is what the transport encodes for o: the runtime's answer, or
// a middleware's refusal.
func (o *Outcome) response() response {
	if o.answered {
		return o.resp
	}
	code := o.Code
	if code == 0 {
		code = jsonrpc.InternalError
	}
	return errorResponse(code, "%s", o.Message)
}

// serve answers c, through the server's middleware if it has any.
func (ss *session) serve(c *call) response {
	mw := ss.srv.Middleware
	if len(mw) == 0 {
		return ss.dispatch(c)
	}
	h := RequestHandler(func(ctx context.Context, req *Request) Outcome {
		c.handlerCtx = ctx
		return outcomeOf(ss.dispatch(c))
	})
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	o := h(&c.ctx, ss.request(c))
	return o.response()
}

// request describes c to a middleware.
func (ss *session) request(c *call) *Request {
	r := &Request{
		Method:    c.msg.Method,
		ID:        c.id(),
		SessionID: ss.id,
		Transport: ss.transport,
		Token:     TokenInfoFromContext(&c.ctx),
		params:    c.msg.Params,
		Params:    c.msg.Params.Raw(),
	}
	if c.meta != nil {
		r.Revision = c.meta.Version
	} else {
		r.Revision = ss.sessionRevision()
	}
	switch c.msg.Method {
	case wire.MethodComplete:
		r.Target = c.msg.Params.Get("argument").Get("name").Str()
	default:
		if c.method != nil && c.method.nameParam != "" {
			r.Target = c.msg.Params.Get(c.method.nameParam).Str()
		}
	}
	return r
}
