// Package jaegertest starts a real trace backend, Jaeger, for tests: in
// memory, on free loopback ports, receiving OTLP over HTTP and gRPC, and
// reads traces back through its query API.
//
// The binary comes from $MCPGEN_JAEGER, or from the cache folder that
// .ci/install-jaeger.sh builds it into. Without it a test is skipped,
// unless $MCPGEN_REQUIRE_JAEGER is set (CI sets it): then it fails.
//
// It is test support only, in the root module so that the nested modules
// (otel) can import it: an internal package is visible to every import
// path under the module path's root, whichever module holds the
// importer.
package jaegertest

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/proctest"
)

// Version is the Jaeger version the tests are pinned to (the module's v1
// tag of the Jaeger v2 binary); .ci/install-jaeger.sh builds it.
const Version = "v1.76.0"

// binary is the Jaeger binary .ci/install-jaeger.sh builds into the
// cache; $MCPGEN_JAEGER overrides it. Without one a test is skipped,
// unless $MCPGEN_REQUIRE_JAEGER is set: then it fails.
var binary = proctest.Binary{
	Name:    "Jaeger",
	Env:     "MCPGEN_JAEGER",
	Require: "MCPGEN_REQUIRE_JAEGER",
	Cached:  filepath.Join("jaeger-"+Version, "jaeger"),
	Install: "run .ci/install-jaeger.sh or set MCPGEN_JAEGER to test against a real trace backend",
}

// A Server is a running Jaeger.
type Server struct {
	otlpHTTP, otlpGRPC, query string
	client                    *http.Client
}

// OTLPHTTP is the URL of the OTLP/HTTP receiver, for
// OTEL_EXPORTER_OTLP_ENDPOINT with OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf.
func (s *Server) OTLPHTTP() string { return s.otlpHTTP }

// OTLPGRPC is the URL of the OTLP/gRPC receiver (http://host:port), for
// OTEL_EXPORTER_OTLP_ENDPOINT with OTEL_EXPORTER_OTLP_PROTOCOL=grpc.
func (s *Server) OTLPGRPC() string { return s.otlpGRPC }

// startTimeout bounds how long Start waits for Jaeger to answer.
const startTimeout = 60 * time.Second

// config is Jaeger's configuration (an OpenTelemetry Collector's): OTLP
// in, in-memory storage, the query API, nothing else listening, no
// telemetry of its own.
const config = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 10000
  jaeger_query:
    enable_tracing: false
    storage:
      traces: mem
    http:
      endpoint: %s
    grpc:
      endpoint: %s
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: %s
      http:
        endpoint: %s
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

// Start runs a Jaeger for the test on free loopback ports, waits until
// its query API answers, and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := binary.Path(t)
	queryHTTP, queryGRPC, otlpGRPC, otlpHTTP := proctest.FreePort(t), proctest.FreePort(t), proctest.FreePort(t), proctest.FreePort(t)
	s := &Server{
		otlpHTTP: "http://" + otlpHTTP,
		otlpGRPC: "http://" + otlpGRPC,
		query:    "http://" + queryHTTP,
		client:   &http.Client{Timeout: 30 * time.Second},
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, config, queryHTTP, queryGRPC, otlpGRPC, otlpHTTP), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", cfg)
	// Nothing of the caller's OpenTelemetry environment: Jaeger must not
	// send its own telemetry anywhere.
	cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	proc := proctest.Start(t, "jaegertest", cmd)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	ready := func(ctx context.Context) bool {
		return proctest.HTTPStatus(ctx, s.client, s.query+"/api/v3/services") != 0 &&
			proctest.HTTPStatus(ctx, s.client, s.otlpHTTP+"/v1/traces") != 0
	}
	if err := proc.WaitReady(ctx, ready); err != nil {
		t.Fatalf("jaegertest: Jaeger is not ready: %s", proc.Explain(err))
	}
	return s
}

// A Span is a span as Jaeger stored it.
type Span struct {
	Service      string // the resource's service.name
	Name         string
	Kind         string // "SERVER", "CLIENT", "INTERNAL", …
	TraceID      string // hex
	SpanID       string // hex
	ParentSpanID string // hex; "" for a root
	Attributes   map[string]string
	StatusCode   string // "OK", "ERROR", or "" for unset
	StatusMsg    string
	Links        []string // the span ids linked to
}

