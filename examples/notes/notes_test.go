package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves a new store over a pipe and connects the official Go
// SDK's client to it; changed receives the URIs of list changes ("") and
// of updated resources.
func connect(t *testing.T) (*mcp.ClientSession, chan string) {
	t.Helper()
	return connectStore(t, NewStore())
}

// connectStore is connect for a given store.
func connectStore(t *testing.T, store *Store) (*mcp.ClientSession, chan string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := newServer(store)
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

// code returns the JSON-RPC error code of err, or 0.
func code(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
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

// TestResourcesAndPrompt drives the notes' resource template, listing,
// prompt and completions with the official Go SDK's client, bad input
// included.
func TestResourcesAndPrompt(t *testing.T) {
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

	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "notes://{id}" {
		t.Fatalf("templates: %+v, %v", templates, err)
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI+" "+r.Title)
	}
	if !slices.Equal(uris, []string{"notes://N1 Buy milk", "notes://N2 Call Ada"}) {
		t.Errorf("resources: %q", uris)
	}

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://N2"})
	if err != nil {
		t.Fatal(err)
	}
	if c := read.Contents[0]; c.MIMEType != "text/markdown" || !strings.HasPrefix(c.Text, "# Call Ada\n\nPriority: 2\nTags: home\n") {
		t.Errorf("read: %+v", c)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://N9"}); code(err) != -32002 {
		t.Errorf("read of a missing note: %v, want -32002", err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "todo://N1"}); code(err) != -32002 {
		t.Errorf("read of a URI no template matches: %v, want -32002", err)
	}

	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": "N1", "style": "detailed"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 2 {
		t.Fatalf("prompt: %+v", got.Messages)
	}
	if r, ok := got.Messages[0].Content.(*mcp.EmbeddedResource); !ok || r.Resource.URI != "notes://N1" || !strings.Contains(r.Resource.Text, "Buy milk") {
		t.Errorf("embedded note: %#v", got.Messages[0].Content)
	}
	if tc, ok := got.Messages[1].Content.(*mcp.TextContent); !ok || !strings.Contains(tc.Text, "short paragraph") {
		t.Errorf("instruction: %#v", got.Messages[1].Content)
	}
	for _, bad := range []map[string]string{{"style": "brief"}, {"id": "N1", "style": "long"}} {
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: bad}); code(err) != -32602 || !strings.Contains(err.Error(), "id") && !strings.Contains(err.Error(), "style") {
			t.Errorf("prompt with %v: %v, want -32602 naming the argument", bad, err)
		}
	}

	complete := func(ref *mcp.CompleteReference, arg, value string) ([]string, error) {
		res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
		if err != nil {
			return nil, err
		}
		return res.Completion.Values, nil
	}
	prompt := &mcp.CompleteReference{Type: "ref/prompt", Name: "summarize_note"}
	if v, err := complete(prompt, "style", "d"); err != nil || !slices.Equal(v, []string{"detailed"}) {
		t.Errorf("complete style: %q, %v", v, err)
	}
	if v, err := complete(prompt, "id", "N"); err != nil || !slices.Equal(v, []string{"N2", "N1"}) {
		t.Errorf("complete id: %q, %v", v, err)
	}
	if v, err := complete(&mcp.CompleteReference{Type: "ref/resource", URI: "notes://{id}"}, "id", "N1"); err != nil || !slices.Equal(v, []string{"N1"}) {
		t.Errorf("complete template id: %q, %v", v, err)
	}
	if _, err := complete(&mcp.CompleteReference{Type: "ref/prompt", Name: "nope"}, "id", ""); code(err) != -32602 {
		t.Errorf("complete for an unknown prompt: %v, want -32602", err)
	}
	if _, err := complete(&mcp.CompleteReference{Type: "ref/resource", URI: "nope://{x}"}, "x", ""); code(err) != -32602 {
		t.Errorf("complete for an unknown template: %v, want -32602", err)
	}

	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_note", Arguments: map[string]any{"id": "N1"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, changed, "notes://N1")
}

// TestNotesFolder checks that a store opened on a folder keeps its notes
// there across restarts, and that a note that cannot be saved is not
// kept in memory either.
func TestNotesFolder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := connectStore(t, store)
	for _, title := range []string{"Buy milk", "Call Ada"} {
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"title": title}}); err != nil || res.IsError {
			t.Fatalf("add_note: %+v, %v", res, err)
		}
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_note", Arguments: map[string]any{"id": "N1"}}); err != nil || res.IsError {
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
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"title": "Lost"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "saving the notes") {
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
