// Package prompts shows //mcp:prompt: a prompt's arguments are the fields
// of its input struct, and it returns one user message or its own
// messages.
package prompts

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// Style is how long a summary is.
type Style string

const (
	Brief    Style = "brief"
	Detailed Style = "detailed"
)

// SummarizeInput are the arguments of summarize.
type SummarizeInput struct {
	// ID is the note to summarize.
	ID string `json:"id"`
	// Style is how long the summary is.
	Style Style `json:"style,omitempty"`
	// Words bounds the summary's length.
	Words int `json:"words,omitempty"`
}

// Summarize asks the model to summarize a note.
//
//mcp:prompt title="Summarize a note" complete=NoteIDs
func Summarize(ctx context.Context, in SummarizeInput) (string, error) {
	return fmt.Sprintf("Summarize note %s (%s, %d words).", in.ID, in.Style, in.Words), nil
}

// NoteIDs proposes note ids.
func NoteIDs(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	return runtime.CompletePrefix([]string{"n1", "n2"}, req.Value), nil
}

// Greeting starts a conversation: a user message and the assistant's
// first answer.
//
//mcp:prompt hello
func Greeting() (*runtime.PromptResult, error) {
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		{Role: "user", Content: runtime.TextContent{Text: "Hello"}},
		{Role: "assistant", Content: runtime.TextContent{Text: "Hello! What shall we do?"}},
	}}, nil
}
