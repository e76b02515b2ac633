package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// The CLI keeps each session as a transcript: a JSONL file of entries
// (messages, attachments, titles, tags, …) at
// <config>/projects/<project key>/<session id>.jsonl, with its subagents'
// transcripts at <session id>/subagents/agent-<id>.jsonl beside it.

// configDir is the CLI's configuration folder: dir, else
// $CLAUDE_CONFIG_DIR, else ~/.claude.
func configDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".claude"), nil
}

// maxProjectKey is the longest project key the CLI writes unhashed.
const maxProjectKey = 200

// ProjectKey is the name the CLI gives the folder of the sessions of the
// project folder dir: its absolute path, symbolic links resolved, with
// every character but ASCII letters and digits replaced by "-"; a key
// longer than 200 characters is cut there and suffixed with a hash of
// the path. A SessionStore keys sessions by it too.
func ProjectKey(dir string) string {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
	}
	return sanitizePath(abs)
}

// sanitizePath is the CLI's rule for ProjectKey. It works on UTF-16 code
// units, as the CLI (JavaScript) does: a character outside the Basic
// Multilingual Plane becomes "--", and the hash is djb2 over the units.
func sanitizePath(path string) string {
	units := utf16.Encode([]rune(path))
	key := make([]byte, len(units))
	var h int32
	for i, u := range units {
		h = h<<5 - h + int32(u) // wraps, as JavaScript's |0 does
		if u < 128 && ('a' <= u && u <= 'z' || 'A' <= u && u <= 'Z' || '0' <= u && u <= '9') {
			key[i] = byte(u)
		} else {
			key[i] = '-'
		}
	}
	if len(key) <= maxProjectKey {
		return string(key)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return string(key[:maxProjectKey]) + "-" + strconv.FormatInt(abs, 36)
}

// entry is what the session functions read of a transcript entry.
type entry struct {
	Type        string
	UUID        string
	ParentUUID  string
	SessionID   string
	Timestamp   string
	IsSidechain bool
	IsMeta      bool
	IsCompact   bool
	CWD         string
	GitBranch   string
	AgentID     string
	Message     json.RawMessage
	CustomTitle string
	AITitle     string
	Summary     string
	Tag         *string

	raw json.RawMessage // the whole line
}

// parseEntries parses a transcript's lines; a line that is not a JSON
// object is skipped, as the CLI skips it. A member of another JSON type
// than the one read here (entries of kinds this package does not know
// use the same names) reads as absent.
func parseEntries(lines []json.RawMessage) []entry {
	out := make([]entry, 0, len(lines))
	for _, l := range lines {
		var obj map[string]json.RawMessage
		if json.Unmarshal(l, &obj) != nil {
			continue
		}
		str := func(name string) string {
			var s string
			json.Unmarshal(obj[name], &s)
			return s
		}
		flag := func(name string) bool {
			var b bool
			json.Unmarshal(obj[name], &b)
			return b
		}
		e := entry{
			Type: str("type"), UUID: str("uuid"), ParentUUID: str("parentUuid"), SessionID: str("sessionId"),
			Timestamp: str("timestamp"), IsSidechain: flag("isSidechain"), IsMeta: flag("isMeta"),
			IsCompact: flag("isCompactSummary"), CWD: str("cwd"), GitBranch: str("gitBranch"), AgentID: str("agentId"),
			CustomTitle: str("customTitle"), AITitle: str("aiTitle"), Summary: str("summary"), raw: l,
		}
		if m := obj["message"]; len(m) > 0 && m[0] == '{' {
			e.Message = m
		}
		if t, ok := obj["tag"]; ok {
			var tag string
			if json.Unmarshal(t, &tag) == nil {
				e.Tag = &tag
			}
		}
		out = append(out, e)
	}
	return out
}

// readLines reads a JSONL file's non-empty lines. They share the file's
// bytes, which nothing else holds.
func readLines(path string) ([]json.RawMessage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	for l := range bytes.SplitSeq(data, []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			out = append(out, json.RawMessage(l))
		}
	}
	return out, nil
}

// isMessage reports whether e is a message of the conversation.
func (e *entry) isMessage(system bool) bool {
	return e.Type == "user" || e.Type == "assistant" || system && e.Type == "system"
}

// promptText is the text a person typed in a user message, or "" when
// it is not one (a tool result, a command, a note of the CLI's own).
func (e *entry) promptText() string {
	if e.Type != "user" || e.IsMeta || e.IsCompact || e.IsSidechain {
		return ""
	}
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(e.Message, &m) != nil {
		return ""
	}
	var text string
	if json.Unmarshal(m.Content, &text) != nil {
		var blocks []ContentBlock
		json.Unmarshal(m.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				return ""
			}
			if b.Type == "text" && text == "" {
				text = b.Text
			}
		}
	}
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "<command-") || strings.HasPrefix(text, "<local-command") {
		return ""
	}
	return text
}

