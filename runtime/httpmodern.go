package runtime

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// Streamable HTTP in the modern era (revision 2026-07-28): no sessions,
// and headers that repeat parts of the body so that proxies can route and
// filter without reading it. The server checks that they agree with the
// body, in the order the specification gives.

// Header names of the modern era.
const (
	headerMethod      = "Mcp-Method"
	headerName        = "Mcp-Name"
	headerParamPrefix = "Mcp-Param-"
)

// postModern answers a POST whose message belongs to the modern era (see
// modern.go): each request is served on its own, whatever session header
// it carries.
func (h *httpHandler) postModern(ctx context.Context, w http.ResponseWriter, r *http.Request, m *jsonrpc.Message, hold *heldRequest) {
	id := m.IDBytes()
	fail := func(status, code int, msg string) {
		h.srv.logger().Debug("mcp over http: request refused", "method", m.Method, "status", status, "reason", msg)
		writeJSON(w, status, jsonrpc.Error(id, code, msg))
	}
	if m.IsResponse() {
		fail(http.StatusBadRequest, jsonrpc.InvalidRequest, "invalid request: a client of revision "+modernVersion+" answers no request of the server's: send the answers with the request again, in inputResponses")
		return
	}
	if !m.IsRequest() {
		w.WriteHeader(http.StatusAccepted) // nothing to do: cancelling is closing the stream
		return
	}
	hv := r.Header.Get(headerProtocolVersion)
	if hv == "" {
		fail(http.StatusBadRequest, codeHeaderMismatch, "header mismatch: missing "+headerProtocolVersion+" header; a request of revision "+modernVersion+" names its version there and in _meta")
		return
	}
	mr, errResp := readModern(id, m.Params)
	if errResp != nil {
		writeJSON(w, http.StatusBadRequest, errResp)
		return
	}
	if hv != mr.version {
		fail(http.StatusBadRequest, codeHeaderMismatch, fmt.Sprintf("header mismatch: %s header %q does not match the _meta protocol version %q", headerProtocolVersion, hv, mr.version))
		return
	}
	if errResp := mr.checkVersion(id); errResp != nil {
		writeJSON(w, http.StatusBadRequest, errResp)
		return
	}
	if msg := h.checkHeaders(r, m); msg != "" {
		fail(http.StatusBadRequest, codeHeaderMismatch, "header mismatch: "+msg)
		return
	}

	ss := &session{srv: h.srv}
	c, errResp := ss.start(ctx, m, true)
	if errResp != nil {
		writeJSON(w, statusOf(errResp, id), errResp)
		return
	}
	rw := &httpResponder{w: w, r: r, log: h.srv.logger(), writeTimeout: h.opts.WriteTimeout}
	c.notify = rw.notify
	c.keepAlive = func() bool { return rw.comment("keep-alive") }
	c.holder = hold
	resp := ss.run(c)
	if resp == nil {
		resp = jsonrpc.Error(id, jsonrpc.RequestCancelled, "request cancelled")
	}
	rw.finishStatus(resp, statusOf(resp, id))
}

// checkHeaders returns how the request's Mcp-Method, Mcp-Name and
// Mcp-Param-* headers disagree with m, or "" if they agree.
func (h *httpHandler) checkHeaders(r *http.Request, m *jsonrpc.Message) string {
	switch method := r.Header.Get(headerMethod); {
	case method == "":
		return "missing " + headerMethod + " header; it must repeat the request's method"
	case method != m.Method:
		return fmt.Sprintf("%s header %q does not match the method %q", headerMethod, method, m.Method)
	}
	var nameParam string
	switch m.Method {
	case "tools/call", "prompts/get":
		nameParam = "name"
	case "resources/read":
		nameParam = "uri"
	default:
		return ""
	}
	var body string
	if m.Params.Exists() {
		if v := m.Params.Get(nameParam); v.Exists() && v.Kind() == jsonvalue.String {
			body = v.Str()
		}
	}
	values := r.Header.Values(headerName)
	if len(values) == 0 {
		return "missing " + headerName + " header; it must repeat params." + nameParam
	}
	name, ok := headerValue(values[0])
	switch {
	case len(values) > 1 || !ok:
		return fmt.Sprintf("%s header %q is not one valid value", headerName, values[0])
	case name != body:
		return fmt.Sprintf("%s header value %q does not match params.%s %q", headerName, name, nameParam, body)
	}
	if m.Method != "tools/call" {
		return ""
	}
	t := h.srv.tool(body)
	if t == nil || len(t.headers) == 0 {
		return ""
	}
	var args jsonvalue.Value
	if m.Params.Exists() {
		args = m.Params.Get("arguments")
	}
	return checkParamHeaders(t.headers, args, r.Header)
}

