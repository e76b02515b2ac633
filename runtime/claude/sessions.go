package claude

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The session functions read and change the sessions the CLI keeps,
// outside a running session: in the CLI's own files, as the Agent SDKs
// do, or in a SessionStore.

// ErrSessionNotFound reports a session id that names no session.
var ErrSessionNotFound = errors.New("claude: session not found")

// SessionOptions say where the session functions find sessions.
type SessionOptions struct {
	// Dir is the project folder the sessions ran in (their Options.Dir).
	// Empty means every project for the functions that look a session up
	// by its id, and the current folder for a SessionStore.
	Dir string
	// ConfigDir is the CLI's configuration folder; empty means
	// $CLAUDE_CONFIG_DIR, else ~/.claude.
	ConfigDir string
	// Store, if set, holds the sessions instead of the CLI's files.
	Store SessionStore
}

// checkSessionID refuses an id that is not a UUID, as the CLI names
// sessions: an id is part of a file path or a store key.
func checkSessionID(id string) error {
	if !validSessionID(id) {
		return fmt.Errorf("claude: invalid session id %q: want a UUID", id)
	}
	return nil
}

// storeKey is the key of session id in o.Store.
func (o *SessionOptions) storeKey(id string) (SessionKey, error) {
	if err := checkSessionID(id); err != nil {
		return SessionKey{}, err
	}
	return SessionKey{ProjectKey: ProjectKey(o.Dir), SessionID: id}, nil
}

// transcriptPath finds the transcript of session id: in Dir's project
// folder, or in any project's when Dir is empty.
func (o *SessionOptions) transcriptPath(id string) (string, error) {
	if err := checkSessionID(id); err != nil {
		return "", err
	}
	cfg, err := configDir(o.ConfigDir)
	if err != nil {
		return "", err
	}
	projects := filepath.Join(cfg, "projects")
	if o.Dir != "" {
		p := filepath.Join(projects, ProjectKey(o.Dir), id+".jsonl")
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: %s", ErrSessionNotFound, id)
		}
		return p, nil
	}
	matches, _ := filepath.Glob(filepath.Join(projects, "*", id+".jsonl"))
	if len(matches) == 0 {
		return "", fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	}
	return matches[0], nil
}

// validSessionID reports whether id is a UUID, as the CLI's session ids
// are: it becomes a file name, so nothing else may pass.
func validSessionID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range id {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F':
		default:
			return false
		}
	}
	return true
}

// loadSession reads session id's entries and when it last changed.
func (o *SessionOptions) loadSession(ctx context.Context, id string) ([]entry, time.Time, int64, error) {
	if o.Store != nil {
		key, err := o.storeKey(id)
		if err != nil {
			return nil, time.Time{}, 0, err
		}
		lines, err := o.Store.Load(ctx, key)
		if err != nil {
			return nil, time.Time{}, 0, err
		}
		if lines == nil {
			return nil, time.Time{}, 0, fmt.Errorf("%w: %s", ErrSessionNotFound, id)
		}
		var mtime time.Time
		if list, err := o.Store.ListSessions(ctx, key.ProjectKey); err == nil {
			if i := slices.IndexFunc(list, func(s StoredSession) bool { return s.SessionID == id }); i >= 0 {
				mtime = list[i].ModTime
			}
		}
		return parseEntries(lines), mtime, 0, nil
	}
	path, err := o.transcriptPath(id)
	if err != nil {
		return nil, time.Time{}, 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, time.Time{}, 0, err
	}
	lines, err := readLines(path)
	if err != nil {
		return nil, time.Time{}, 0, err
	}
	return parseEntries(lines), fi.ModTime(), fi.Size(), nil
}

// GetSessionInfo describes session id.
func GetSessionInfo(ctx context.Context, id string, opts SessionOptions) (*SessionInfo, error) {
	entries, mtime, size, err := opts.loadSession(ctx, id)
	if err != nil {
		return nil, err
	}
	info := sessionInfo(id, entries, mtime)
	info.FileSize = size
	if opts.Store == nil {
		path, _ := opts.transcriptPath(id)
		info.Archived = archived(path, entries)
	}
	return info, nil
}

