// Package scopes covers scopes= on every directive that takes it: the
// OAuth scopes a token must hold, over Streamable HTTP with authorization.
package scopes

import "context"

// NoteInput names a note.
type NoteInput struct {
	ID string `json:"id"` // The note's id.
}

// DeleteNote deletes a note.
//
//mcp:tool destructive scopes=notes:write
func DeleteNote(ctx context.Context, in NoteInput) error { return nil }

// FindNotes finds notes.
//
//mcp:tool readOnly scopes="notes:read search"
func FindNotes(ctx context.Context, in NoteInput) (string, error) { return "", nil }

// Note is one note.
//
//mcp:resource notes://{id} scopes=notes:read
func Note(ctx context.Context, in NoteInput) (string, error) { return "", nil }

// Index lists the notes.
//
//mcp:resource notes://index scopes=notes:read,notes:list
func Index(ctx context.Context) (string, error) { return "", nil }

// Summarize summarizes a note.
//
//mcp:prompt scopes=notes:read
func Summarize(ctx context.Context, in NoteInput) (string, error) { return "", nil }
