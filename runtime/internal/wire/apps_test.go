package wire

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// TestCheckOrigin: what an MCP App's CSP may name is an origin, and
// nothing a host would paste into its Content-Security-Policy header that
// says more (a path, a keyword, a second source, a directive).
func TestCheckOrigin(t *testing.T) {
	for _, ok := range []string{
		"https://api.example.com", "wss://realtime.example.com", "http://localhost:8080", "https://*.cdn.example.com",
		"http://127.0.0.1:9", "https://[::1]:443", "ws://a-b.example",
	} {
		if err := CheckOrigin(ok); err != nil {
			t.Errorf("CheckOrigin(%q) = %v, want nil", ok, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"api.example.com", "write scheme://host"},
		{"'self'", "write scheme://host"},
		{"*", "write scheme://host"},
		{"data:", "write scheme://host"},
		{"ftp://example.com", "the scheme must be"},
		{"https://example.com/", `it has "/" after the host`},
		{"https://example.com/api", `(write https://example.com)`},
		{"https://example.com; script-src *", `it has "; script-src *" after the host`},
		{"https://example.com https://evil.example", `it has " https://evil.example" after the host`},
		{"https://user@example.com", `it has "@example.com" after the host`},
		{"https://example.com:", "nothing but :port"},
		{"https://example.com:99999", "nothing but :port"},
		{"https://exa_mple.com", "is not a host name"},
		{"https://*", "is not a host name"},
		{"https://", "is not a host name"},
		{"https://-a.example.com", "is not a host name"},
	} {
		err := CheckOrigin(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckOrigin(%q) = %v, want an error that says %s", c.in, err, c.want)
		}
	}
}

// TestParseClientCapsApps: a client renders apps only when it declares
// the extension with the app MIME type among its mimeTypes.
func TestParseClientCapsApps(t *testing.T) {
	for caps, want := range map[string]bool{
		`{}`: false,
		`{"extensions":{"io.modelcontextprotocol/ui":{}}}`:                                                false,
		`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html"]}}}`:                       false,
		`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":"text/html;profile=mcp-app"}}}`:         false,
		`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`:       true,
		`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["x/y","text/html;profile=mcp-app"]}}}`: true,
		`{"extensions":{"io.modelcontextprotocol/tasks":{"mimeTypes":["text/html;profile=mcp-app"]}}}`:    false,
	} {
		v, err := jsonvalue.Parse([]byte(caps))
		if err != nil {
			t.Fatal(err)
		}
		if got := ParseClientCaps(v).Apps; got != want {
			t.Errorf("ParseClientCaps(%s).Apps = %v, want %v", caps, got, want)
		}
	}
}