// ListSessionsOptions say which sessions ListSessions lists.
type ListSessionsOptions struct {
	SessionOptions
	// Limit bounds how many; zero means all. Offset skips that many of
	// the newest first.
	Limit, Offset int
}

// ListSessions lists the sessions of opts.Dir (of every project when
// empty), the most recently changed first.
func ListSessions(ctx context.Context, opts ListSessionsOptions) ([]SessionInfo, error) {
	var out []SessionInfo
	if opts.Store != nil {
		list, err := opts.Store.ListSessions(ctx, ProjectKey(opts.Dir))
		if err != nil {
			return nil, err
		}
		slices.SortFunc(list, func(a, b StoredSession) int { return b.ModTime.Compare(a.ModTime) })
		for _, s := range page(list, opts.Offset, opts.Limit) {
			lines, err := opts.Store.Load(ctx, SessionKey{ProjectKey: ProjectKey(opts.Dir), SessionID: s.SessionID})
			if err != nil {
				return nil, err
			}
			out = append(out, *sessionInfo(s.SessionID, parseEntries(lines), s.ModTime))
		}
		return out, nil
	}
	cfg, err := configDir(opts.ConfigDir)
	if err != nil {
		return nil, err
	}
	pattern := filepath.Join(cfg, "projects", "*", "*.jsonl")
	if opts.Dir != "" {
		pattern = filepath.Join(cfg, "projects", ProjectKey(opts.Dir), "*.jsonl")
	}
	paths, _ := filepath.Glob(pattern)
	type file struct {
		path  string
		mtime time.Time
		size  int64
	}
	var files []file
	for _, p := range paths {
		if !validSessionID(strings.TrimSuffix(filepath.Base(p), ".jsonl")) {
			continue
		}
		if fi, err := os.Stat(p); err == nil {
			files = append(files, file{p, fi.ModTime(), fi.Size()})
		}
	}
	slices.SortFunc(files, func(a, b file) int { return b.mtime.Compare(a.mtime) })
	for _, f := range page(files, opts.Offset, opts.Limit) {
		lines, err := readLines(f.path)
		if err != nil {
			continue // removed meanwhile
		}
		entries := parseEntries(lines)
		info := sessionInfo(strings.TrimSuffix(filepath.Base(f.path), ".jsonl"), entries, f.mtime)
		info.FileSize = f.size
		info.Archived = archived(f.path, entries)
		out = append(out, *info)
	}
	return out, nil
}

// MessagesOptions say which messages GetSessionMessages and
// GetSubagentMessages return.
type MessagesOptions struct {
	SessionOptions
	// Limit bounds how many; zero means all. Offset skips that many from
	// the start.
	Limit, Offset int
	// IncludeSystemMessages returns the system messages too (compaction
	// boundaries, notices).
	IncludeSystemMessages bool
}

// GetSessionMessages returns the conversation of session id, in order:
// the messages resuming it would send to the model.
func GetSessionMessages(ctx context.Context, id string, opts MessagesOptions) ([]SessionMessage, error) {
	entries, _, _, err := opts.loadSession(ctx, id)
	if err != nil {
		return nil, err
	}
	return page(sessionMessages(id, chain(entries, opts.IncludeSystemMessages)), opts.Offset, opts.Limit), nil
}

// subagentsDir is where session id's subagents' transcripts are.
func subagentsDir(transcript string) string {
	return filepath.Join(strings.TrimSuffix(transcript, ".jsonl"), "subagents")
}

// ListSubagents returns the ids of the subagents that ran in session id.
func ListSubagents(ctx context.Context, id string, opts SessionOptions) ([]string, error) {
	keys, err := subagentKeys(ctx, id, opts)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, k := range keys {
		if name := k[strings.LastIndex(k, "/")+1:]; strings.HasPrefix(name, "agent-") {
			ids = append(ids, strings.TrimPrefix(name, "agent-"))
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// subagentKeys returns the Subpaths of session id's subagents'
// transcripts ("subagents/agent-a1", "subagents/…/agent-b2"), from the
// store or from the folders beside the session's file, however deep.
func subagentKeys(ctx context.Context, id string, opts SessionOptions) ([]string, error) {
	if opts.Store != nil {
		return opts.Store.ListSubkeys(ctx, ProjectKey(opts.Dir), id)
	}
	path, err := opts.transcriptPath(id)
	if err != nil {
		return nil, err
	}
	var keys []string
	root := subagentsDir(path)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			rel, _ := filepath.Rel(filepath.Dir(root), p)
			keys = append(keys, strings.TrimSuffix(filepath.ToSlash(rel), ".jsonl"))
		}
		return nil
	})
	return keys, nil
}

