package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A SessionStore keeps session transcripts somewhere other than the
// CLI's files (a database, a bucket), so that a session can be resumed
// on another machine: with Options.SessionStore, the CLI's transcript is
// copied there as it is written, and Options.Resume and Continue read it
// from there. The session functions read and change it with
// SessionOptions.Store. It is the Agent SDKs' SessionStore.
//
// Entries are JSON objects, one per transcript line; most carry a "uuid",
// which a store should treat as an idempotency key. A store is called
// from several goroutines at once.
type SessionStore interface {
	// Append adds entries to the transcript key names, in order.
	Append(ctx context.Context, key SessionKey, entries []json.RawMessage) error
	// Load returns the transcript key names, or nil if it was never
	// written.
	Load(ctx context.Context, key SessionKey) ([]json.RawMessage, error)
	// ListSessions lists the sessions of a project, in any order.
	ListSessions(ctx context.Context, projectKey string) ([]StoredSession, error)
	// Delete deletes a session's transcript and its subkeys'. An
	// append-only store may do nothing.
	Delete(ctx context.Context, key SessionKey) error
	// ListSubkeys lists the subpaths of a session's other transcripts
	// (its subagents', "subagents/agent-<id>").
	ListSubkeys(ctx context.Context, projectKey, sessionID string) ([]string, error)
}

// A SessionKey names a transcript in a SessionStore.
type SessionKey struct {
	// ProjectKey is the project (ProjectKey of its folder, by default).
	ProjectKey string
	SessionID  string
	// Subpath is empty for the session's own transcript, else the
	// transcript of one of its subagents.
	Subpath string
}

// StoredSession is a session a SessionStore holds.
type StoredSession struct {
	SessionID string
	ModTime   time.Time
}

// MemorySessionStore is a SessionStore in memory, for tests and for a
// single process. Its zero value is ready to use. It keeps everything
// appended to it until Delete: it is not bounded.
type MemorySessionStore struct {
	mu       sync.Mutex
	sessions map[SessionKey]*storedTranscript
}

type storedTranscript struct {
	entries []json.RawMessage
	mtime   time.Time
}

// Append implements SessionStore.
func (m *MemorySessionStore) Append(ctx context.Context, key SessionKey, entries []json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions == nil {
		m.sessions = map[SessionKey]*storedTranscript{}
	}
	t := m.sessions[key]
	if t == nil {
		t = &storedTranscript{}
		m.sessions[key] = t
	}
	for _, e := range entries {
		t.entries = append(t.entries, slices.Clone(e))
	}
	t.mtime = time.Now()
	return nil
}

// Load implements SessionStore.
func (m *MemorySessionStore) Load(ctx context.Context, key SessionKey) ([]json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.sessions[key]
	if t == nil {
		return nil, nil
	}
	out := make([]json.RawMessage, len(t.entries))
	for i, e := range t.entries {
		out[i] = slices.Clone(e)
	}
	return out, nil
}

// ListSessions implements SessionStore.
func (m *MemorySessionStore) ListSessions(ctx context.Context, projectKey string) ([]StoredSession, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []StoredSession
	for k, t := range m.sessions {
		if k.ProjectKey == projectKey && k.Subpath == "" {
			out = append(out, StoredSession{SessionID: k.SessionID, ModTime: t.mtime})
		}
	}
	return out, nil
}

// Delete implements SessionStore.
func (m *MemorySessionStore) Delete(ctx context.Context, key SessionKey) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.sessions {
		if k.ProjectKey == key.ProjectKey && k.SessionID == key.SessionID && (key.Subpath == "" || k.Subpath == key.Subpath) {
			delete(m.sessions, k)
		}
	}
	return nil
}

// ListSubkeys implements SessionStore.
func (m *MemorySessionStore) ListSubkeys(ctx context.Context, projectKey, sessionID string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for k := range m.sessions {
		if k.ProjectKey == projectKey && k.SessionID == sessionID && k.Subpath != "" {
			out = append(out, k.Subpath)
		}
	}
	slices.Sort(out)
	return out, nil
}

// ImportOptions say what ImportSessionToStore copies.
type ImportOptions struct {
	SessionOptions
	// SkipSubagents leaves the subagents' transcripts out.
	SkipSubagents bool
	// BatchSize bounds the entries of one Append; zero means 500.
	BatchSize int
}

