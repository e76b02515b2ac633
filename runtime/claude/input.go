package claude

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
)

// UserInput is one user turn with content blocks (text, images,
// documents), for Session.SendInput: the TypeScript SDK's SDKUserMessage,
// which its streamInput takes.
type UserInput struct {
	// Content is the turn's blocks; see TextBlock, ImageBlock,
	// DocumentBlock.
	Content []InputBlock
	// UUID identifies the turn (for RewindFiles, ResumeSessionAt); empty
	// lets SendInput choose one.
	UUID string
	// Priority says when the turn runs if one is running: "now" (it
	// interrupts), "next", or "later" (the default: after the queued
	// ones).
	Priority string
	// NoQuery appends the turn to the conversation without starting a
	// turn of the model; the next turn that does query takes it along.
	NoQuery bool
	// Verbatim delivers the text as written: no @file expansion, no slash
	// commands (Options.VerbatimPrompts does it for every turn).
	Verbatim bool
}

// An InputBlock is one content block of a user turn, as the Messages API
// takes it: "text", "image" or "document".
type InputBlock struct {
	Type string `json:"type"`
	// Text of a "text" block.
	Text string `json:"text,omitempty"`
	// Source of an "image" or "document" block.
	Source *BlockSource `json:"source,omitempty"`
	// Title and Context of a "document" block.
	Title   string `json:"title,omitempty"`
	Context string `json:"context,omitempty"`
}

// BlockSource is where an image's or a document's bytes are: inline
// ("base64", with MediaType and Data; "text", with Data as plain text) or
// at a URL ("url").
type BlockSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// TextBlock is a block of text.
func TextBlock(text string) InputBlock { return InputBlock{Type: "text", Text: text} }

// ImageBlock is an image of mediaType ("image/png", "image/jpeg",
// "image/gif", "image/webp"), sent inline.
func ImageBlock(mediaType string, data []byte) InputBlock {
	return InputBlock{Type: "image", Source: &BlockSource{Type: "base64", MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(data)}}
}

// DocumentBlock is a document of mediaType ("application/pdf"), sent
// inline, with a title the model sees.
func DocumentBlock(title, mediaType string, data []byte) InputBlock {
	return InputBlock{Type: "document", Title: title, Source: &BlockSource{Type: "base64", MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(data)}}
}

// TextDocumentBlock is a plain-text document with a title.
func TextDocumentBlock(title, text string) InputBlock {
	return InputBlock{Type: "document", Title: title, Source: &BlockSource{Type: "text", MediaType: "text/plain", Data: text}}
}

// userLine is a user turn as the CLI reads it on its stdin.
type userLine struct {
	Type            string      `json:"type"`
	SessionID       string      `json:"session_id"`
	Message         userMessage `json:"message"`
	ParentToolUseID *string     `json:"parent_tool_use_id"` // null
	UUID            string      `json:"uuid,omitempty"`
	Priority        string      `json:"priority,omitempty"`
	ShouldQuery     *bool       `json:"shouldQuery,omitempty"`
	ClientComposed  bool        `json:"client_composed,omitempty"`
}

type userMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // a string or []InputBlock
}

// Send sends one user turn. Read the conversation it starts with Receive
// or Messages.
func (s *Session) Send(ctx context.Context, prompt string) error {
	return s.send(ctx, userLine{Message: userMessage{Content: prompt}})
}

// SendMessage sends one user turn, like Send, and returns the id (a
// UUID) it gave the turn: with Options.FileCheckpointing, RewindFiles
// takes it to restore the files as they were before the turn.
func (s *Session) SendMessage(ctx context.Context, prompt string) (id string, err error) {
	id = newUUID()
	return id, s.send(ctx, userLine{Message: userMessage{Content: prompt}, UUID: id})
}

// SendInput sends one user turn of content blocks (text, images,
// documents) and returns its id, in.UUID or one it chose.
func (s *Session) SendInput(ctx context.Context, in UserInput) (id string, err error) {
	if len(in.Content) == 0 {
		return "", errors.New("claude: SendInput: the turn has no content")
	}
	switch in.Priority {
	case "", "now", "next", "later":
	default:
		return "", errors.New(`claude: SendInput: Priority ` + in.Priority + `: want "now", "next" or "later"`)
	}
	id = in.UUID
	if id == "" {
		id = newUUID()
	}
	line := userLine{Message: userMessage{Content: in.Content}, UUID: id, Priority: in.Priority, ClientComposed: in.Verbatim}
	if in.NoQuery {
		f := false
		line.ShouldQuery = &f
	}
	return id, s.send(ctx, line)
}

func (s *Session) send(ctx context.Context, line userLine) error {
	line.Type, line.SessionID, line.Message.Role = "user", "default", "user"
	line.ClientComposed = line.ClientComposed || s.verbatim
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-s.conn.done:
		return s.failure("send", io.EOF)
	default:
	}
	if err := s.conn.writeLine(b); err != nil {
		return s.failure("send", err)
	}
	return nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // variant 10
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
