package claude

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// stuckStore is a SessionStore whose Append waits for its context.
type stuckStore struct{ MemorySessionStore }

func (s *stuckStore) Append(ctx context.Context, key SessionKey, entries []json.RawMessage) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestMirrorCloseBounded: a store that never answers does not hold the
// end of a session: close waits its grace, then cancels the store's
// calls, and every goroutine ends.
func TestMirrorCloseBounded(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	dir := t.TempDir()
	m := newMirror(&stuckStore{}, dir, slog.New(slog.DiscardHandler))
	m.grace = 50 * time.Millisecond
	file := filepath.Join(dir, "projects", "p", "6f1d2c3b-0a9e-4b8c-8d7f-1e2d3c4b5a69.jsonl")
	line, _ := json.Marshal(map[string]any{"type": "transcript_mirror", "filePath": file, "entries": []any{map[string]string{"type": "user"}}})
	frame, err := jsonvalue.Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		m.add(frame)
	}
	closed := make(chan struct{})
	go func() { m.close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(20 * time.Second): // a hang guard, not a measure
		t.Fatal("close waits for a store that never answers")
	}
}

// TestMirrorKey: the transcripts under the projects folder map to keys;
// anything else is not stored.
func TestMirrorKey(t *testing.T) {
	m := &mirror{projects: "/c/projects"}
	id := "6f1d2c3b-0a9e-4b8c-8d7f-1e2d3c4b5a69"
	for file, want := range map[string]SessionKey{
		"/c/projects/-p/" + id + ".jsonl":                    {ProjectKey: "-p", SessionID: id},
		"/c/projects/-p/" + id + "/subagents/agent-a1.jsonl": {ProjectKey: "-p", SessionID: id, Subpath: "subagents/agent-a1"},
		"/c/projects/-p/not-a-session.jsonl":                 {},
		"/c/elsewhere/-p/" + id + ".jsonl":                   {},
		"/c/projects/../projects2/-p/" + id + ".jsonl":       {},
		"/c/projects/-p/" + id + ".json":                     {},
	} {
		got, ok := m.key(file)
		if got != want || ok != (want != SessionKey{}) {
			t.Errorf("key(%s) = %+v, %v; want %+v", file, got, ok, want)
		}
	}
}

// TestImportNestedSubagents: ImportSessionToStore copies every subagent
// transcript beside the session's file, a nested one (a subagent's own
// subagent) included, under the Subpath the store lists it by. Before, it
// rebuilt each path from the subagent's id alone, and a nested one was
// not found, failing the whole import.
func TestImportNestedSubagents(t *testing.T) {
	const id = "0f2d8e55-6d3c-4b8e-9a1f-1d2c3b4a5f60"
	cfg, dir := t.TempDir(), t.TempDir()
	session := filepath.Join(cfg, "projects", ProjectKey(dir), id+".jsonl")
	files := map[string]string{
		session: `{"type":"user","uuid":"u1"}`,
		filepath.Join(strings.TrimSuffix(session, ".jsonl"), "subagents", "agent-a1.jsonl"):             `{"type":"user","uuid":"a1"}`,
		filepath.Join(strings.TrimSuffix(session, ".jsonl"), "subagents", "agent-a1", "agent-b2.jsonl"): `{"type":"user","uuid":"b2"}`,
	}
	for name, line := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	store := &MemorySessionStore{}
	ctx := context.Background()
	if err := ImportSessionToStore(ctx, id, store, ImportOptions{SessionOptions: SessionOptions{Dir: dir, ConfigDir: cfg}}); err != nil {
		t.Fatal(err)
	}
	subs, err := store.ListSubkeys(ctx, ProjectKey(dir), id)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(subs)
	if want := []string{"subagents/agent-a1", "subagents/agent-a1/agent-b2"}; !slices.Equal(subs, want) {
		t.Fatalf("the store's subkeys are %q, want %q", subs, want)
	}
	for _, sub := range subs {
		lines, err := store.Load(ctx, SessionKey{ProjectKey: ProjectKey(dir), SessionID: id, Subpath: sub})
		if err != nil || len(lines) != 1 || !strings.Contains(string(lines[0]), `"uuid":"`+sub[strings.LastIndex(sub, "-")+1:]+`"`) {
			t.Errorf("%s: %q, %v", sub, lines, err)
		}
	}
}
