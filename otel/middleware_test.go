package otel

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

const (
	traceID    = "4bf92f3577b34da6a3ce929d0e0e4736"
	parentSpan = "00f067aa0ba902b7"
	parent     = "00-" + traceID + "-" + parentSpan + "-01"
)

// TestSpanOverConn: a tool call with a traceparent in _meta gets a SERVER
// span named "tools/call echo", child of that parent, with the
// conventions' attributes; the handler's context carries the span and the
// baggage; a tool error, a server error and a refused request are
// recorded as the conventions say.
func TestSpanOverConn(t *testing.T) {
	tr := newTraced(t)
	conn := tr.srv.NewConn(nil)
	defer conn.Close()
	ctx := context.Background()

	resp := string(conn.Handle(ctx, []byte(mcptest.Request(7, "tools/call", `"name":"echo","_meta":{"traceparent":"`+parent+`","tracestate":"rojo=00f067aa0ba902b7","baggage":"userId=alice"}`))))
	if !strings.Contains(resp, `"text":"ok"`) {
		t.Fatalf("the call failed: %s", resp)
	}
	s := only(t, tr.takeSpans())
	if s.Name != "tools/call echo" || s.SpanKind != trace.SpanKindServer {
		t.Errorf("span %q kind %v, want \"tools/call echo\" server", s.Name, s.SpanKind)
	}
	if s.Parent.TraceID().String() != traceID || s.Parent.SpanID().String() != parentSpan || !s.Parent.IsRemote() {
		t.Errorf("parent %v, want the remote %s/%s", s.Parent, traceID, parentSpan)
	}
	if s.SpanContext.TraceID().String() != traceID || s.SpanContext.TraceState().Get("rojo") != "00f067aa0ba902b7" {
		t.Errorf("span context %v does not continue the trace and its tracestate", s.SpanContext)
	}
	want := map[string]string{
		"mcp.method.name":       "tools/call",
		"gen_ai.tool.name":      "echo",
		"gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id":    "7",
	}
	if m := mismatches(attrs(s.Attributes), want); len(m) > 0 {
		t.Errorf("attributes: %v", m)
	}
	if s.Status.Code != codes.Unset {
		t.Errorf("status %v, want unset", s.Status)
	}
	h := tr.handler(t)
	if !h.span.Equal(s.SpanContext) {
		t.Errorf("the handler's context has span %v, want the server span %v", h.span, s.SpanContext)
	}
	if h.baggage != "userId=alice" {
		t.Errorf("the handler's baggage is %q, want userId=alice", h.baggage)
	}

	// A tool error.
	conn.Handle(ctx, []byte(mcptest.Request("a-8", "tools/call", `"name":"fail"`)))
	s = only(t, tr.takeSpans())
	if a := attrs(s.Attributes); a["error.type"] != "tool_error" || a["jsonrpc.request.id"] != "a-8" || a["rpc.response.status_code"] != "" {
		t.Errorf("a tool error: %v", a)
	}
	if s.Status.Code != codes.Error || s.Parent.IsValid() {
		t.Errorf("a tool error: status %v, parent %v (want an error, a new trace)", s.Status, s.Parent)
	}

	// A server error (-32001, a middleware's refusal).
	conn.Handle(ctx, []byte(mcptest.Request(9, "tools/call", `"name":"refused"`)))
	s = only(t, tr.takeSpans())
	if a := attrs(s.Attributes); a["error.type"] != "-32001" || a["rpc.response.status_code"] != "-32001" {
		t.Errorf("a server error: %v", a)
	}
	if s.Status.Code != codes.Error || s.Status.Description != "refused by policy" {
		t.Errorf("a server error: status %v, want an error described by the message", s.Status)
	}

	// A request the server cannot serve (-32602, an unknown tool) is no
	// error of the server's: a status code, no error.type.
	conn.Handle(ctx, []byte(mcptest.Request(10, "tools/call", `"name":"nosuch"`)))
	s = only(t, tr.takeSpans())
	if a := attrs(s.Attributes); a["rpc.response.status_code"] != "-32602" || a["error.type"] != "" || s.Status.Code != codes.Unset {
		t.Errorf("an unknown tool: %v, status %v", a, s.Status)
	}

	// A resource: its URI an attribute, not in the span's name; a prompt.
	conn.Handle(ctx, []byte(mcptest.Request(11, "resources/read", `"uri":"notes://1"`)))
	s = only(t, tr.takeSpans())
	if a := attrs(s.Attributes); s.Name != "resources/read" || a["mcp.resource.uri"] != "notes://1" || a["gen_ai.operation.name"] != "" {
		t.Errorf("a resource: %q %v", s.Name, a)
	}
	conn.Handle(ctx, []byte(mcptest.Request(12, "prompts/get", `"name":"summary"`)))
	s = only(t, tr.takeSpans())
	if a := attrs(s.Attributes); s.Name != "prompts/get summary" || a["gen_ai.prompt.name"] != "summary" {
		t.Errorf("a prompt: %q %v", s.Name, a)
	}
}

// TestAmbientParent: without a traceparent in _meta, the span is a child
// of the span the request arrived in (the Claude host's, say); with one,
// that is the parent and the ambient span is linked.
func TestAmbientParent(t *testing.T) {
	tr := newTraced(t)
	conn := tr.srv.NewConn(nil)
	defer conn.Close()
	ambient := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	ctx := trace.ContextWithSpanContext(context.Background(), ambient)

	conn.Handle(ctx, []byte(mcptest.Request(1, "tools/call", `"name":"echo"`)))
	s := only(t, tr.takeSpans())
	if s.Parent.SpanID() != ambient.SpanID() || len(s.Links) != 0 {
		t.Errorf("parent %v links %v, want the ambient span and no link", s.Parent, s.Links)
	}
	conn.Handle(ctx, []byte(mcptest.Request(2, "tools/call", `"name":"echo","_meta":{"traceparent":"`+parent+`"}`)))
	s = only(t, tr.takeSpans())
	if s.Parent.SpanID().String() != parentSpan || len(s.Links) != 1 || s.Links[0].SpanContext.SpanID() != ambient.SpanID() {
		t.Errorf("parent %v links %v, want the _meta parent and a link to the ambient span", s.Parent, s.Links)
	}
}

// TestSpanOverHTTP: over Streamable HTTP with a session, the official Go
// SDK's client calling, the span has the session, the client's address
// and port, and the network protocol.
func TestSpanOverHTTP(t *testing.T) {
	tr := newTraced(t)
	ts := httptest.NewServer(tr.srv.HTTPHandler(&runtime.HTTPOptions{Sessions: true}))
	defer ts.Close()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "official", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tr.takeSpans() // initialize
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Meta: mcp.Meta{"traceparent": parent}}); err != nil {
		t.Fatal(err)
	}
	s := only(t, tr.takeSpans())
	if m := mismatches(attrs(s.Attributes), wantHTTPCall("echo", cs.ID())); len(m) > 0 || s.Parent.SpanID().String() != parentSpan {
		t.Errorf("attributes: %v; parent %v", m, s.Parent)
	}
}
