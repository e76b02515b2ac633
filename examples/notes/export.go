package main

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Exporting is the work that takes long: a client that can runs it as a
// task (io.modelcontextprotocol/tasks), polls it, and may cancel it; any
// other gets the document when it is done, as from any tool.

// Format is the format of an export.
type Format string

const (
	Markdown Format = "markdown"
	JSON     Format = "json"
)

// ExportInput says how to export the notes.
type ExportInput struct {
	Format Format `json:"format,omitempty"` // The document's format; markdown when left out.
}

// exportDelay is how long an export takes: it stands for the slow system
// the notes would be exported to.
const exportDelay = 3 * time.Second

//docs:begin task

// ExportNotes writes every note into one document, Markdown or JSON. It
// takes a few seconds: a client that declares the tasks extension gets a
// task, and polls it for the document.
//
//mcp:tool readOnly task=optional pollInterval=1s ttl=1h scopes=notes:read
func (s *Store) ExportNotes(ctx context.Context, in ExportInput) (string, error) {
	s.mu.Lock()
	notes := append([]Note(nil), s.notes...)
	delay := s.exportDelay
	s.mu.Unlock()
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if in.Format == JSON {
		b, err := json.MarshalIndent(notes, "", "  ")
		return string(b), err
	}
	var b strings.Builder
	b.WriteString("# Notes\n")
	for _, n := range notes {
		b.WriteString("\n")
		b.WriteString(markdown(n))
	}
	return b.String(), nil
}

//docs:end task
