package otel

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// TestMetricsOverStdio: over stdio each request is measured in
// mcp.server.operation.duration with its method, tool, revision, outcome
// and transport, and the connection's session in
// mcp.server.session.duration once the input ends, before Serve returns.
func TestMetricsOverStdio(t *testing.T) {
	tr := newTraced(t)
	in := strings.Join([]string{
		mcptest.Initialize(1, "2025-06-18"),
		mcptest.Initialized,
		mcptest.Request(2, "tools/call", `"name":"echo"`),
		mcptest.Request(3, "tools/call", `"name":"echo"`),
		mcptest.Request(4, "tools/call", `"name":"fail"`),
	}, "\n") + "\n"
	if err := tr.srv.Serve(context.Background(), strings.NewReader(in), io.Discard); err != nil {
		t.Fatal(err)
	}
	spans := tr.takeSpans()
	if len(spans) != 4 {
		t.Fatalf("%d spans, want 4 (notifications are not requests)", len(spans))
	}
	if a := attrs(spans[1].Attributes); a["network.transport"] != "pipe" || a["mcp.protocol.version"] != "2025-06-18" {
		t.Errorf("over stdio: %v", a)
	}
	m := tr.metrics(t)
	counts := map[string]uint64{}
	for _, dp := range m["mcp.server.operation.duration"].DataPoints {
		a := attrs(dp.Attributes.ToSlice())
		counts[a["mcp.method.name"]+" "+a["gen_ai.tool.name"]+" "+a["error.type"]+" "+a["network.transport"]+" "+a["mcp.protocol.version"]] += dp.Count
	}
	want := map[string]uint64{
		"initialize   pipe ":                         1,
		"tools/call echo  pipe 2025-06-18":           2,
		"tools/call fail tool_error pipe 2025-06-18": 1,
	}
	if len(counts) != len(want) {
		t.Errorf("operation durations %v, want %v", counts, want)
	}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("operation durations %v, want %v", counts, want)
			break
		}
	}
	sessions := m["mcp.server.session.duration"].DataPoints
	if len(sessions) != 1 || sessions[0].Count != 1 {
		t.Fatalf("session durations %+v, want one session", sessions)
	}
	if a := attrs(sessions[0].Attributes.ToSlice()); len(a) != 1 || a["mcp.protocol.version"] != "2025-06-18" {
		t.Errorf("the session's attributes %v", a)
	}
}
