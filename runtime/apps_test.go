package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/mcptest"
)

// appsCaps are the capabilities of a client that renders MCP Apps.
const appsCaps = `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`

// boardHTML is the view's HTML, one result that every read returns.
var boardHTML = runtime.TextResource("ui://board/view", runtime.AppMIMEType, "<!doctype html><p>board</p>")

// board is a server with an MCP App: a tool that shows the board's view,
// a tool only the view calls, the view itself, and a plain tool with an
// icon.
func board() *runtime.Server {
	s := &runtime.Server{Name: "board", Logger: linepeer.DiscardLogger()}
	text := func(s string) runtime.ToolHandler {
		return func(context.Context, *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return runtime.TextResult(s), nil
		}
	}
	s.AddTool(&runtime.Tool{Name: "show_board", UI: &runtime.UIToolMeta{ResourceURI: "ui://board/view"}, Handler: text("3 tickets")})
	s.AddTool(&runtime.Tool{Name: "move_ticket", UI: &runtime.UIToolMeta{ResourceURI: "ui://board/view", Visibility: []string{"app"}}, Handler: text("moved")})
	s.AddTool(&runtime.Tool{Name: "ping", Icons: []runtime.Icon{{Src: "https://example.com/ping.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "dark"}}, Handler: text("pong")})
	s.AddResource(&runtime.Resource{
		URI: "ui://board/view", Name: "board_view", MIMEType: runtime.AppMIMEType,
		UI: &runtime.UIResourceMeta{
			CSP:           &runtime.UIResourceCSP{ConnectDomains: []string{"https://api.example.com"}, ResourceDomains: []string{"https://*.cdn.example.com"}},
			Permissions:   &runtime.UIResourcePermissions{ClipboardWrite: true},
			PrefersBorder: new(true),
		},
		Handler: func(context.Context, *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
			return boardHTML, nil
		},
	})
	return s
}

// listedTools returns the tools of a tools/list answer by name, as JSON.
func listedTools(t *testing.T, resp string) map[string]string {
	t.Helper()
	var res struct{ Tools []json.RawMessage }
	mcptest.Result(t, resp, &res)
	out := map[string]string{}
	for _, raw := range res.Tools {
		var tool struct{ Name string }
		json.Unmarshal(raw, &tool)
		out[tool.Name] = string(raw)
	}
	return out
}

// TestAppsListing: a client that declares the extension with the app MIME
// type, at a session revision or per request, sees each tool's link in
// both _meta keys and the tool only the view calls; a client that does
// not (no extension, or the extension without the app type) sees the
// tools without their links and not the view's own tool, whose calls it
// is refused. The lists of each kind of client are cached apart.
func TestAppsListing(t *testing.T) {
	s := board()
	session := func(caps string) *runtime.Conn {
		c := s.NewConn(nil)
		init := mcptest.Request(0, "initialize", fmt.Sprintf(`"protocolVersion":"2025-11-25","capabilities":%s,"clientInfo":{"name":"t","version":"1"}`, caps))
		var res struct{ Capabilities map[string]json.RawMessage }
		mcptest.Result(t, string(c.Handle(context.Background(), []byte(init))), &res)
		if got := string(res.Capabilities["extensions"]); got != `{"io.modelcontextprotocol/ui":{}}` {
			t.Errorf("the server's extensions = %s, want the apps extension", got)
		}
		return c
	}
	do := func(c *runtime.Conn, msg string) string { return string(c.Handle(context.Background(), []byte(msg))) }
	const link = `"_meta":{"ui":{"resourceUri":"ui://board/view"},"ui/resourceUri":"ui://board/view"}`
	const appLink = `"_meta":{"ui":{"resourceUri":"ui://board/view","visibility":["app"]},"ui/resourceUri":"ui://board/view"}`
	const icons = `"icons":[{"src":"https://example.com/ping.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}]`
	plain, apps, textOnly := session(`{}`), session(appsCaps), session(`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html"]}}}`)
	for range 2 { // the second round reads the cached lists
		for _, c := range []struct {
			name string
			list string
			apps bool
		}{
			{"no extension", do(plain, mcptest.Request(1, "tools/list", "")), false},
			{"renders apps", do(apps, mcptest.Request(1, "tools/list", "")), true},
			{"another MIME type", do(textOnly, mcptest.Request(1, "tools/list", "")), false},
			{"per request, no extension", handle(s, mcptest.PerRequest(1, "tools/list", "", `{}`)), false},
			{"per request, renders apps", handle(s, mcptest.PerRequest(1, "tools/list", "", appsCaps)), true},
		} {
			tools := listedTools(t, c.list)
			if !strings.Contains(tools["ping"], icons) {
				t.Errorf("%s: ping = %s, want %s", c.name, tools["ping"], icons)
			}
			if got := strings.Contains(tools["show_board"], link); got != c.apps {
				t.Errorf("%s: show_board = %s; link shown %v, want %v", c.name, tools["show_board"], got, c.apps)
			}
			if strings.Contains(tools["show_board"], "ui/resourceUri") != c.apps {
				t.Errorf("%s: show_board's flat key shown %v, want %v", c.name, !c.apps, c.apps)
			}
			move, listed := tools["move_ticket"]
			if listed != c.apps || c.apps && !strings.Contains(move, appLink) {
				t.Errorf("%s: move_ticket listed %v (%s), want %v with %s", c.name, listed, move, c.apps, appLink)
			}
		}
	}
	if got, want := do(apps, mcptest.Call(2, "move_ticket", "")), `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"moved"}]}}`; got != want {
		t.Errorf("a client that renders apps calls move_ticket: %s, want %s", got, want)
	}
	for _, resp := range []string{do(plain, mcptest.Call(2, "move_ticket", "")), handle(s, mcptest.PerRequest(2, "tools/call", `"name":"move_ticket"`, `{}`))} {
		if code, _ := mcptest.Error(t, resp); code != -32602 || !strings.Contains(resp, "called only by MCP Apps") {
			t.Errorf("a client that does not render apps calls move_ticket: %s, want -32602 saying it is for apps", resp)
		}
	}
	if got, want := do(plain, mcptest.Call(3, "show_board", "")), `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"3 tickets"}]}}`; got != want {
		t.Errorf("a client that does not render apps calls show_board: %s, want its text result %s", got, want)
	}
}

// TestAppResource: the view's _meta.ui is listed and sent with the content
// that resources/read returns, without changing the result the handler
// shares between reads; a content with a UI of its own keeps it.
func TestAppResource(t *testing.T) {
	s := board()
	const ui = `"_meta":{"ui":{"csp":{"connectDomains":["https://api.example.com"],"resourceDomains":["https://*.cdn.example.com"]},"permissions":{"clipboardWrite":{}},"prefersBorder":true}}`
	if list := handle(s, mcptest.Request(1, "resources/list", "")); !strings.Contains(list, `"mimeType":"text/html;profile=mcp-app",`+ui+`}`) {
		t.Errorf("resources/list = %s, want the view with %s", list, ui)
	}
	for range 2 {
		read := handle(s, mcptest.Request(2, "resources/read", `"uri":"ui://board/view"`))
		want := `{"jsonrpc":"2.0","id":2,"result":{"contents":[{"uri":"ui://board/view","mimeType":"text/html;profile=mcp-app","text":"<!doctype html><p>board</p>",` + ui + `}]}}`
		if read != want {
			t.Errorf("resources/read = %s\nwant %s", read, want)
		}
	}
	if boardHTML.Contents[0].UI != nil {
		t.Error("reading the view changed the result its handler shares")
	}

	own := &runtime.UIResourceMeta{Domain: "abc.example.com"}
	s.AddResource(&runtime.Resource{
		URI: "ui://board/own", Name: "own", MIMEType: runtime.AppMIMEType, UI: &runtime.UIResourceMeta{PrefersBorder: new(false)},
		Handler: func(_ context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
			return &runtime.ResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, MIMEType: runtime.AppMIMEType, Text: "<p>", UI: own}}}, nil
		},
	})
	if read := handle(s, mcptest.Request(3, "resources/read", `"uri":"ui://board/own"`)); !strings.Contains(read, `"_meta":{"ui":{"domain":"abc.example.com"}}`) {
		t.Errorf("resources/read of a content with its own UI = %s", read)
	}
}

// TestAppMistakes: a link or a view that no client could use is refused
// when it is added, with the reason.
func TestAppMistakes(t *testing.T) {
	handler := func(context.Context, *runtime.ToolRequest) (*runtime.ToolResult, error) { return nil, nil }
	read := func(context.Context, *runtime.ResourceRequest) (*runtime.ResourceResult, error) { return nil, nil }
	for _, c := range []struct {
		name string
		add  func(s *runtime.Server)
		want string
	}{
		{"link to https", func(s *runtime.Server) {
			s.AddTool(&runtime.Tool{Name: "t", UI: &runtime.UIToolMeta{ResourceURI: "https://example.com/view"}, Handler: handler})
		}, `UI.ResourceURI "https://example.com/view" must be a ui:// URI`},
		{"visibility user", func(s *runtime.Server) {
			s.AddTool(&runtime.Tool{Name: "t", UI: &runtime.UIToolMeta{ResourceURI: "ui://v", Visibility: []string{"user"}}, Handler: handler})
		}, `UI.Visibility "user": want "model" or "app"`},
		{"empty visibility", func(s *runtime.Server) {
			s.AddTool(&runtime.Tool{Name: "t", UI: &runtime.UIToolMeta{ResourceURI: "ui://v", Visibility: []string{}}, Handler: handler})
		}, "UI.Visibility is empty"},
		{"view not ui://", func(s *runtime.Server) {
			s.AddResource(&runtime.Resource{URI: "app://v", Name: "v", MIMEType: runtime.AppMIMEType, UI: &runtime.UIResourceMeta{}, Handler: read})
		}, "its URI must be a ui:// URI"},
		{"view of type text/html", func(s *runtime.Server) {
			s.AddResource(&runtime.Resource{URI: "ui://v", Name: "v", MIMEType: "text/html", UI: &runtime.UIResourceMeta{}, Handler: read})
		}, `its MIME type must be text/html;profile=mcp-app, not "text/html"`},
		{"CSP entry with a path", func(s *runtime.Server) {
			s.AddResource(&runtime.Resource{URI: "ui://v", Name: "v", MIMEType: runtime.AppMIMEType, UI: &runtime.UIResourceMeta{CSP: &runtime.UIResourceCSP{FrameDomains: []string{"https://x.example.com/embed"}}}, Handler: read})
		}, `"https://x.example.com/embed" is not an origin`},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("panic %v, want one that says %s", r, c.want)
				}
			}()
			c.add(&runtime.Server{})
		})
	}
}

