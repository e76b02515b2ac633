package wire

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// ExtUI names the MCP Apps extension (SEP-1865): a tool links an HTML
// view, a ui:// resource of type AppMIMEType, that a client which renders
// it shows in a sandboxed frame. A client declares it in its capabilities
// with the MIME types it renders; the server in its own.
const ExtUI = "io.modelcontextprotocol/ui"

// AppMIMEType is the MIME type of an MCP App's HTML, the one type of view
// the extension defines.
const AppMIMEType = "text/html;profile=mcp-app"

// The _meta keys of a tool's link to its view: the nested object of the
// extension, and the flat key that hosts written before it read.
const (
	MetaUI            = "ui"
	MetaUIResourceURI = "ui/resourceUri"
)

// rendersApps reports whether the settings a client declared for ExtUI
// name AppMIMEType among the types it renders (the extension's
// "mimeTypes", which it requires).
func rendersApps(settings jsonvalue.Value) bool {
	for _, v := range settings.Get("mimeTypes").Elems() {
		if v.Is(AppMIMEType) {
			return true
		}
	}
	return false
}

// CheckOrigin returns why s is not an origin that an MCP App's CSP may
// name (connectDomains, resourceDomains, frameDomains, baseUriDomains),
// or nil. An origin is a scheme (http, https, ws or wss), "://", a host
// and an optional port, and nothing else: no path, query, user or space.
// The host may begin with "*." for every subdomain, as the extension
// allows. A host interpolates these entries into a Content-Security-Policy
// header, so anything else could widen or break it.
func CheckOrigin(s string) error {
	scheme, rest, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		return fmt.Errorf("%q is not an origin: write scheme://host, such as https://api.example.com", s)
	case scheme != "https" && scheme != "http" && scheme != "wss" && scheme != "ws":
		return fmt.Errorf("%q is not an origin: the scheme must be https, http, wss or ws", s)
	}
	if i := strings.IndexFunc(rest, func(r rune) bool { return strings.ContainsRune("/?#@;,'\"\\", r) || r <= ' ' || r >= 0x7f }); i >= 0 {
		return fmt.Errorf("%q is not an origin: it has %q after the host; an origin has no path, query, user or second source (write %s://%s)", s, rest[i:], scheme, rest[:i])
	}
	host := rest
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.HasSuffix(rest, "]") {
		var port string
		host, port = rest[:i], rest[i+1:]
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '+' {
			return fmt.Errorf("%q is not an origin: after the host comes nothing but :port, a number from 1 to 65535", s)
		}
	}
	if !validOriginHost(host) {
		return fmt.Errorf("%q is not an origin: %q is not a host name, an IP address or *.name", s, host)
	}
	return nil
}

// validOriginHost reports whether h is a DNS name (letters, digits,
// hyphens, dots between labels), the same preceded by "*.", an IPv4
// address or an IPv6 address in brackets.
func validOriginHost(h string) bool {
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		in := h[1 : len(h)-1]
		return in != "" && strings.IndexFunc(in, func(r rune) bool {
			return !(r == ':' || r == '.' || '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F')
		}) < 0
	}
	h = strings.TrimPrefix(h, "*.")
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		if strings.IndexFunc(label, func(r rune) bool {
			return !(r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
		}) >= 0 {
			return false
		}
	}
	return true
}