// GetSubagentMessages returns the conversation of subagent agentID of
// session id.
func GetSubagentMessages(ctx context.Context, id, agentID string, opts MessagesOptions) ([]SessionMessage, error) {
	if agentID == "" || strings.ContainsAny(agentID, `/\.`) {
		return nil, fmt.Errorf("claude: invalid subagent id %q", agentID)
	}
	var lines []json.RawMessage
	if opts.Store != nil {
		subs, err := opts.Store.ListSubkeys(ctx, ProjectKey(opts.Dir), id)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(subs, func(k string) bool { return strings.HasSuffix(k, "agent-"+agentID) })
		if i < 0 {
			return nil, fmt.Errorf("%w: subagent %s of %s", ErrSessionNotFound, agentID, id)
		}
		lines, err = opts.Store.Load(ctx, SessionKey{ProjectKey: ProjectKey(opts.Dir), SessionID: id, Subpath: subs[i]})
		if err != nil {
			return nil, err
		}
	} else {
		path, err := opts.transcriptPath(id)
		if err != nil {
			return nil, err
		}
		var found string
		filepath.WalkDir(subagentsDir(path), func(p string, d fs.DirEntry, err error) error {
			if err == nil && filepath.Base(p) == "agent-"+agentID+".jsonl" {
				found = p
			}
			return nil
		})
		if found == "" {
			return nil, fmt.Errorf("%w: subagent %s of %s", ErrSessionNotFound, agentID, id)
		}
		if lines, err = readLines(found); err != nil {
			return nil, err
		}
	}
	entries := parseEntries(lines)
	for i := range entries {
		entries[i].IsSidechain = false // a subagent's own conversation
	}
	return page(sessionMessages(id, chain(entries, opts.IncludeSystemMessages)), opts.Offset, opts.Limit), nil
}

// appendEntries adds entries to session id's transcript.
func (o *SessionOptions) appendEntries(ctx context.Context, id string, entries ...any) error {
	var lines []json.RawMessage
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		lines = append(lines, b)
	}
	if o.Store != nil {
		key, err := o.storeKey(id)
		if err != nil {
			return err
		}
		return o.Store.Append(ctx, key, lines)
	}
	path, err := o.transcriptPath(id)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	for _, l := range lines {
		f.Write(append(l, '\n'))
	}
	return f.Close()
}

// RenameSession sets the title of session id, as /rename does.
func RenameSession(ctx context.Context, id, title string, opts SessionOptions) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return errors.New("claude: RenameSession: the title is empty")
	}
	return opts.appendEntries(ctx, id, struct {
		Type        string `json:"type"`
		CustomTitle string `json:"customTitle"`
		SessionID   string `json:"sessionId"`
	}{"custom-title", title, id})
}

// TagSession sets the tag of session id; "" removes it.
func TagSession(ctx context.Context, id, tag string, opts SessionOptions) error {
	return opts.appendEntries(ctx, id, struct {
		Type      string `json:"type"`
		Tag       string `json:"tag"`
		SessionID string `json:"sessionId"`
	}{"tag", strings.TrimSpace(tag), id})
}

// DeleteSession deletes session id, its subagents' transcripts included.
func DeleteSession(ctx context.Context, id string, opts SessionOptions) error {
	if opts.Store != nil {
		key, err := opts.storeKey(id)
		if err != nil {
			return err
		}
		return opts.Store.Delete(ctx, key)
	}
	path, err := opts.transcriptPath(id)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(strings.TrimSuffix(path, ".jsonl")); err != nil {
		return err
	}
	return os.Remove(path)
}

// archiveMark is the file beside a transcript that marks it archived.
type archiveMark struct {
	Archived bool      `json:"archived"`
	At       time.Time `json:"at"`
}

func archivePath(transcript string) string {
	return filepath.Join(strings.TrimSuffix(transcript, ".jsonl"), "archived.json")
}

