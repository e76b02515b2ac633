package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

// catalog is a server with resources, a template, a lister, prompts and
// completions, all written by hand.
func catalog() *runtime.Server {
	s := &runtime.Server{Name: "catalog", Logger: linepeer.DiscardLogger()}
	s.AddResource(&runtime.Resource{
		URI: "app://status", Name: "status", MIMEType: "text/plain",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
			return runtime.TextResource(req.URI, "text/plain", "all good"), nil
		},
	})
	s.AddResource(&runtime.Resource{
		URI: "app://logo", Name: "logo", MIMEType: "image/png",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
			return &runtime.ResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, MIMEType: "image/png", Blob: []byte{1, 2, 3}}}}, nil
		},
	})
	s.AddResourceTemplate(&runtime.ResourceTemplate{
		URITemplate: "notes://{id}", Name: "note",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
			if req.Vars["id"] == "missing" {
				return nil, &runtime.ResourceNotFoundError{URI: req.URI}
			}
			if req.Vars["id"] == "boom" {
				panic("boom")
			}
			return runtime.TextResource(req.URI, "text/plain", "note "+req.Vars["id"]), nil
		},
		Complete: func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
			return runtime.CompletePrefix([]string{"N1", "N2", "X9"}, req.Value), nil
		},
	})
	s.ListResources = func(ctx context.Context, cursor string) ([]*runtime.Resource, string, error) {
		switch cursor {
		case "":
			return []*runtime.Resource{{URI: "notes://N1", Name: "N1"}}, "page2", nil
		case "page2":
			return []*runtime.Resource{{URI: "notes://N2", Name: "N2"}}, "", nil
		}
		return nil, "", errors.New("bad cursor")
	}
	s.AddPrompt(&runtime.Prompt{
		Name: "summarize", Description: "Summarize a note.",
		Arguments: []runtime.PromptArgument{{Name: "id", Required: true}, {Name: "style"}},
		Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.PromptResult, error) {
			return runtime.UserPrompt(fmt.Sprintf("Summarize note %s (%s).", req.Arguments["id"], req.Arguments["style"])), nil
		},
		Complete: func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
			if req.Argument == "style" {
				many := make([]string, 150)
				for i := range many {
					many[i] = fmt.Sprintf("s%03d", i)
				}
				return runtime.CompletePrefix(many, req.Value), nil
			}
			return runtime.CompletePrefix([]string{"N1", "N2"}, req.Value+req.Context["style"]), nil
		},
	})
	return s
}

func handle(s *runtime.Server, msg string) string {
	return string(s.NewConn(nil).Handle(context.Background(), []byte(msg)))
}

func TestResourcesAndPrompts(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := catalog()
	for _, c := range []struct{ req, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
			`"capabilities":{"logging":{},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"completions":{}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`,
			`{"resources":[{"uri":"app://status","name":"status","mimeType":"text/plain"},{"uri":"app://logo","name":"logo","mimeType":"image/png"},{"uri":"notes://N1","name":"N1"}],"nextCursor":"page2"}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"cursor":"page2"}}`,
			`{"resources":[{"uri":"notes://N2","name":"N2"}]}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}`,
			`{"resourceTemplates":[{"uriTemplate":"notes://{id}","name":"note"}]}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"app://status"}}`,
			`{"contents":[{"uri":"app://status","mimeType":"text/plain","text":"all good"}]}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"app://logo"}}`,
			`{"contents":[{"uri":"app://logo","mimeType":"image/png","blob":"AQID"}]}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://N%20%31"}}`,
			`{"contents":[{"uri":"notes://N%20%31","mimeType":"text/plain","text":"note N 1"}]}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"nope://x"}}`,
			`"error":{"code":-32002,"message":"resource not found: nope://x","data":{"uri":"nope://x"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://a/b"}}`,
			`"error":{"code":-32002,"message":"resource not found: notes://a/b","data":{"uri":"notes://a/b"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://missing"}}`,
			`"error":{"code":-32002,"message":"resource not found: notes://missing","data":{"uri":"notes://missing"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://boom"}}`,
			`"error":{"code":-32603,"message":"reading notes://boom: resource notes://boom failed: internal error (incident `},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}}`,
			`"error":{"code":-32602,"message":"invalid params: \"uri\" must be a string"}`},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`,
			`{"prompts":[{"name":"summarize","description":"Summarize a note.","arguments":[{"name":"id","required":true},{"name":"style"}]}]}`},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"summarize","arguments":{"id":"N1","style":"short"}}}`,
			`{"messages":[{"role":"user","content":{"type":"text","text":"Summarize note N1 (short)."}}]}`},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"summarize","arguments":{"style":"short"}}}`,
			`"error":{"code":-32602,"message":"invalid params: invalid arguments for prompt summarize:\n- id: is required"}`},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"summarize","arguments":{"id":1}}}`,
			`"error":{"code":-32602,"message":"invalid params: arguments \"id\" must be a string, not number"}`},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"nope"}}`,
			`"error":{"code":-32602,"message":"invalid params: unknown prompt \"nope\"; available prompts: summarize"}`},
		{`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"notes://{id}"},"argument":{"name":"id","value":"N"}}}`,
			`{"completion":{"values":["N1","N2"],"total":2}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"style","value":"s"}}}`,
			`"total":150,"hasMore":true}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"id","value":""},"context":{"arguments":{"style":"N2"}}}}`,
			`{"completion":{"values":["N2"],"total":1}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"id","value":""}}}`,
			`"error":{"code":-32602,"message":"invalid params: unknown prompt \"nope\"; available prompts: summarize"}`},
		{`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"other://{x}"},"argument":{"name":"x","value":""}}}`,
			`"error":{"code":-32602,"message":"invalid params: unknown resource template \"other://{x}\"; available resource templates: notes://{id}"}`},
	} {
		if got := handle(s, c.req); !strings.Contains(got, c.want) {
			t.Errorf("%s\n got %s\nwant %s", c.req, got, c.want)
		}
	}
	if got := handle(s, `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"style","value":"s"}}}`); strings.Count(got, `"s`) != 100 {
		t.Errorf("completion values not cut at 100: %d", strings.Count(got, `"s`))
	}
}

// TestListChangedAndUpdates: clients that initialized learn of changes to
// the lists, and a subscriber of a resource of its updates; a client that
// did not subscribe hears nothing of them.
func TestListChangedAndUpdates(t *testing.T) {
	s := catalog()
	p := serveStdio(t, s)
	p.Send(mcptest.Initialize(0, "2025-11-25"))
	reply(p, "0")
	var other []string
	conn := s.NewConn(func(msg []byte) { other = append(other, string(msg)) })
	defer conn.Close()
	conn.Handle(context.Background(), []byte(mcptest.Initialize(0, "2025-11-25")))

	p.Send(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"app://status"}}`)
	reply(p, "1")
	s.ResourceUpdated("app://status")
	s.ResourceUpdated("app://logo")
	s.AddTool(&runtime.Tool{Name: "late", Handler: func(context.Context, *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return runtime.TextResult("late"), nil
	}})
	s.RemovePrompt("summarize")
	for _, want := range []string{
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"app://status"}}`,
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`,
	} {
		p.Take(want, func(l []byte) bool { return string(l) == want })
	}
	p.Send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	reply(p, "2")
	if left := p.Pending(); len(left) > 0 {
		t.Errorf("unexpected notifications: %q", left)
	}
	if strings.Join(other, "\n") != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`+"\n"+`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}` {
		t.Errorf("the other client got %q", other)
	}
}
