package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/runtimetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves a new store over a pipe and connects the official Go
// SDK's client to it; changed receives the URIs of list changes ("") and
// of updated resources.
func connect(t *testing.T) (*mcp.ClientSession, chan string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := newServer(NewStore())
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	changed := make(chan string, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "notes-test", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changed <- "" },
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			changed <- req.Params.URI
		},
	})
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return cs, changed
}

// code returns the JSON-RPC error code of err, as runtimetest's client
// returns it, or 0.
func code(err error) int {
	var pe *runtime.ProtocolError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return 0
}

func waitFor(t *testing.T, ch chan string, want string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got := <-ch:
			if got == want {
				return
			}
		case <-timeout:
			t.Fatalf("no notification for %q", want)
		}
	}
}

// TestNotifications: the official Go SDK's client sees the capabilities
// the notes declare, and is told when the list of notes changes and when
// a note it subscribed to does.
func TestNotifications(t *testing.T) {
	ctx := context.Background()
	cs, changed := connect(t)
	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil || !caps.Resources.ListChanged || !caps.Resources.Subscribe || caps.Prompts == nil || caps.Completions == nil {
		t.Errorf("capabilities: %+v", caps)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://N1"}); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"Buy milk", "Call Ada"} {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"title": title, "tags": []string{"home"}}}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, changed, "")
	waitFor(t, changed, "notes://N1")
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_note", Arguments: map[string]any{"id": "N1"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, changed, "notes://N1")
}

// revisions are the two forms of the protocol the notes are tested
// under: with a session (initialize first), and per request.
var revisions = []string{runtimetest.SessionRevision, runtimetest.RequestRevision}

// TestResourcesAndPrompt drives the notes' tools, resource template,
// listing (51 notes, two pages), prompt and completions in process with
// runtimetest's client, bad input included, under both revisions.
func TestResourcesAndPrompt(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			ctx := t.Context()
			c := runtimetest.NewClient(t, newServer(NewStore()), &runtimetest.Options{Revision: rev})
			for _, title := range []string{"Buy milk", "Call Ada"} {
				res, err := c.CallTool(ctx, "add_note", AddNoteInput{Title: title, Tags: []string{"home"}})
				var n Note
				if err != nil || runtimetest.Structured(res, &n) != nil || n.Title != title || n.Priority != Normal {
					t.Fatalf("add_note %s: %+v, %v", title, res, err)
				}
			}
			res, err := c.CallTool(ctx, "find_notes", FindNotesInput{Query: "ada"})
			var found FoundNotes
			if err != nil || runtimetest.Structured(res, &found) != nil || found.Total != 1 || found.Notes[0].ID != "N2" {
				t.Errorf("find_notes: %+v, %v", res, err)
			}
			res, err = c.CallTool(ctx, "add_note", map[string]any{"title": ""})
			if err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), "title: must be at least 1 character long") {
				t.Errorf("add_note without a title: %q, %v", runtimetest.Text(res), err)
			}

			templates, err := c.ListResourceTemplates(ctx)
			if err != nil || len(templates) != 1 || templates[0].URITemplate != "notes://{id}" || templates[0].MIMEType != "text/markdown" {
				t.Fatalf("templates: %+v, %v", templates, err)
			}
			list, err := c.ListResources(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, r := range list {
				uris = append(uris, r.URI+" "+r.Title)
			}
			if !slices.Equal(uris, []string{"notes://N1 Buy milk", "notes://N2 Call Ada"}) {
				t.Errorf("resources: %q", uris)
			}

			read, err := c.ReadResource(ctx, "notes://N2")
			if err != nil {
				t.Fatal(err)
			}
			if rc := read.Contents[0]; rc.MIMEType != "text/markdown" || !strings.HasPrefix(rc.Text, "# Call Ada\n\nPriority: 2\nTags: home\n") {
				t.Errorf("read: %+v", rc)
			}
			notFound := -32002
			if rev == runtimetest.RequestRevision {
				notFound = -32602
			}
			for _, uri := range []string{"notes://N9", "todo://N1"} {
				if _, err := c.ReadResource(ctx, uri); code(err) != notFound {
					t.Errorf("read of %s: %v, want %d", uri, err, notFound)
				}
			}

			got, err := c.GetPrompt(ctx, "summarize_note", map[string]string{"id": "N1", "style": "detailed"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Messages) != 2 {
				t.Fatalf("prompt: %+v", got.Messages)
			}
			if r, ok := got.Messages[0].Content.(runtime.EmbeddedResource); !ok || r.Resource.URI != "notes://N1" || !strings.Contains(r.Resource.Text, "Buy milk") {
				t.Errorf("embedded note: %#v", got.Messages[0].Content)
			}
			if tc, ok := got.Messages[1].Content.(runtime.TextContent); !ok || !strings.Contains(tc.Text, "short paragraph") {
				t.Errorf("instruction: %#v", got.Messages[1].Content)
			}
			for _, bad := range []map[string]string{{"style": "brief"}, {"id": "N1", "style": "long"}} {
				if _, err := c.GetPrompt(ctx, "summarize_note", bad); code(err) != -32602 || !strings.Contains(err.Error(), "id") && !strings.Contains(err.Error(), "style") {
					t.Errorf("prompt with %v: %v, want -32602 naming the argument", bad, err)
				}
			}

			values := func(res *runtime.CompleteResult, err error) ([]string, error) {
				if err != nil {
					return nil, err
				}
				return res.Values, nil
			}
			if v, err := values(c.CompletePrompt(ctx, "summarize_note", &runtime.CompleteRequest{Argument: "style", Value: "d"})); err != nil || !slices.Equal(v, []string{"detailed"}) {
				t.Errorf("complete style: %q, %v", v, err)
			}
			if v, err := values(c.CompletePrompt(ctx, "summarize_note", &runtime.CompleteRequest{Argument: "id", Value: "N"})); err != nil || !slices.Equal(v, []string{"N2", "N1"}) {
				t.Errorf("complete id: %q, %v", v, err)
			}
			if v, err := values(c.CompleteResource(ctx, "notes://{id}", &runtime.CompleteRequest{Argument: "id", Value: "N1"})); err != nil || !slices.Equal(v, []string{"N1"}) {
				t.Errorf("complete template id: %q, %v", v, err)
			}
			if _, err := c.CompletePrompt(ctx, "nope", &runtime.CompleteRequest{Argument: "id"}); code(err) != -32602 {
				t.Errorf("complete for an unknown prompt: %v, want -32602", err)
			}
			if _, err := c.CompleteResource(ctx, "nope://{x}", &runtime.CompleteRequest{Argument: "x"}); code(err) != -32602 {
				t.Errorf("complete for an unknown template: %v, want -32602", err)
			}

			// Past listPage notes, the list comes in pages, which the
			// client reads to the end.
			for i := 3; i <= listPage+1; i++ {
				if res, err := c.CallTool(ctx, "add_note", AddNoteInput{Title: fmt.Sprint("Note ", i)}); err != nil || res.IsError {
					t.Fatalf("add_note %d: %+v, %v", i, res, err)
				}
			}
			if list, err := c.ListResources(ctx); err != nil || len(list) != listPage+1 || list[listPage].URI != fmt.Sprintf("notes://N%d", listPage+1) {
				t.Errorf("%d notes listed: %d, %v", listPage+1, len(list), err)
			}
		})
	}
}

