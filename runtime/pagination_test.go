package runtime_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

// pagedServer has n tools t0…, n prompts p0… and the given page size.
func pagedServer(n, pageSize int) *runtime.Server {
	s := &runtime.Server{Name: "paged", PageSize: pageSize, Logger: linepeer.DiscardLogger()}
	for i := range n {
		s.AddTool(&runtime.Tool{Name: fmt.Sprintf("t%d", i), Handler: func(context.Context, *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return runtime.TextResult("ok"), nil
		}})
		s.AddPrompt(&runtime.Prompt{Name: fmt.Sprintf("p%d", i), Handler: func(context.Context, *runtime.PromptRequest) (*runtime.PromptResult, error) {
			return runtime.UserPrompt("hi"), nil
		}})
	}
	return s
}

// listAll pages through method (tools/list or prompts/list) as a client
// does, and returns the names in order and the cursors it was given.
func listAll(t *testing.T, s *runtime.Server, method, member string) (names, cursors []string) {
	t.Helper()
	cursor := ""
	for range 100 {
		params := ""
		if cursor != "" {
			params = fmt.Sprintf(`"cursor":%q`, cursor)
		}
		var page struct {
			Tools, Prompts []struct{ Name string }
			NextCursor     *string
		}
		mcptest.Result(t, handle(s, mcptest.Request(1, method, params)), &page)
		for _, it := range append(page.Tools, page.Prompts...) {
			names = append(names, it.Name)
		}
		if page.NextCursor == nil {
			return names, cursors
		}
		cursor = *page.NextCursor
		cursors = append(cursors, cursor)
	}
	t.Fatalf("%s did not end after 100 pages", method)
	return nil, nil
}

// TestPagination: with a page size, tools/list and prompts/list give
// pages of at most that many, whose cursors lead through every item once,
// in order; the cursors are the same on every call and on another server
// with the same items (a replica), and they are opaque (no name shows).
// Without a page size, one page and no cursor.
func TestPagination(t *testing.T) {
	for _, tc := range []struct{ n, size, pages int }{{5, 2, 3}, {4, 2, 2}, {3, 0, 1}, {1, 1, 1}, {2, 5, 1}} {
		s := pagedServer(tc.n, tc.size)
		for _, m := range []struct{ method, member, prefix string }{{"tools/list", "tools", "t"}, {"prompts/list", "prompts", "p"}} {
			names, cursors := listAll(t, s, m.method, m.member)
			var want []string
			for i := range tc.n {
				want = append(want, fmt.Sprintf("%s%d", m.prefix, i))
			}
			if !slices.Equal(names, want) || len(cursors) != tc.pages-1 {
				t.Errorf("%d items, page size %d, %s: got %v in %d pages, want %v in %d", tc.n, tc.size, m.method, names, len(cursors)+1, want, tc.pages)
			}
			replica := pagedServer(tc.n, tc.size)
			_, again := listAll(t, replica, m.method, m.member)
			if !slices.Equal(cursors, again) {
				t.Errorf("%s: another server with the same items gave cursors %q, this one %q", m.method, again, cursors)
			}
			// A cursor of one replica is good on another (behind a load
			// balancer, each page may come from any).
			for i, c := range cursors {
				var page map[string]any
				mcptest.Result(t, handle(replica, mcptest.Request(1, m.method, fmt.Sprintf(`"cursor":%q`, c))), &page)
				if items := page[m.member].([]any); items[0].(map[string]any)["name"] != want[(i+1)*tc.size] {
					t.Errorf("%s: cursor %d on a replica: %v", m.method, i, page)
				}
			}
			for _, c := range cursors {
				if strings.Contains(c, m.prefix+"2") || strings.Contains(c, "list") {
					t.Errorf("%s: cursor %q is not opaque", m.method, c)
				}
			}
		}
	}
}

