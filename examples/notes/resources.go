package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// The notes as MCP resources (notes://N1, listed and read), a prompt that
// summarizes one, and completion of note ids.

// NoteRef names a note.
type NoteRef struct {
	// ID is the note's ID, such as N1.
	ID string `json:"id"`
}

// ReadNote is one note as Markdown: its title, priority, tags, due date
// and body.
//
//mcp:resource notes://{id} name=note mimeType=text/markdown complete=NoteIDs scopes=notes:read
func (s *Store) ReadNote(ctx context.Context, in NoteRef) (string, error) {
	n, ok := s.note(in.ID)
	if !ok {
		return "", &runtime.ResourceNotFoundError{URI: noteURI(in.ID)}
	}
	return markdown(n), nil
}

// listPage is how many notes one page of resources/list holds.
const listPage = 50

// ListNotes lists the stored notes as resources, a page at a time; the
// cursor is the index of the first note of the page. Server.ListResources
// is set to it.
func (s *Store) ListNotes(ctx context.Context, cursor string) ([]*runtime.Resource, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := 0
	if cursor != "" {
		var err error
		if start, err = strconv.Atoi(cursor); err != nil || start < 0 || start > len(s.notes) {
			return nil, "", fmt.Errorf("invalid cursor %q", cursor)
		}
	}
	end := min(start+listPage, len(s.notes))
	var page []*runtime.Resource
	for _, n := range s.notes[start:end] {
		page = append(page, &runtime.Resource{URI: noteURI(n.ID), Name: n.ID, Title: n.Title, MIMEType: "text/markdown"})
	}
	next := ""
	if end < len(s.notes) {
		next = strconv.Itoa(end)
	}
	return page, next, nil
}

// Style is how long a summary is.
type Style string

const (
	Brief    Style = "brief"
	Detailed Style = "detailed"
)

// SummarizeInput names the note to summarize.
type SummarizeInput struct {
	// ID is the note to summarize.
	ID string `json:"id"`
	// Style is how long the summary should be; brief when left out.
	Style Style `json:"style,omitempty"`
}

// SummarizeNote asks the model to summarize a note, which the prompt
// embeds.
//
//mcp:prompt summarize_note title="Summarize a note" complete=NoteIDs scopes=notes:read
func (s *Store) SummarizeNote(ctx context.Context, in SummarizeInput) (*runtime.PromptResult, error) {
	n, ok := s.note(in.ID)
	if !ok {
		return nil, fmt.Errorf("no note with ID %q", in.ID)
	}
	ask := "Summarize this note in one sentence."
	if in.Style == Detailed {
		ask = "Summarize this note in a short paragraph, keeping every date and name."
	}
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		{Role: "user", Content: runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: noteURI(n.ID), MIMEType: "text/markdown", Text: markdown(n)}}},
		{Role: "user", Content: runtime.TextContent{Text: ask}},
	}}, nil
}

// NoteIDs completes the id of a note: the IDs that start with what the
// user typed, most recent first.
func (s *Store) NoteIDs(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	if req.Argument != "id" {
		return &runtime.CompleteResult{}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.notes))
	for _, n := range slices.Backward(s.notes) {
		ids = append(ids, n.ID)
	}
	return runtime.CompletePrefix(ids, req.Value), nil
}

// note returns the note with the given ID.
func (s *Store) note(id string) (Note, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.notes, func(n Note) bool { return n.ID == id })
	if i < 0 {
		return Note{}, false
	}
	return s.notes[i], true
}

func noteURI(id string) string { return "notes://" + id }

// markdown renders a note.
func markdown(n Note) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\nPriority: %d\n", n.Title, n.Priority)
	if len(n.Tags) > 0 {
		fmt.Fprintf(&b, "Tags: %s\n", strings.Join(n.Tags, ", "))
	}
	if n.Due != nil {
		fmt.Fprintf(&b, "Due: %s\n", n.Due.Format("2006-01-02 15:04 MST"))
	}
	if n.Body != "" {
		fmt.Fprintf(&b, "\n%s\n", n.Body)
	}
	return b.String()
}