// ImportSessionToStore copies session id from the CLI's files into store,
// its subagents' transcripts included.
func ImportSessionToStore(ctx context.Context, id string, store SessionStore, opts ImportOptions) error {
	opts.Store = nil // read the files
	path, err := opts.transcriptPath(id)
	if err != nil {
		return err
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = 500
	}
	key := SessionKey{ProjectKey: ProjectKey(opts.Dir), SessionID: id}
	if opts.Dir == "" {
		key.ProjectKey = filepath.Base(filepath.Dir(path))
	}
	copyFile := func(file string, key SessionKey) error {
		lines, err := readLines(file)
		if err != nil {
			return err
		}
		for len(lines) > 0 {
			n := min(batch, len(lines))
			if err := store.Append(ctx, key, lines[:n]); err != nil {
				return err
			}
			lines = lines[n:]
		}
		return nil
	}
	if err := copyFile(path, key); err != nil {
		return err
	}
	if opts.SkipSubagents {
		return nil
	}
	subs, err := subagentKeys(ctx, id, opts.SessionOptions)
	if err != nil {
		return err
	}
	for _, sub := range subs { // "subagents/…/agent-<id>", beside the session's file
		file := filepath.Join(filepath.Dir(subagentsDir(path)), filepath.FromSlash(sub)+".jsonl")
		if err := copyFile(file, SessionKey{ProjectKey: key.ProjectKey, SessionID: id, Subpath: sub}); err != nil {
			return err
		}
	}
	return nil
}

// DefaultStoreLoadTimeout bounds each SessionStore call that Start makes
// to resume a session from the store, unless
// Options.SessionStoreLoadTimeout says otherwise: 60 s, as in the
// TypeScript SDK.
const DefaultStoreLoadTimeout = 60 * time.Second

