package otel

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// conventions is the pinned copy of the MCP conventions' attribute lists
// (testdata/mcp-conventions.txt).
type conventions struct {
	levels      map[string]map[string]string // span or metric → key → level
	instruments map[string]string            // metric → "histogram s"
	rules       map[string][]string
}

func readConventions(t *testing.T) conventions {
	t.Helper()
	f, err := os.Open("testdata/mcp-conventions.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := conventions{levels: map[string]map[string]string{}, instruments: map[string]string{}, rules: map[string][]string{}}
	var current string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0 || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "  "):
			c.levels[current][fields[0]] = fields[1]
		case fields[0] == "span":
			current = fields[1]
			c.levels[current] = map[string]string{}
		case fields[0] == "metric":
			current = fields[1]
			c.levels[current] = map[string]string{}
			c.instruments[current] = fields[2] + " " + fields[3]
		case fields[0] == "rule":
			c.rules[fields[1]] = fields[2:]
		}
	}
	return c
}

// TestConventions checks what the middleware emits against the
// conventions' own attribute lists, not a list of ours: every attribute
// of every span and data point is one the conventions give that span or
// metric; the required ones are always there, the conditionally required
// ones whenever their condition holds; the span name, the error rules
// and the metrics' instruments and units are the conventions'. The
// requests exercise every transport and outcome.
func TestConventions(t *testing.T) {
	c := readConventions(t)
	tr := newTraced(t)

	// Every key the code names is in the conventions' registry of the
	// server span or a server metric.
	for _, k := range []attribute.Key{keyMethod, keySessionID, keyProtocolVersion, keyResourceURI, keyRequestID, keyToolName, keyPromptName, keyOperationName, keyStatusCode, keyErrorType, keyNetworkTransport, keyNetworkProtocolName, keyNetworkProtocolVersion, keyClientAddress, keyClientPort} {
		if c.levels["mcp.server"][string(k)] == "" {
			t.Errorf("the key %s is not an attribute of the conventions' mcp.server span", k)
		}
	}

	ctx := context.Background()
	conn := tr.srv.NewConn(nil)
	for i, req := range []string{
		mcptest.Initialize(1, "2025-11-25"),
		mcptest.Request(2, "tools/call", `"name":"echo","_meta":{"traceparent":"`+parent+`"}`),
		mcptest.Request(3, "tools/call", `"name":"fail"`),
		mcptest.Request(4, "tools/call", `"name":"refused"`),
		mcptest.Request(5, "tools/call", `"name":"nosuch"`),
		mcptest.Request(6, "resources/read", `"uri":"notes://1"`),
		mcptest.Request(7, "resources/read", `"uri":"notes://2"`),
		mcptest.Request(8, "prompts/get", `"name":"summary"`),
		mcptest.Request(9, "tools/list", ``),
		mcptest.Request(10, "no/such/method", ``),
	} {
		if conn.Handle(ctx, []byte(req)) == nil {
			t.Fatalf("request %d got no answer", i)
		}
	}
	conn.Close()
	spans := tr.takeSpans()
	if len(spans) != 10 {
		t.Fatalf("%d spans, want 10", len(spans))
	}
	errorFree := c.rules["not-errors"]
	for _, s := range spans {
		a := attrs(s.Attributes)
		check(t, "span "+s.Name, c.levels["mcp.server"], a)
		method := a["mcp.method.name"]
		target := a[c.rules["span-name-target"][0]] + a[c.rules["span-name-target"][1]]
		if want := strings.TrimSpace(method + " " + target); s.Name != want {
			t.Errorf("span %q, want %q", s.Name, want)
		}
		if (a["gen_ai.operation.name"] == "execute_tool") != (method == c.rules["execute-tool"][0]) {
			t.Errorf("span %q: gen_ai.operation.name %q", s.Name, a["gen_ai.operation.name"])
		}
		if method == "tools/call" && a["gen_ai.tool.name"] == "" || method == "prompts/get" && a["gen_ai.prompt.name"] == "" || method == "resources/read" && a["mcp.resource.uri"] == "" {
			t.Errorf("span %q lacks its conditionally required target: %v", s.Name, a)
		}
		if a["jsonrpc.request.id"] == "" {
			t.Errorf("span %q lacks jsonrpc.request.id (conditionally required for a request)", s.Name)
		}
		code := a["rpc.response.status_code"]
		isErr := code != "" && !slices.Contains(errorFree, code) || a["error.type"] == c.rules["tool-error"][0]
		if (a["error.type"] != "") != isErr || (s.Status.Code.String() == "Error") != isErr {
			t.Errorf("span %q: code %q error.type %q status %v", s.Name, code, a["error.type"], s.Status)
		}
	}

	// The metrics: the conventions' instruments, units and attributes.
	var rm metricdata.ResourceMetrics
	if err := tr.reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			levels, ok := c.levels[m.Name]
			if !ok {
				t.Errorf("metric %s is not one of the conventions'", m.Name)
				continue
			}
			seen[m.Name] = true
			h, isHist := m.Data.(metricdata.Histogram[float64])
			if !isHist || c.instruments[m.Name] != "histogram "+m.Unit {
				t.Errorf("metric %s: %T in %q, want %s", m.Name, m.Data, m.Unit, c.instruments[m.Name])
				continue
			}
			for _, dp := range h.DataPoints {
				check(t, "metric "+m.Name, levels, attrs(dp.Attributes.ToSlice()))
			}
		}
	}
	for _, name := range []string{"mcp.server.operation.duration", "mcp.server.session.duration"} {
		if !seen[name] {
			t.Errorf("no %s recorded", name)
		}
	}
}

// check reports an attribute the conventions do not give, or a required
// one missing.
func check(t *testing.T, what string, levels, got map[string]string) {
	t.Helper()
	for k := range got {
		if levels[k] == "" {
			t.Errorf("%s has %s, which the conventions do not give it", what, k)
		}
	}
	for k, level := range levels {
		if level == "required" && got[k] == "" {
			t.Errorf("%s lacks the required %s", what, k)
		}
	}
}

// TestSessionIDRule: mcp.session.id is on a 2025-11-25 session's spans
// and never under 2026-07-28 (the conventions: MUST NOT).
func TestSessionIDRule(t *testing.T) {
	from := readConventions(t).rules["no-session-id-from"][0]
	for _, tc := range []struct {
		revision string
		want     bool
	}{{"2025-11-25", true}, {"2025-06-18", true}, {from, false}, {"", false}} {
		req := runtimeRequest(tc.revision)
		if got := sessionIDApplies(req); got != tc.want {
			t.Errorf("revision %q: session id applies %v, want %v", tc.revision, got, tc.want)
		}
	}
}