// Trace reads the trace traceID (hex) back, waiting until it has at
// least n spans (exporters send in batches, Jaeger stores asynchronously)
// or the timeout passes, which fails the test.
func (s *Server) Trace(t testing.TB, traceID string, n int) []Span {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var spans []Span
	var err error
	for {
		spans, err = s.trace(traceID)
		if err == nil && len(spans) >= n {
			return spans
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaegertest: trace %s: %d spans, want %d (%v)", traceID, len(spans), n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Traces returns the ids of the traces that have a span of service, in
// the last hour.
func (s *Server) Traces(t testing.TB, service string) []string {
	t.Helper()
	now := time.Now()
	u := s.query + "/api/v3/traces?query.service_name=" + service +
		"&query.start_time_min=" + now.Add(-time.Hour).UTC().Format(time.RFC3339Nano) +
		"&query.start_time_max=" + now.Add(time.Minute).UTC().Format(time.RFC3339Nano) +
		"&query.num_traces=1000"
	var body traceResponse
	if err := s.get(u, &body); err != nil {
		t.Fatalf("jaegertest: traces of %s: %v", service, err)
	}
	seen := map[string]bool{}
	var ids []string
	for _, sp := range body.spans() {
		if !seen[sp.TraceID] {
			seen[sp.TraceID] = true
			ids = append(ids, sp.TraceID)
		}
	}
	return ids
}

func (s *Server) trace(traceID string) ([]Span, error) {
	var body traceResponse
	if err := s.get(s.query+"/api/v3/traces/"+traceID, &body); err != nil {
		return nil, err
	}
	return body.spans(), nil
}

// errNotFound is a trace Jaeger does not have (yet).
var errNotFound = errors.New("not found")

func (s *Server) get(u string, v any) error {
	res, err := s.client.Get(u)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return err
	}
	switch {
	case res.StatusCode == http.StatusNotFound:
		return errNotFound
	case res.StatusCode != http.StatusOK:
		return fmt.Errorf("GET %s: %s: %.300s", u, res.Status, b)
	}
	return json.Unmarshal(b, v)
}

// traceResponse is the query API's answer, OTLP's JSON encoding.
type traceResponse struct {
	Result struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []keyValue `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Spans []struct {
					TraceID      string          `json:"traceId"`
					SpanID       string          `json:"spanId"`
					ParentSpanID string          `json:"parentSpanId"`
					Name         string          `json:"name"`
					Kind         json.RawMessage `json:"kind"`
					Attributes   []keyValue      `json:"attributes"`
					Status       struct {
						Code    json.RawMessage `json:"code"`
						Message string          `json:"message"`
					} `json:"status"`
					Links []struct {
						SpanID string `json:"spanId"`
					} `json:"links"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	} `json:"result"`
}

type keyValue struct {
	Key   string `json:"key"`
	Value map[string]json.RawMessage
}

// str is the value as a string: a string's text, a number's digits.
func (kv keyValue) str() string {
	for _, v := range kv.Value {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		return string(v)
	}
	return ""
}

func (r *traceResponse) spans() []Span {
	var out []Span
	for _, rs := range r.Result.ResourceSpans {
		service := ""
		for _, a := range rs.Resource.Attributes {
			if a.Key == "service.name" {
				service = a.str()
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				s := Span{
					Service:      service,
					Name:         sp.Name,
					Kind:         enumName(sp.Kind, "SPAN_KIND_", []string{"UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER"}),
					TraceID:      hexID(sp.TraceID),
					SpanID:       hexID(sp.SpanID),
					ParentSpanID: hexID(sp.ParentSpanID),
					Attributes:   map[string]string{},
					StatusCode:   enumName(sp.Status.Code, "STATUS_CODE_", []string{"", "OK", "ERROR"}),
					StatusMsg:    sp.Status.Message,
				}
				if s.StatusCode == "UNSET" {
					s.StatusCode = ""
				}
				for _, a := range sp.Attributes {
					if strings.HasPrefix(a.Key, "@jaeger@") {
						continue // Jaeger's notes on the span (clock skew), not the span's
					}
					s.Attributes[a.Key] = a.str()
				}
				for _, l := range sp.Links {
					s.Links = append(s.Links, hexID(l.SpanID))
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// Tree renders spans as the tree their parents make, one span a line:
// its service, name and kind, then its attributes in key order. A span
// whose parent is not among them is a root.
func Tree(spans []Span) string {
	ids := map[string]bool{}
	for _, s := range spans {
		ids[s.SpanID] = true
	}
	children := map[string][]Span{}
	for _, s := range spans {
		p := s.ParentSpanID
		if !ids[p] {
			p = ""
		}
		children[p] = append(children[p], s)
	}
	var b strings.Builder
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		kids := children[parent]
		slices.SortFunc(kids, func(a, b Span) int { return strings.Compare(a.Name, b.Name) })
		for _, s := range kids {
			fmt.Fprintf(&b, "%s%s: %s [%s]", strings.Repeat("  ", depth), s.Service, s.Name, strings.ToLower(s.Kind))
			if s.StatusCode != "" {
				fmt.Fprintf(&b, " status=%s", s.StatusCode)
				if s.StatusMsg != "" {
					fmt.Fprintf(&b, " %q", s.StatusMsg)
				}
			}
			keys := slices.Sorted(maps.Keys(s.Attributes))
			for _, k := range keys {
				fmt.Fprintf(&b, " %s=%s", k, s.Attributes[k])
			}
			b.WriteByte('\n')
			walk(s.SpanID, depth+1)
		}
	}
	walk("", 0)
	return b.String()
}

// enumName reads an OTLP enum written as its number or its name.
func enumName(raw json.RawMessage, prefix string, names []string) string {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return strings.TrimPrefix(name, prefix)
	}
	var n int
	if json.Unmarshal(raw, &n) == nil && n >= 0 && n < len(names) {
		return names[n]
	}
	return ""
}

// hexID returns an id in lowercase hex. OTLP's JSON encoding writes ids
// in hex; protobuf's JSON mapping, which a gateway may use, in base64.
func hexID(id string) string {
	if _, err := hex.DecodeString(id); err == nil && (len(id) == 16 || len(id) == 32) {
		return strings.ToLower(id)
	}
	if b, err := base64.StdEncoding.DecodeString(id); err == nil {
		return hex.EncodeToString(b)
	}
	return id
}
