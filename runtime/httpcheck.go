package runtime

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// checkHostAndOrigin returns why the request's Host or Origin header is
// not allowed, or "" if both are.
func (h *httpHandler) checkHostAndOrigin(r *http.Request) string {
	local := false
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); ok {
		local = a.IP.IsLoopback()
	}
	switch {
	case len(h.opts.AllowedHosts) > 0:
		if !slices.ContainsFunc(h.opts.AllowedHosts, func(allowed string) bool { return hostMatches(r.Host, allowed) }) {
			return fmt.Sprintf("host %q is not allowed", r.Host)
		}
	case local:
		if !isLoopbackHost(r.Host) {
			return fmt.Sprintf("host %q is not allowed: this server only answers requests for localhost", r.Host)
		}
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https"):
		// not an origin ("null", a path): refused below
	case strings.EqualFold(u.Host, r.Host):
		return "" // same origin
	case slices.ContainsFunc(h.opts.AllowedOrigins, func(allowed string) bool {
		return strings.EqualFold(strings.TrimSuffix(allowed, "/"), u.Scheme+"://"+u.Host)
	}):
		return ""
	case local && isLoopbackHost(u.Host):
		return ""
	}
	return fmt.Sprintf("origin %q is not allowed", origin)
}

// hostMatches reports whether the Host header host matches allowed, a host
// name (any port) or host:port.
func hostMatches(host, allowed string) bool {
	if strings.EqualFold(host, allowed) {
		return true
	}
	name, _, err := net.SplitHostPort(host)
	return err == nil && strings.EqualFold(name, strings.Trim(allowed, "[]"))
}

// isLoopbackHost reports whether host (a Host header or the host of a URL,
// with or without a port) names the local machine.
func isLoopbackHost(host string) bool {
	if name, _, err := net.SplitHostPort(host); err == nil {
		host = name
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// accepts reports whether the Accept header values admit JSON and SSE.
func accepts(values []string) (jsonOK, sseOK bool) {
	if len(values) == 1 && values[0] == "application/json, text/event-stream" {
		return true, true // what the SDKs send, read without splitting
	}
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(mt)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				sseOK = true
			case "*/*":
				jsonOK, sseOK = true, true
			}
		}
	}
	return jsonOK, sseOK
}

// checkRouting returns how the request's routing headers disagree with
// m, or "" if they agree. Proxies route and filter on Mcp-Method, Mcp-Name
// and Mcp-Param-*, so whatever revision the request is of, a header that
// is present must agree with the body: what acts must be what they saw.
// Under the per-request revision (required) they must also be there:
// Mcp-Method always, Mcp-Name for a method that names what it acts on,
// Mcp-Param-{name} for each argument the tool marks x-mcp-header.
func (h *httpHandler) checkRouting(r *http.Request, m *jsonrpc.Message, res resolved, required bool) string {
	method, present, err := wire.OneHeader(r.Header, wire.HeaderMethod)
	switch {
	case err != nil:
		return err.Error()
	case !present && required:
		return "missing " + wire.HeaderMethod + " header; it must repeat the request's method"
	case present && method != m.Method:
		return fmt.Sprintf("%s header %q does not match the method %q", wire.HeaderMethod, method, m.Method)
	}
	meth := res.method
	if meth == nil || meth.nameParam == "" {
		return ""
	}
	// Compared and looked up in place: a request without the header, or
	// whose header agrees, copies no name.
	body := m.Params.Get(meth.nameParam)
	name, present, err := wire.OneHeader(r.Header, wire.HeaderName)
	switch {
	case err != nil:
		return err.Error()
	case !present && required:
		return "missing " + wire.HeaderName + " header; it must repeat params." + meth.nameParam
	case present && !body.Is(name):
		return fmt.Sprintf("%s header value %q does not match params.%s %q", wire.HeaderName, name, meth.nameParam, body.Str())
	}
	t := res.tool
	if t == nil || len(t.headers) == 0 {
		return ""
	}
	return wire.CheckParamHeaders(t.headers, m.Params.Get("arguments"), r.Header, required)
}