// archived reports whether the session of transcript is archived, with
// no prompt since.
func archived(transcript string, entries []entry) bool {
	data, err := os.ReadFile(archivePath(transcript))
	if err != nil {
		return false
	}
	var m archiveMark
	if json.Unmarshal(data, &m) != nil || !m.Archived {
		return false
	}
	return !lastPromptAfter(entries, m.At)
}

// ArchiveSession marks session id archived: ListSessions still lists it,
// with Archived set, until a prompt is sent in it. Sessions in a
// SessionStore cannot be archived.
func ArchiveSession(ctx context.Context, id string, opts SessionOptions) error {
	return setArchived(id, true, opts)
}

// UnarchiveSession removes ArchiveSession's mark.
func UnarchiveSession(ctx context.Context, id string, opts SessionOptions) error {
	return setArchived(id, false, opts)
}

func setArchived(id string, on bool, opts SessionOptions) error {
	if opts.Store != nil {
		return errors.New("claude: archiving is not supported with a SessionStore: the mark is a file beside the transcript")
	}
	path, err := opts.transcriptPath(id)
	if err != nil {
		return err
	}
	data, _ := json.Marshal(archiveMark{Archived: on, At: time.Now().UTC()})
	mark := archivePath(path)
	if err := os.MkdirAll(filepath.Dir(mark), 0o700); err != nil {
		return err
	}
	return os.WriteFile(mark, data, 0o600)
}

// ForkOptions say what ForkSession copies.
type ForkOptions struct {
	SessionOptions
	// UpToMessageID, if set, ends the copy at this message (included).
	UpToMessageID string
	// Title is the fork's title; empty means the original's with
	// " (fork)".
	Title string
}

// ForkSession copies the conversation of session id into a new session,
// with new message ids, and returns the new session's id: Options.Resume
// resumes it, leaving the original as it was.
func ForkSession(ctx context.Context, id string, opts ForkOptions) (string, error) {
	entries, mtime, _, err := opts.loadSession(ctx, id)
	if err != nil {
		return "", err
	}
	kept := chainEntries(entries, opts.UpToMessageID)
	if kept == nil {
		return "", fmt.Errorf("claude: ForkSession: session %s has no message %q", id, opts.UpToMessageID)
	}
	newID := newUUID()
	ids := map[string]string{}
	for _, e := range kept {
		ids[e.UUID] = newUUID()
	}
	var lines []json.RawMessage
	for _, e := range kept {
		var obj map[string]json.RawMessage
		if json.Unmarshal(e.raw, &obj) != nil {
			continue
		}
		set := func(k, v string) { obj[k], _ = json.Marshal(v) }
		set("uuid", ids[e.UUID])
		set("sessionId", newID)
		if p, ok := ids[e.ParentUUID]; ok {
			set("parentUuid", p)
		} else {
			obj["parentUuid"] = json.RawMessage("null")
		}
		b, _ := json.Marshal(obj)
		lines = append(lines, b)
	}
	title := opts.Title
	if title == "" {
		title = cmp.Or(sessionInfo(id, entries, mtime).Summary, "session") + " (fork)"
	}
	b, _ := json.Marshal(struct {
		Type        string `json:"type"`
		CustomTitle string `json:"customTitle"`
		SessionID   string `json:"sessionId"`
	}{"custom-title", title, newID})
	lines = append(lines, b)
	if opts.Store != nil {
		return newID, opts.Store.Append(ctx, SessionKey{ProjectKey: ProjectKey(opts.Dir), SessionID: newID}, lines)
	}
	path, err := opts.transcriptPath(id)
	if err != nil {
		return "", err
	}
	var data []byte
	for _, l := range lines {
		data = append(append(data, l...), '\n')
	}
	return newID, os.WriteFile(filepath.Join(filepath.Dir(path), newID+".jsonl"), data, 0o600)
}

// chainEntries returns the entries of the main conversation, in file
// order, up to the message upTo (all of them when empty), attachments
// included; nil if upTo names no message.
func chainEntries(entries []entry, upTo string) []entry {
	var out []entry
	for _, e := range entries {
		if e.UUID == "" || e.IsSidechain {
			continue
		}
		out = append(out, e)
		if upTo != "" && e.UUID == upTo {
			return out
		}
	}
	if upTo != "" {
		return nil
	}
	return out
}
