package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// TestExportOfficialClient: the official Go SDK's client knows no tasks,
// so it does not declare the extension, and export_notes answers it as a
// plain call, under 2025-11-25 and 2026-07-28 alike.
func TestExportOfficialClient(t *testing.T) {
	ctx := context.Background()
	store := NewStore()
	store.exportDelay = 10 * time.Millisecond
	srv := newServer(store)
	store.AddNote(ctx, AddNoteInput{Title: "Buy milk"})
	hs := httptest.NewServer(srv.HTTPHandler(nil))
	defer hs.Close()
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		client := mcp.NewClient(&mcp.Implementation{Name: "notes-test", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: rev})
		if err != nil {
			t.Fatalf("%s: connect: %v", rev, err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "export_notes", Arguments: map[string]any{"format": "markdown"}})
		if err != nil || res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "# Buy milk") {
			t.Errorf("%s: export_notes: %+v %v", rev, res, err)
		}
		if got := cs.InitializeResult().ProtocolVersion; got != rev {
			t.Errorf("negotiated %s, want %s", got, rev)
		}
		cs.Close()
	}
}

// TestExportTask: for a client that declares the tasks extension,
// export_notes is a task: the client polls it to the document, or cancels
// it, and the export stops.
func TestExportTask(t *testing.T) {
	ctx := context.Background()
	store := NewStore()
	store.exportDelay = 200 * time.Millisecond
	srv := newServer(store)
	store.AddNote(ctx, AddNoteInput{Title: "Call Ada"})
	conn := srv.NewConn(nil)
	defer conn.Close()
	request := func(method, params string) map[string]any {
		msg := mcptest.PerRequest(1, method, params, mcptest.TasksCaps)
		var m struct{ Result map[string]any }
		if err := json.Unmarshal(conn.Handle(ctx, []byte(msg)), &m); err != nil || m.Result == nil {
			t.Fatalf("%s: %v %v", method, m, err)
		}
		return m.Result
	}
	poll := func(id string) map[string]any {
		for {
			got := request("tasks/get", fmt.Sprintf(`"taskId":%q`, id))
			if got["status"] != "working" {
				return got
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	created := request("tools/call", `"name":"export_notes","arguments":{"format":"json"}`)
	if created["resultType"] != "task" || created["pollIntervalMs"] != float64(1000) || created["ttlMs"] != float64(3600000) {
		t.Fatalf("export_notes: %v", created)
	}
	done := poll(created["taskId"].(string))
	if done["status"] != "completed" || !strings.Contains(fmt.Sprint(done["result"]), `"title": "Call Ada"`) {
		t.Errorf("the export: %v", done)
	}
	id := request("tools/call", `"name":"export_notes","arguments":{}`)["taskId"].(string)
	request("tasks/cancel", fmt.Sprintf(`"taskId":%q`, id))
	if got := poll(id); got["status"] != "cancelled" {
		t.Errorf("a cancelled export: %v", got)
	}
}