// chain returns the messages of the conversation that ends at the last
// message of entries, following parentUuid from there back to the first:
// what resuming the session sends to the model. A parent that is not a
// message (an attachment) is followed too, and left out.
func chain(entries []entry, system bool) []entry {
	byUUID := map[string]*entry{}
	leaf := -1
	for i := range entries {
		e := &entries[i]
		if e.UUID != "" {
			byUUID[e.UUID] = e
		}
		if e.isMessage(false) && !e.IsSidechain {
			leaf = i
		}
	}
	if leaf < 0 {
		return nil
	}
	var out []entry
	seen := map[string]bool{}
	for e := &entries[leaf]; e != nil && !seen[e.UUID]; e = byUUID[e.ParentUUID] {
		seen[e.UUID] = true
		if e.isMessage(system) && !e.IsMeta {
			out = append(out, *e)
		}
		if e.ParentUUID == "" {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// SessionInfo describes a session.
type SessionInfo struct {
	SessionID string
	// Summary is the session's title: CustomTitle, else the title the CLI
	// made up, else the first prompt.
	Summary      string
	LastModified time.Time
	// FileSize is the transcript's size, for sessions in files.
	FileSize    int64
	CustomTitle string
	FirstPrompt string
	GitBranch   string
	CWD         string
	Tag         string
	CreatedAt   time.Time
	// Archived is true for an archived session (ArchiveSession) in which
	// nothing was prompted since.
	Archived bool
}

// maxFirstPrompt bounds SessionInfo.FirstPrompt, in characters.
const maxFirstPrompt = 200

// sessionInfo sums up a session's entries.
func sessionInfo(id string, entries []entry, modified time.Time) *SessionInfo {
	info := &SessionInfo{SessionID: id, LastModified: modified}
	var aiTitle, summary string
	for i := range entries {
		e := &entries[i]
		switch e.Type {
		case "custom-title":
			info.CustomTitle = e.CustomTitle
		case "ai-title":
			aiTitle = e.AITitle
		case "summary":
			summary = e.Summary
		case "tag":
			if e.Tag != nil {
				info.Tag = *e.Tag
			}
		}
		if info.CWD == "" && e.CWD != "" {
			info.CWD = e.CWD
		}
		if e.GitBranch != "" {
			info.GitBranch = e.GitBranch
		}
		if info.CreatedAt.IsZero() && e.Timestamp != "" {
			info.CreatedAt, _ = time.Parse(time.RFC3339Nano, e.Timestamp)
		}
		if info.FirstPrompt == "" {
			if p := e.promptText(); p != "" {
				if r := []rune(p); len(r) > maxFirstPrompt {
					p = string(r[:maxFirstPrompt]) + "…"
				}
				info.FirstPrompt = p
			}
		}
	}
	for _, s := range []string{info.CustomTitle, aiTitle, summary, info.FirstPrompt} {
		if s != "" {
			info.Summary = s
			break
		}
	}
	return info
}

// lastPromptAfter reports whether a user prompt in entries was written
// after t.
func lastPromptAfter(entries []entry, t time.Time) bool {
	for i := len(entries) - 1; i >= 0; i-- {
		e := &entries[i]
		if e.promptText() == "" {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, e.Timestamp)
		return err == nil && at.After(t)
	}
	return false
}

// SessionMessage is one message of a session's transcript.
type SessionMessage struct {
	// Type is "user", "assistant" or "system".
	Type      string `json:"type"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
	// Message is the Messages API message (a system message's entry for
	// Type "system"); decode it into an APIMessage.
	Message json.RawMessage `json:"message"`
	// ParentToolUseID is the Agent tool call that started the subagent
	// the message belongs to, if any.
	ParentToolUseID string `json:"parent_tool_use_id"`
	// ParentAgentID is the subagent that started the message's subagent,
	// for a subagent of a subagent.
	ParentAgentID string `json:"parent_agent_id"`
}

// sessionMessages turns chain entries into messages.
func sessionMessages(id string, entries []entry) []SessionMessage {
	out := make([]SessionMessage, 0, len(entries))
	for _, e := range entries {
		m := SessionMessage{Type: e.Type, UUID: e.UUID, SessionID: id, Message: e.Message}
		if e.Type == "system" {
			m.Message = e.raw
		}
		out = append(out, m)
	}
	return out
}

// page is items[offset:offset+limit], with limit 0 meaning all.
func page[T any](items []T, offset, limit int) []T {
	if offset >= len(items) {
		return nil
	}
	items = items[max(offset, 0):]
	if limit > 0 && limit < len(items) {
		items = items[:limit]
	}
	return items
}