// TestPaginationBadCursor: a cursor this server did not make, one of
// another listing, one that names an item since removed, and one that is
// not a string are each invalid params that says which.
func TestPaginationBadCursor(t *testing.T) {
	s := pagedServer(5, 2)
	_, toolCursors := listAll(t, s, "tools/list", "tools")
	_, promptCursors := listAll(t, s, "prompts/list", "prompts")
	long := strings.Repeat("A", 5000)
	for _, tc := range []struct{ method, params, want string }{
		{"tools/list", `"cursor":"not a cursor"`, `cursor "not a cursor" is not one this server gave`},
		{"tools/list", `"cursor":"` + long + `"`, `cursor "` + long[:64] + `"… is not one this server gave`},
		{"tools/list", fmt.Sprintf(`"cursor":%q`, promptCursors[0]), `belongs to "prompts/list", not to tools/list`},
		{"prompts/list", fmt.Sprintf(`"cursor":%q`, toolCursors[0]), `belongs to "tools/list", not to prompts/list`},
		// What a cursor decodes to is the client's too: a listing or a
		// key of 100 kB is repeated up to 64 bytes.
		{"tools/list", `"cursor":"` + cursorOf("tools/list "+strings.Repeat("x", 100000), "a") + `"`, `belongs to "tools/list ` + strings.Repeat("x", 53) + `"…, not to tools/list`},
		{"tools/list", `"cursor":"` + cursorOf("tools/list", strings.Repeat("k", 100000)) + `"`, `resumes at tool "` + strings.Repeat("k", 64) + `"…, which`},
		{"tools/list", `"cursor":7`, `"cursor" must be a string`},
	} {
		resp := handle(s, mcptest.Request(1, tc.method, tc.params))
		if code, msg := errorMessage(t, resp); code != -32602 || !strings.Contains(msg, tc.want) {
			t.Errorf("%s %s: got %s, want -32602 saying %q", tc.method, tc.params[:min(len(tc.params), 40)], resp, tc.want)
		}
	}
	// The item the second page begins with is removed: its cursor says so.
	s.RemoveTool("t2")
	resp := handle(s, mcptest.Request(1, "tools/list", fmt.Sprintf(`"cursor":%q`, toolCursors[0])))
	if code, msg := errorMessage(t, resp); code != -32602 || !strings.Contains(msg, `resumes at tool "t2", which this server no longer has`) {
		t.Errorf("cursor of a removed tool: %s", resp)
	}
	// Another removed before it moves nothing: the page still begins there.
	resp = handle(s, mcptest.Request(1, "tools/list", fmt.Sprintf(`"cursor":%q`, toolCursors[1])))
	var page struct{ Tools []struct{ Name string } }
	mcptest.Result(t, resp, &page)
	if len(page.Tools) != 1 || page.Tools[0].Name != "t4" {
		t.Errorf("the last page after t2 was removed: %s", resp)
	}
}

// cursorOf makes a cursor as the server does (base64url of the listing, a
// NUL and the key), for cursors a client could forge.
func cursorOf(listing, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(listing + "\x00" + key))
}

// errorMessage returns the code and message of an error response.
func errorMessage(t *testing.T, resp string) (int, string) {
	t.Helper()
	var m struct {
		Error *struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(resp), &m); err != nil || m.Error == nil {
		t.Fatalf("not an error response: %s", resp)
	}
	return m.Error.Code, m.Error.Message
}

// TestPaginationHiddenTools: a page holds PageSize tools that the client
// is shown: one that only MCP App views call counts for a client that
// renders them, and for another is neither on a page nor named by a
// cursor (which a client could decode).
func TestPaginationHiddenTools(t *testing.T) {
	s := board() // show_board, move_ticket (views only), ping
	s.PageSize = 1
	for _, tc := range []struct {
		name string
		init string
		want []string
	}{
		{"renders apps", mcptest.Request(0, "initialize", `"protocolVersion":"2025-11-25","capabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}},"clientInfo":{"name":"t","version":"1"}`), []string{"show_board", "move_ticket", "ping"}},
		{"does not", mcptest.Initialize(0, "2025-11-25"), []string{"show_board", "ping"}},
	} {
		conn := s.NewConn(nil)
		conn.Handle(context.Background(), []byte(tc.init))
		var names []string
		cursor := ""
		for range 10 {
			params := ""
			if cursor != "" {
				params = fmt.Sprintf(`"cursor":%q`, cursor)
			}
			var page struct {
				Tools      []struct{ Name string }
				NextCursor string
			}
			mcptest.Result(t, string(conn.Handle(context.Background(), []byte(mcptest.Request(1, "tools/list", params)))), &page)
			if len(page.Tools) != 1 {
				t.Fatalf("%s: a page of %d tools, want 1", tc.name, len(page.Tools))
			}
			names = append(names, page.Tools[0].Name)
			if cursor = page.NextCursor; cursor == "" {
				break
			}
			if raw, _ := base64.RawURLEncoding.DecodeString(cursor); !slices.Contains(tc.want, strings.SplitN(string(raw), "\x00", 2)[1]) {
				t.Errorf("%s: a cursor names %q", tc.name, raw)
			}
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s: pages of %v, want %v", tc.name, names, tc.want)
		}
	}
}