// TestNotesFolder checks that a store opened on a folder keeps its notes
// there across restarts, and that a note that cannot be saved is not
// kept in memory either.
func TestNotesFolder(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	store, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := runtimetest.NewClient(t, newServer(store), nil)
	for _, title := range []string{"Buy milk", "Call Ada"} {
		if res, err := c.CallTool(ctx, "add_note", AddNoteInput{Title: title}); err != nil || res.IsError {
			t.Fatalf("add_note: %+v, %v", res, err)
		}
	}
	if res, err := c.CallTool(ctx, "delete_note", DeleteNoteInput{ID: "N1"}); err != nil || res.IsError {
		t.Fatalf("delete_note: %+v, %v", res, err)
	}

	again, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.notes) != 1 || again.notes[0].ID != "N2" || again.notes[0].Title != "Call Ada" || again.next != 2 {
		t.Fatalf("reopened store: %+v, next %d", again.notes, again.next)
	}

	// A notes.json that cannot be replaced: the call fails, and the store
	// holds what the file holds.
	file := filepath.Join(dir, notesFile)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file, 0o777); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, "add_note", AddNoteInput{Title: "Lost"})
	if err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), "saving the notes") {
		t.Fatalf("add_note with an unwritable file: %+v, %v", res, err)
	}
	if len(store.notes) != 1 || store.next != 2 {
		t.Errorf("the store kept a note it could not save: %+v, next %d", store.notes, store.next)
	}

	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{plain, filepath.Join(dir, "nosuch")} {
		if _, err := OpenStore(bad); err == nil {
			t.Errorf("OpenStore(%s): no error", bad)
		}
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("{"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), notesFile) {
		t.Errorf("OpenStore of a broken notes.json: %v", err)
	}
}
