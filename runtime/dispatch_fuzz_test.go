package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// Run the target with
//
//	go test ./runtime -run XXX -fuzz FuzzDispatch -fuzztime 5m -parallel 1

// perRequestMeta is the _meta of a request of revision 2026-07-28 whose
// client can answer forms.
const perRequestMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/logLevel":"debug"}`

// wellFormedParams are params of every method the server answers, with
// every member the runtime reads: the seeds of FuzzDispatch put a value of
// every other JSON type in the place of each of them.
var wellFormedParams = map[string][]string{
	wire.MethodInitialize: {`{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{}},"roots":{},"extensions":{"x":{}}},"clientInfo":{"name":"f","version":"1"}}`},
	wire.MethodPing:       {`{}`},
	wire.MethodDiscover:   {`{"_meta":` + perRequestMeta + `}`},
	wire.MethodSetLevel:   {`{"level":"info"}`},
	wire.MethodToolsList:  {`{"cursor":"c"}`, `{"_meta":` + perRequestMeta + `}`},
	wire.MethodToolsCall: {
		`{"name":"echo","arguments":{"n":1,"s":"a","do":"log"},"_meta":{"progressToken":1}}`,
		`{"name":"ask","arguments":{},"requestState":"x","inputResponses":{"elicitation-1":{"action":"accept","content":{"n":1}}},"_meta":` + perRequestMeta + `}`,
	},
	wire.MethodResourcesList: {`{"cursor":""}`},
	wire.MethodTemplatesList: {`{}`},
	wire.MethodResourcesRead: {`{"uri":"app://x/1","_meta":{"k":1}}`, `{"uri":"app://ask","inputResponses":{"elicitation-1":{"action":"decline"}},"_meta":` + perRequestMeta + `}`},
	wire.MethodSubscribe:     {`{"uri":"app://x/1"}`},
	wire.MethodUnsubscribe:   {`{"uri":"app://x/1"}`},
	wire.MethodPromptsList:   {`{}`},
	wire.MethodPromptsGet:    {`{"name":"p","arguments":{"a":"x"},"_meta":{}}`},
	wire.MethodComplete: {
		`{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"x"},"context":{"arguments":{"a":"y"}}}`,
		`{"ref":{"type":"ref/resource","uri":"app://x/{id}"},"argument":{"name":"id","value":"1"}}`,
	},
	wire.MethodListen:       {`{"notifications":{"toolsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["app://x/1"]},"_meta":` + perRequestMeta + `}`},
	wire.NotifyCancelled:    {`{"requestId":1,"reason":"r"}`},
	wire.NotifyRootsChanged: {`{}`},
}

// wrongShapes are values of every JSON type, put in the place of each
// member of well-formed params.
var wrongShapes = []string{`[1]`, `"x"`, `7`, `true`, `null`, `{}`, `[]`, `{"a":[1]}`, `-1e400`}

// shapeSeeds returns params with each value of params (the whole, and
// every member at any depth) replaced by each wrong shape, and each
// member left out.
func shapeSeeds(params string) []string {
	v, err := jsonvalue.Parse([]byte(params))
	if err != nil {
		panic(err)
	}
	var out []string
	var walk func(v jsonvalue.Value, member [2]int)
	walk = func(v jsonvalue.Value, member [2]int) {
		start, end := v.Span()
		for _, w := range wrongShapes {
			out = append(out, params[:start]+w+params[end:])
		}
		if member[1] > 0 { // leave the member out, with its comma if any
			s, e := member[0], member[1]
			switch {
			case e < len(params) && params[e] == ',':
				e++
			case s > 0 && params[s-1] == ',':
				s--
			}
			out = append(out, params[:s]+params[e:])
		}
		for name, m := range v.Members() {
			ms, me := m.Span()
			ns := ms - len(name) - 3 // "name":
			walk(m, [2]int{ns, me})
		}
		for _, e := range v.Elems() {
			walk(e, [2]int{})
		}
	}
	walk(v, [2]int{})
	return out
}