// materialize writes the session to resume (opts.Resume, or the newest
// of the project with opts.Continue) from opts.SessionStore into a new
// configuration folder, from which the CLI resumes it. It returns the
// folder, or "" when there is nothing to resume.
func materialize(ctx context.Context, opts *Options) (string, error) {
	store := opts.SessionStore
	project := ProjectKey(opts.Dir)
	timeout := opts.SessionStoreLoadTimeout
	if timeout <= 0 {
		timeout = DefaultStoreLoadTimeout
	}
	call := func(what string, f func(context.Context) error) error {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		if err := f(ctx); err != nil {
			return fmt.Errorf("claude: resuming from the session store: %s: %w", what, err)
		}
		return nil
	}
	id := opts.Resume
	if id == "" {
		var list []StoredSession
		if err := call("ListSessions", func(ctx context.Context) (err error) {
			list, err = store.ListSessions(ctx, project)
			return err
		}); err != nil {
			return "", err
		}
		if len(list) == 0 {
			return "", nil
		}
		id = slices.MaxFunc(list, func(a, b StoredSession) int { return a.ModTime.Compare(b.ModTime) }).SessionID
	}
	if err := checkSessionID(id); err != nil {
		return "", err
	}
	var main []json.RawMessage
	var subs []string
	if err := call("Load", func(ctx context.Context) (err error) {
		main, err = store.Load(ctx, SessionKey{ProjectKey: project, SessionID: id})
		return err
	}); err != nil {
		return "", err
	}
	if main == nil {
		return "", fmt.Errorf("%w: %s is not in the session store", ErrSessionNotFound, id)
	}
	if err := call("ListSubkeys", func(ctx context.Context) (err error) {
		subs, err = store.ListSubkeys(ctx, project, id)
		return err
	}); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "claude-resume-")
	if err != nil {
		return "", err
	}
	write := func(rel string, lines []json.RawMessage) error {
		p := filepath.Join(dir, "projects", project, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		var data []byte
		for _, l := range lines {
			data = append(append(data, l...), '\n')
		}
		return os.WriteFile(p, data, 0o600)
	}
	err = write(id+".jsonl", main)
	for _, sub := range subs {
		if err != nil {
			break
		}
		if strings.Contains(sub, "..") || filepath.IsAbs(sub) {
			err = fmt.Errorf("claude: the session store lists a subkey %q outside the session", sub)
			break
		}
		var lines []json.RawMessage
		err = call("Load", func(ctx context.Context) (err error) {
			lines, err = store.Load(ctx, SessionKey{ProjectKey: project, SessionID: id, Subpath: sub})
			return err
		})
		if err == nil {
			err = write(filepath.Join(id, filepath.FromSlash(sub)+".jsonl"), lines)
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	opts.Resume = id
	return dir, nil
}

// mirror copies the transcript entries the CLI reports
// (transcript_mirror lines, with --session-mirror) into a SessionStore,
// on a goroutine of its own, in order.
type mirror struct {
	store    SessionStore
	projects string // the CLI's projects folder, which file paths are under
	logger   interface {
		Error(msg string, args ...any)
	}
	batches chan mirrorBatch
	done    chan struct{}
	ctx     context.Context // cancelled when close gives up waiting
	cancel  context.CancelFunc
	grace   time.Duration // how long close waits for the store: mirrorGrace
}

type mirrorBatch struct {
	key     SessionKey
	entries []json.RawMessage
	flushed chan struct{} // closed once the batches before it are stored, for a flush
}

// mirrorQueue bounds the batches waiting for the store; past it, the
// reading of the CLI's output waits, as for the message queue.
const mirrorQueue = 256

func newMirror(store SessionStore, configDir string, logger interface{ Error(string, ...any) }) *mirror {
	m := &mirror{store: store, projects: filepath.Join(configDir, "projects"), logger: logger,
		batches: make(chan mirrorBatch, mirrorQueue), done: make(chan struct{}), grace: mirrorGrace}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	go m.run()
	return m
}

func (m *mirror) run() {
	defer close(m.done)
	for b := range m.batches {
		if b.flushed != nil {
			close(b.flushed)
			continue
		}
		// A store that fails is retried, as the TypeScript SDK does, then
		// the batch is dropped: the CLI's own file still has it.
		var err error
		for range 3 {
			ctx, cancel := context.WithTimeout(m.ctx, DefaultStoreLoadTimeout)
			err = m.store.Append(ctx, b.key, b.entries)
			cancel()
			if err == nil || errors.Is(err, context.DeadlineExceeded) || m.ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			m.logger.Error("claude: the session store lost transcript entries", "session", b.key.SessionID, "subpath", b.key.Subpath, "entries", len(b.entries), "error", err)
		}
	}
}

// add queues the entries of a transcript_mirror line, frame, which the
// control loop parsed already.
func (m *mirror) add(frame jsonvalue.Value) {
	list := frame.Get("entries")
	if list.Kind() != jsonvalue.Array || list.Len() == 0 {
		return
	}
	file := frame.Get("filePath").Str()
	key, ok := m.key(file)
	if !ok {
		m.logger.Error("claude: a transcript the CLI mirrors is outside its projects folder; not stored", "file", file)
		return
	}
	entries := make([]json.RawMessage, 0, list.Len())
	for _, e := range list.Elems() {
		entries = append(entries, slices.Clone(e.Raw()))
	}
	m.batches <- mirrorBatch{key: key, entries: entries}
}

// key is the SessionKey of a transcript file under m.projects:
// <project>/<session>.jsonl, or <project>/<session>/<subpath>.jsonl.
func (m *mirror) key(file string) (SessionKey, bool) {
	rel, err := filepath.Rel(m.projects, file)
	if err != nil || strings.HasPrefix(rel, "..") || !strings.HasSuffix(rel, ".jsonl") {
		return SessionKey{}, false
	}
	parts := strings.Split(filepath.ToSlash(strings.TrimSuffix(rel, ".jsonl")), "/")
	switch {
	case len(parts) == 2 && validSessionID(parts[1]):
		return SessionKey{ProjectKey: parts[0], SessionID: parts[1]}, true
	case len(parts) > 2 && validSessionID(parts[1]):
		return SessionKey{ProjectKey: parts[0], SessionID: parts[1], Subpath: strings.Join(parts[2:], "/")}, true
	}
	return SessionKey{}, false
}

// flush waits until every batch queued so far is stored.
func (m *mirror) flush() {
	done := make(chan struct{})
	m.batches <- mirrorBatch{flushed: done}
	select {
	case <-done:
	case <-m.done:
	}
}

// close stores what is queued and stops. A store that takes longer
// than mirrorGrace for it has its calls cancelled: the session has
// ended, and the CLI's own files keep the entries.
func (m *mirror) close() {
	close(m.batches)
	select {
	case <-m.done:
	case <-time.After(m.grace):
		m.cancel()
		<-m.done
	}
	m.cancel()
}

// mirrorGrace bounds how long the end of a session waits for the store.
const mirrorGrace = 10 * time.Second

// cliConfigDir is the configuration folder of a CLI started with the
// environment env: $CLAUDE_CONFIG_DIR, else $HOME/.claude, the last
// value of each counting, as for exec.Cmd.Env.
func cliConfigDir(env []string) string {
	var cfg, home string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "CLAUDE_CONFIG_DIR="); ok {
			cfg = v
		}
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	if cfg != "" {
		return cfg
	}
	return filepath.Join(home, ".claude")
}