// statusOf is the HTTP status of resp, a response to the request id of
// the modern era: the specification fixes 404 for an unknown method and
// 400 for malformed requests and the errors of the modern era.
func statusOf(resp, id []byte) int {
	head := `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":`
	if !strings.HasPrefix(string(resp), head) {
		return http.StatusOK
	}
	rest := resp[len(head):]
	end := 0
	for end < len(rest) && (rest[end] == '-' || '0' <= rest[end] && rest[end] <= '9') {
		end++
	}
	code, _ := strconv.Atoi(string(rest[:end]))
	switch code {
	case jsonrpc.MethodNotFound:
		return http.StatusNotFound
	case jsonrpc.ParseError, jsonrpc.InvalidRequest, jsonrpc.InvalidParams,
		codeHeaderMismatch, codeMissingCapability, codeUnsupportedVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// A headerParam is a property of a tool's input that clients repeat in
// an Mcp-Param-{name} header (x-mcp-header in the input schema).
type headerParam struct {
	header string   // the header's name, without the prefix
	path   []string // the property's path from the root, through properties only
	typ    string   // "string", "integer" or "boolean"
}

// headerParams returns the x-mcp-header properties of an input schema,
// checking what the specification requires of them: a valid header name,
// unique within the schema whatever its case, on a string, integer or
// boolean property reached from the root through properties only.
func headerParams(inputSchema []byte) ([]headerParam, error) {
	root, err := jsonvalue.Parse(inputSchema)
	if err != nil {
		return nil, err
	}
	var out []headerParam
	var walk func(s jsonvalue.Value, path []string) error
	walk = func(s jsonvalue.Value, path []string) error {
		if s.Kind() != jsonvalue.Object {
			return nil
		}
		if hv := s.Get("x-mcp-header"); hv.Exists() {
			name := ""
			if hv.Kind() == jsonvalue.String {
				name = hv.Str()
			}
			at := "/" + strings.Join(path, "/")
			typ := s.Get("type")
			switch {
			case len(path) == 0:
				return fmt.Errorf("x-mcp-header on the root: it belongs on a property")
			case !isToken(name):
				return fmt.Errorf("x-mcp-header at %s: %s is not a valid header name", at, hv.Raw())
			case !typ.Exists() || typ.Kind() != jsonvalue.String || !(typ.Str() == "string" || typ.Str() == "integer" || typ.Str() == "boolean"):
				return fmt.Errorf("x-mcp-header at %s: the property must have type string, integer or boolean", at)
			}
			for _, p := range out {
				if strings.EqualFold(p.header, name) {
					return fmt.Errorf("x-mcp-header at %s: %q is already the header of /%s", at, name, strings.Join(p.path, "/"))
				}
			}
			out = append(out, headerParam{name, append([]string(nil), path...), typ.Str()})
		}
		props := s.Get("properties")
		if !props.Exists() || props.Kind() != jsonvalue.Object {
			return nil
		}
		for name, p := range props.Members() {
			if err := walk(p, append(path, strings.Clone(name))); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(root, nil)
}

// isToken reports whether s is an HTTP token (RFC 9110), as a header
// name must be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// checkParamHeaders returns how the Mcp-Param-* headers disagree with the
// arguments, or "" if they agree: a property that has a value needs its
// header, holding the same value; one that is absent or null needs none.
func checkParamHeaders(params []headerParam, args jsonvalue.Value, hdr http.Header) string {
	for _, p := range params {
		v := args
		for _, name := range p.path {
			if !v.Exists() || v.Kind() != jsonvalue.Object {
				v = jsonvalue.Value{}
				break
			}
			v = v.Get(name)
		}
		if !v.Exists() || v.Kind() == jsonvalue.Null {
			continue
		}
		header := headerParamPrefix + p.header
		values := hdr.Values(header)
		if len(values) == 0 {
			return "missing " + header + " header; it must repeat the argument /" + strings.Join(p.path, "/")
		}
		got, ok := headerValue(values[0])
		if len(values) > 1 || !ok {
			return fmt.Sprintf("%s header %q is not one valid value (plain visible ASCII, or =?base64?…?=)", header, values[0])
		}
		if !sameParam(p.typ, got, v) {
			return fmt.Sprintf("%s header value %q does not match the argument /%s, %s", header, got, strings.Join(p.path, "/"), v.Raw())
		}
	}
	return ""
}

// sameParam reports whether a header value equals an argument of type
// typ: integers compare as numbers, so that 42.0 equals 42.
func sameParam(typ, header string, v jsonvalue.Value) bool {
	switch {
	case v.Kind() == jsonvalue.String:
		return header == v.Str()
	case typ == "integer" && v.Kind() == jsonvalue.Number:
		a, err1 := strconv.ParseFloat(header, 64)
		b, err2 := strconv.ParseFloat(string(v.Raw()), 64)
		return err1 == nil && err2 == nil && a == b
	}
	return header == string(v.Raw())
}

// headerValue decodes an Mcp-Name or Mcp-Param-* value: "=?base64?…?="
// holds base64 of UTF-8 text; anything else is the value itself, which
// must then be visible ASCII. It reports false for a value that is
// neither.
func headerValue(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if len(v) >= len(prefix)+len(suffix) && strings.HasPrefix(v, prefix) && strings.HasSuffix(v, suffix) {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len(prefix) : len(v)-len(suffix)])
		if err != nil || !utf8.Valid(b) {
			return "", false
		}
		return string(b), true
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			return "", false
		}
	}
	return v, true
}
