package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/runtime"
)

// A tool is a Tool with what tools/list said of it.
type tool struct {
	Tool
	inputSchema, outputSchema json.RawMessage
	input, output             *jsonschema.Schema // compiled by the reference validator
	inputDoc                  any                // the input schema, decoded
	outputDoc                 any
}

// meta is the _meta of a 2026-07-28 request: no initialize, and a value
// result is sent as it is.
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func newHarness(srv *runtime.Server, tools []Tool, cfg *Config) (*harness, error) {
	h := &harness{conn: srv.NewConn(nil), cfg: cfg}
	h.rng = newRand(cfg.Seed)
	var list struct {
		Tools []struct {
			Name         string
			InputSchema  json.RawMessage
			OutputSchema json.RawMessage
		}
	}
	res, err := h.request(context.Background(), "tools/list", "")
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(res, &list); err != nil {
		return nil, fmt.Errorf("tools/list: %v", err)
	}
	byName := map[string]int{}
	for i, t := range list.Tools {
		byName[t.Name] = i
	}
	for _, t := range tools {
		i, ok := byName[t.Name]
		if !ok {
			return nil, fmt.Errorf("tools/list has no tool %s", t.Name)
		}
		lt := list.Tools[i]
		h.tools = append(h.tools, &tool{Tool: t, inputSchema: lt.InputSchema, outputSchema: lt.OutputSchema})
	}
	return h, nil
}

// request sends one request and returns its result, or the JSON-RPC
// error as an error.
func (h *harness) request(ctx context.Context, method, params string) (json.RawMessage, error) {
	h.id++
	if params != "" {
		params += ","
	}
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s%s}}`, h.id, method, params, meta)
	out := h.conn.Handle(ctx, []byte(req))
	var resp struct {
		Result json.RawMessage
		Error  *struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("%s: response %s: %v", method, out, err)
	}
	if resp.Error != nil {
		return nil, &rpcError{resp.Error.Code, resp.Error.Message}
	}
	return resp.Result, nil
}

type rpcError struct {
	code    int
	message string
}

func (e *rpcError) Error() string { return "JSON-RPC error " + strconv.Itoa(e.code) + ": " + e.message }

// A callResult is what a tools/call came to.
type callResult struct {
	ran        bool // the handler ran
	value      any  // what it received
	isError    bool
	text       string          // the error's text, or the text block
	structured json.RawMessage // structuredContent
	rpcErr     string          // a JSON-RPC error instead of a result
}

// call calls t with args.
func (h *harness) call(ctx context.Context, t *tool, args []byte) callResult {
	takeReceived()
	var params bytes.Buffer
	fmt.Fprintf(&params, `"name":%q,"arguments":`, t.Name)
	params.Write(args)
	res, err := h.request(ctx, "tools/call", params.String())
	v, ran := takeReceived()
	cr := callResult{ran: ran, value: v}
	if err != nil {
		cr.rpcErr = err.Error()
		return cr
	}
	var r struct {
		Content           []struct{ Text string }
		IsError           bool
		StructuredContent json.RawMessage
	}
	if err := json.Unmarshal(res, &r); err != nil {
		cr.rpcErr = "result " + string(res) + ": " + err.Error()
		return cr
	}
	cr.isError, cr.structured = r.IsError, r.StructuredContent
	if len(r.Content) > 0 {
		cr.text = r.Content[0].Text
	}
	return cr
}

// refusal is the runtime's reason for refusing arguments, "" if it did
// not; validation reports whether the validator refused them (else the
// decoder did, or the protocol layer).
func (cr *callResult) refusal() (msg string, validation bool) {
	switch {
	case cr.ran:
		return "", false
	case cr.rpcErr != "":
		return cr.rpcErr, false
	}
	return cr.text, strings.HasPrefix(cr.text, "invalid arguments for tool ")
}

// runtimePaths reads the paths a refusal names: "- path: message" lines
// of the validator, "invalid arguments: path: message" of the decoder.
func runtimePaths(msg string) [][]string {
	var out [][]string
	for line := range strings.SplitSeq(msg, "\n") {
		switch {
		case strings.HasPrefix(line, "- "):
			line = line[2:]
		case strings.HasPrefix(line, "invalid arguments: "):
			line = strings.TrimPrefix(line, "invalid arguments: ")
		default:
			continue
		}
		p, _, ok := strings.Cut(line, ": ")
		if !ok || p == "" || strings.HasPrefix(p, "json") {
			continue
		}
		out = append(out, parseRuntimePath(p))
	}
	return out
}

// parseRuntimePath reads the runtime's path notation, a.b["c d"][2], into
// tokens; the root is "(root)" or empty.
func parseRuntimePath(p string) []string {
	if p == "(root)" {
		return nil
	}
	var toks []string
	for p != "" {
		switch p[0] {
		case '.':
			p = p[1:]
		case '[':
			if strings.HasPrefix(p, `["`) {
				s, err := strconv.QuotedPrefix(p[1:])
				if err != nil {
					return append(toks, p)
				}
				u, _ := strconv.Unquote(s)
				toks = append(toks, u)
				p = strings.TrimPrefix(p[1+len(s):], "]")
				continue
			}
			i := strings.IndexByte(p, ']')
			if i < 0 {
				return append(toks, p)
			}
			toks = append(toks, p[1:i])
			p = p[i+1:]
		default:
			i := strings.IndexAny(p, ".[")
			if i < 0 {
				i = len(p)
			}
			toks = append(toks, p[:i])
			p = p[i:]
		}
	}
	return toks
}