// FuzzDispatch sends every method the server answers, with params of
// every shape, through a Conn. Every request must get exactly one
// response, a well-formed one with its id, and nothing may panic: a
// member of the wrong JSON type is invalid params, never a crash.
func FuzzDispatch(f *testing.F) {
	for method, list := range wellFormedParams {
		for _, params := range list {
			f.Add(method, params, true)
			for _, seed := range shapeSeeds(params) {
				f.Add(method, seed, true)
			}
		}
	}
	f.Add("no/such/method", `{}`, true)
	f.Add(wire.MethodToolsCall, `{"name":"echo"}`, false)
	srv := newDispatchFuzzServer()
	f.Fuzz(func(t *testing.T, method, params string, request bool) {
		if !json.Valid([]byte(params)) {
			params = `{"raw":` + string(mustMarshal(params)) + `}`
		}
		methodJSON := mustMarshal(method)
		msg := `{"jsonrpc":"2.0","method":` + string(methodJSON) + `,"params":` + params + `}`
		if request {
			msg = `{"jsonrpc":"2.0","id":1,"method":` + string(methodJSON) + `,"params":` + params + `}`
		}
		conn := srv.NewConn(func([]byte) {})
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		resp := conn.Handle(ctx, []byte(msg))
		checkDispatchResponse(t, msg, resp, request)
	})
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// checkDispatchResponse checks the answer to msg: none for a
// notification (or a message that cannot be told from one); for a
// request, one JSON-RPC response with its id and a result or an error of
// a code the runtime uses.
func checkDispatchResponse(t *testing.T, msg string, resp []byte, request bool) {
	t.Helper()
	if !request {
		if resp != nil && !json.Valid(resp) {
			t.Fatalf("%s: an answer that is not JSON: %s", msg, resp)
		}
		return
	}
	var m struct {
		JSONRPC string           `json:"jsonrpc"`
		ID      json.RawMessage  `json:"id"`
		Result  *json.RawMessage `json:"result"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp, &m); err != nil {
		t.Fatalf("%s: the answer %q is not a JSON-RPC response: %v", msg, resp, err)
	}
	if m.JSONRPC != "2.0" || (m.Result == nil) == (m.Error == nil) {
		t.Fatalf("%s: malformed response %s", msg, resp)
	}
	if string(m.ID) != "1" && !(string(m.ID) == "null" && m.Error != nil) {
		t.Fatalf("%s: response with id %s", msg, m.ID)
	}
	known := []int{-32700, -32600, -32601, -32602, -32603, wire.ResourceNotFound, wire.MissingCapability, wire.UnsupportedVersion, wire.URLElicitationRequired}
	if m.Error != nil && (!slices.Contains(known, m.Error.Code) || m.Error.Message == "") {
		t.Fatalf("%s: error %d %q", msg, m.Error.Code, m.Error.Message)
	}
}

// newDispatchFuzzServer has one of everything the methods reach: tools
// (the stdio fuzz server's), a resource and a template that complete, a
// prompt that completes.
func newDispatchFuzzServer() *Server {
	srv := newFuzzServer()
	srv.Logger = slog.New(slog.DiscardHandler)
	complete := func(ctx context.Context, req *CompleteRequest) (*CompleteResult, error) {
		return CompletePrefix([]string{"1", "2", "x"}, req.Value), nil
	}
	read := func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error) {
		return TextResource(req.URI, "text/plain", fmt.Sprint(req.Vars)), nil
	}
	srv.AddResource(&Resource{URI: "app://x/1", Name: "one", Handler: read})
	srv.AddResource(&Resource{URI: "app://ask", Name: "ask", Handler: func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error) {
		if _, _, err := Elicit(ctx, "?", `{"type":"object","properties":{}}`); err != nil {
			return nil, err
		}
		return read(ctx, req)
	}})
	srv.AddResourceTemplate(&ResourceTemplate{URITemplate: "app://x/{id}", Name: "x", Handler: read, Complete: complete})
	srv.AddPrompt(&Prompt{Name: "p", Arguments: []PromptArgument{{Name: "a"}}, Complete: complete,
		Handler: func(ctx context.Context, req *PromptRequest) (*PromptResult, error) {
			return UserPrompt(req.Arguments["a"]), nil
		}})
	return srv
}
