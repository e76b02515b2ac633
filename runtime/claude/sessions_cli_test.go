package claude_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fakeapi"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// The tests in this file run real sessions of the CLI 2.1.332 offline,
// then read and change them with the session functions, and check that
// the CLI takes what they wrote (a fork resumes, a store resumes).

// sessionOptions are the SessionOptions that find h's sessions.
func sessionOptions(h *host) claude.SessionOptions {
	return claude.SessionOptions{Dir: h.opts.Dir, ConfigDir: configDir(h)}
}

// texts are the text blocks of messages, "role: text", in order.
func texts(t *testing.T, msgs []claude.SessionMessage) []string {
	var out []string
	for _, m := range msgs {
		var am claude.APIMessage
		if err := json.Unmarshal(m.Message, &am); err != nil {
			t.Fatalf("message %s: %v", m.UUID, err)
		}
		for _, b := range am.Content {
			switch b.Type {
			case "text":
				// Without the reminders the CLI adds to what the model reads.
				text, _, _ := strings.Cut(b.Text, "\n <system-reminder>")
				out = append(out, m.Type+": "+text)
			case "tool_use", "tool_result":
				out = append(out, m.Type+": "+b.Type)
			}
		}
	}
	return out
}

func TestCLISessionFunctions(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`, fakeapi.EachPrompt())
	h.allowAll()
	res, _ := h.query("Please greet Alice.")
	id := res.SessionID
	ctx := context.Background()
	opts := sessionOptions(h)

	list, err := claude.ListSessions(ctx, claude.ListSessionsOptions{SessionOptions: opts})
	if err != nil || len(list) != 1 {
		t.Fatalf("ListSessions: %+v, %v", list, err)
	}
	info := list[0]
	if info.SessionID != id || info.FirstPrompt != "Please greet Alice." || info.Summary != info.FirstPrompt ||
		info.CWD != h.opts.Dir || info.FileSize == 0 || info.LastModified.IsZero() || info.CreatedAt.IsZero() {
		t.Errorf("ListSessions: %+v", info)
	}
	msgs, err := claude.GetSessionMessages(ctx, id, claude.MessagesOptions{SessionOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"user: Please greet Alice.", "assistant: tool_use", "user: tool_result", "assistant: The tool answered: Hello, Alice! Welcome."}
	if got := texts(t, msgs); !slices.Equal(got, want) {
		t.Errorf("GetSessionMessages:\n got %q\nwant %q", got, want)
	}
	if page, _ := claude.GetSessionMessages(ctx, id, claude.MessagesOptions{SessionOptions: opts, Offset: 1, Limit: 2}); len(page) != 2 || page[0].UUID != msgs[1].UUID {
		t.Errorf("Offset 1, Limit 2: %d messages", len(page))
	}

	t.Run("rename, tag, archive", func(t *testing.T) {
		if err := claude.RenameSession(ctx, id, "Greeting Alice", opts); err != nil {
			t.Fatal(err)
		}
		if err := claude.TagSession(ctx, id, "demo", opts); err != nil {
			t.Fatal(err)
		}
		if err := claude.ArchiveSession(ctx, id, opts); err != nil {
			t.Fatal(err)
		}
		info, err := claude.GetSessionInfo(ctx, id, opts)
		if err != nil || info.CustomTitle != "Greeting Alice" || info.Summary != "Greeting Alice" || info.Tag != "demo" || !info.Archived {
			t.Errorf("after rename, tag, archive: %+v, %v", info, err)
		}
		claude.TagSession(ctx, id, "", opts)
		claude.UnarchiveSession(ctx, id, opts)
		if info, _ := claude.GetSessionInfo(ctx, id, opts); info.Tag != "" || info.Archived {
			t.Errorf("after clearing the tag and unarchiving: %+v", info)
		}
	})

	t.Run("fork resumes", func(t *testing.T) {
		fork, err := claude.ForkSession(ctx, id, claude.ForkOptions{SessionOptions: opts})
		if err != nil {
			t.Fatal(err)
		}
		forked, _ := claude.GetSessionMessages(ctx, fork, claude.MessagesOptions{SessionOptions: opts})
		if got := texts(t, forked); !slices.Equal(got, want) || forked[0].UUID == msgs[0].UUID {
			t.Errorf("the fork's messages: %q", got)
		}
		if info, _ := claude.GetSessionInfo(ctx, fork, opts); info.Summary != "Greeting Alice (fork)" {
			t.Errorf("the fork's title: %q", info.Summary)
		}
		// The CLI resumes the fork: the earlier turn reaches the model.
		h.opts.Resume = fork
		before := len(h.api.Requests())
		res, _ := h.query("Greet her again.")
		h.opts.Resume = ""
		if res.SessionID != fork {
			t.Errorf("resumed %s, want the fork %s", res.SessionID, fork)
		}
		if !slices.ContainsFunc(h.api.Requests()[before:], func(r fakeapi.Request) bool {
			return strings.Contains(string(r.Body), "Please greet Alice.") && strings.Contains(string(r.Body), "Greet her again.")
		}) {
			t.Errorf("the resumed fork did not send the earlier turn")
		}
		// Up to the first message only.
		short, err := claude.ForkSession(ctx, id, claude.ForkOptions{SessionOptions: opts, UpToMessageID: msgs[0].UUID, Title: "short"})
		if err != nil {
			t.Fatal(err)
		}
		if m, _ := claude.GetSessionMessages(ctx, short, claude.MessagesOptions{SessionOptions: opts}); len(m) != 1 {
			t.Errorf("a fork up to the first message has %d messages", len(m))
		}
		if err := claude.DeleteSession(ctx, short, opts); err != nil {
			t.Fatal(err)
		}
		if _, err := claude.GetSessionInfo(ctx, short, opts); !errors.Is(err, claude.ErrSessionNotFound) {
			t.Errorf("GetSessionInfo after DeleteSession: %v", err)
		}
		if _, err := claude.GetSessionInfo(ctx, "../../etc/passwd", opts); err == nil || errors.Is(err, claude.ErrSessionNotFound) {
			t.Errorf("an id that is not a UUID: %v", err)
		}
	})
}

// TestCLISubagentTranscripts: ListSubagents and GetSubagentMessages read
// the transcript the CLI keeps for a subagent.
func TestCLISubagentTranscripts(t *testing.T) {
	h := newHost(t, "Agent", `{"description":"Greet Alice","prompt":"Greet Alice using the greet tool","subagent_type":"greeter","run_in_background":false}`)
	h.allowAll()
	h.opts.Agents = map[string]claude.AgentDefinition{"greeter": {Description: "Greets", Prompt: "You greet.", Tools: []string{"mcp__demo_tools__greet"}, Model: "inherit"}}
	res, _ := h.query("Have the greeter greet Alice.")
	ctx := context.Background()
	opts := sessionOptions(h)
	agents, err := claude.ListSubagents(ctx, res.SessionID, opts)
	if err != nil || len(agents) != 1 {
		t.Fatalf("ListSubagents: %q, %v", agents, err)
	}
	msgs, err := claude.GetSubagentMessages(ctx, res.SessionID, agents[0], claude.MessagesOptions{SessionOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(t, msgs); len(got) < 2 || got[0] != "user: Greet Alice using the greet tool" || !strings.HasPrefix(got[len(got)-1], "assistant: ") {
		t.Errorf("the subagent's messages: %q", got)
	}
}

// TestCLISessionStore: with a SessionStore the transcript is copied into
// it while the session runs; a CLI with no files of its own resumes the
// session from the store; ImportSessionToStore copies a session from
// the files.
func TestCLISessionStore(t *testing.T) {
	store := &claude.MemorySessionStore{}
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`, fakeapi.EachPrompt())
	h.allowAll()
	h.opts.SessionStore = store
	res, _ := h.query("Please greet Alice.")
	ctx := context.Background()
	inStore := claude.SessionOptions{Dir: h.opts.Dir, Store: store}
	fromFiles, err := claude.GetSessionMessages(ctx, res.SessionID, claude.MessagesOptions{SessionOptions: sessionOptions(h)})
	if err != nil {
		t.Fatal(err)
	}
	fromStore, err := claude.GetSessionMessages(ctx, res.SessionID, claude.MessagesOptions{SessionOptions: inStore})
	if err != nil || !slices.Equal(texts(t, fromStore), texts(t, fromFiles)) {
		t.Fatalf("the store has %q (%v), the files %q", texts(t, fromStore), err, texts(t, fromFiles))
	}
	if list, err := claude.ListSessions(ctx, claude.ListSessionsOptions{SessionOptions: inStore}); err != nil || len(list) != 1 || list[0].FirstPrompt != "Please greet Alice." {
		t.Errorf("ListSessions from the store: %+v, %v", list, err)
	}

	// Another machine: a fresh home, the same store and project folder.
	other := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`, fakeapi.EachPrompt())
	other.allowAll()
	other.opts.Dir = h.opts.Dir
	other.opts.SessionStore = store
	other.opts.Resume = res.SessionID
	again, _ := other.query("Greet her again.")
	if again.SessionID != res.SessionID {
		t.Errorf("resumed %s, want %s", again.SessionID, res.SessionID)
	}
	if len(requestsWith(other.api, "Please greet Alice.")) == 0 {
		t.Errorf("the session resumed from the store did not send the earlier turn")
	}
	if m, _ := claude.GetSessionMessages(ctx, res.SessionID, claude.MessagesOptions{SessionOptions: inStore}); len(m) <= len(fromStore) {
		t.Errorf("the resumed turn was not mirrored into the store: %d messages", len(m))
	}

	imported := &claude.MemorySessionStore{}
	if err := claude.ImportSessionToStore(ctx, res.SessionID, imported, claude.ImportOptions{SessionOptions: sessionOptions(h)}); err != nil {
		t.Fatal(err)
	}
	got, err := claude.GetSessionMessages(ctx, res.SessionID, claude.MessagesOptions{SessionOptions: claude.SessionOptions{Dir: h.opts.Dir, Store: imported}})
	if err != nil || !slices.Equal(texts(t, got), texts(t, fromFiles)) {
		t.Errorf("imported: %q, %v", texts(t, got), err)
	}
}