// TestAppsOverHTTP: over Streamable HTTP with sessions, the session keeps
// what initialize declared; without them, a request of a session revision
// comes from a client whose initialize the server did not keep, and is
// answered as one that renders apps (the links, and the view's own tool).
func TestAppsOverHTTP(t *testing.T) {
	post := func(url, session, body string) (string, string) {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(data)), "event: message\ndata: ")), resp.Header.Get("Mcp-Session-Id")
	}
	initialize := func(caps string) string {
		return mcptest.Request(0, "initialize", fmt.Sprintf(`"protocolVersion":"2025-11-25","capabilities":%s,"clientInfo":{"name":"t","version":"1"}`, caps))
	}
	for _, c := range []struct {
		name     string
		sessions bool
		caps     string
		apps     bool
	}{
		{"session, renders apps", true, appsCaps, true},
		{"session, no extension", true, `{}`, false},
		{"stateless", false, `{}`, true},
	} {
		ts := httptest.NewServer(board().HTTPHandler(&runtime.HTTPOptions{Sessions: c.sessions}))
		_, session := post(ts.URL, "", initialize(c.caps))
		list, _ := post(ts.URL, session, mcptest.Request(1, "tools/list", ""))
		tools := listedTools(t, list)
		if _, listed := tools["move_ticket"]; listed != c.apps || strings.Contains(tools["show_board"], "ui/resourceUri") != c.apps {
			t.Errorf("%s: tools/list = %s; want the links and move_ticket %v", c.name, list, c.apps)
		}
		ts.Close()
	}
}
