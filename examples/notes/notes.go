// Command notes keeps notes and serves tools to add, find, delete and
// export them, each note as a resource (notes://N1), and a prompt that
// summarizes one. Its tools, resource and prompt are methods of Store,
// which holds the state; the generated NewServer takes the Store. The
// notes live in memory, or in the folder NOTES_DIR names (see Config).
// The export takes seconds, and runs as a task for a client that can poll
// one. With -redis URL, replicas share their tasks and notifications
// through Redis (the notes themselves stay in each replica's memory or
// folder: a real deployment keeps them in a database); it is a module of
// its own so that the Redis client it links is not a requirement of
// mcpgen's.
//
// With -http and -issuer URL it requires OAuth access tokens (JWTs) from
// that authorization server: reading needs the scope notes:read, adding
// and deleting notes:write (see docs/authorization.md).
//
// Its install files, manifest.json, server.json and .mcp.json, are
// generated from the directives below and the code; see
// docs/distributing.md.
//
//docs:begin install
//mcp:server name=notes version=1.0.0 title="Notes" instructions="Search with find_notes before adding a note, to avoid duplicates." surface
//mcp:install description="Keeps notes: add, find and delete them, read each as a resource, summarize one."
//mcp:install homepage=https://github.com/mcpgen/mcpgen oci=ghcr.io/mcpgen/notes
//mcp:install mcpb=https://github.com/mcpgen/mcpgen/releases/download/v{version}/notes-{version}.mcpb
//mcp:install remote=https://notes.example.com/mcp
package main

//docs:end install

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/examples/internal/cli"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/store"
	"github.com/mcpgen/mcpgen/store/redis"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// Priority ranks notes.
type Priority int

const (
	Low    Priority = 1
	Normal Priority = 2
	High   Priority = 3
)

// Note is a stored note.
type Note struct {
	ID       string     `json:"id"`
	Title    string     `json:"title"`
	Body     string     `json:"body,omitempty"`
	Tags     []string   `json:"tags,omitempty"`
	Priority Priority   `json:"priority"`
	Due      *time.Time `json:"due,omitempty"`
	Created  time.Time  `json:"created"`
}

//docs:begin config

// Config is what a person sets when installing the server: each field is
// a question of the MCP bundle's user_config and an environment variable
// of the Registry's entry, read by the generated LoadEnv. Keep it small
// and documented: every field is one more question.
//
//mcp:config
type Config struct {
	// Dir is the folder that keeps the notes, in notes.json; without it,
	// the notes live in memory until the server exits.
	Dir string `json:"dir,omitempty" jsonschema:"title=Notes folder" mcp:"directory"`
}

//docs:end config

// Store holds the notes of one server.
type Store struct {
	mu    sync.Mutex
	notes []Note
	next  int
	now   func() time.Time
	// file, if set, keeps the notes on disk (persist.go).
	file string
	// changed, if set, is told the ID of a note added or deleted.
	changed func(id string)
	// exportDelay is how long ExportNotes takes.
	exportDelay time.Duration
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{now: time.Now, exportDelay: exportDelay}
}

// AddNoteInput is a note to add.
type AddNoteInput struct {
	Title string   `json:"title" jsonschema:"minLength=1,maxLength=200"`
	Body  string   `json:"body,omitempty"`
	Tags  []string `json:"tags,omitempty" jsonschema:"maxItems=10,uniqueItems=true"`
	// Priority of the note; Normal when left out.
	Priority Priority   `json:"priority,omitempty"`
	Due      *time.Time `json:"due,omitempty"` // When the note is due (RFC 3339).
}

// AddNote stores a new note and returns it with its ID.
//
//mcp:tool idempotent=false scopes=notes:write
func (s *Store) AddNote(ctx context.Context, in AddNoteInput) (Note, error) {
	s.mu.Lock()
	n := Note{
		ID:       fmt.Sprintf("N%d", s.next+1),
		Title:    in.Title,
		Body:     in.Body,
		Tags:     in.Tags,
		Priority: cmpOr(in.Priority, Normal),
		Due:      in.Due,
		Created:  s.now().UTC(),
	}
	all := append(slices.Clip(s.notes), n)
	if err := s.save(all, s.next+1); err != nil {
		s.mu.Unlock()
		return Note{}, err
	}
	s.notes, s.next = all, s.next+1
	s.mu.Unlock()
	s.notify(n.ID)
	runtime.Logger(ctx).Info("note added", "id", n.ID)
	return n, nil
}

// notify tells s.changed, if set, that the note id was added or deleted.
func (s *Store) notify(id string) {
	if s.changed != nil {
		s.changed(id)
	}
}

// FindNotesInput says which notes to find.
type FindNotesInput struct {
	Query  string  `json:"query,omitempty"`  // Words that must all appear in the title or body.
	Filter *Filter `json:"filter,omitempty"` // Narrows the search further.
	Limit  int     `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100"`
}

// Filter narrows a search.
type Filter struct {
	Tags        []string   `json:"tags,omitempty"` // Notes must carry all of these tags.
	MinPriority Priority   `json:"minPriority,omitempty"`
	DueBefore   *time.Time `json:"dueBefore,omitempty"`
}

// FoundNotes are the notes a search found, most urgent first.
type FoundNotes struct {
	Notes []Note `json:"notes"`
	Total int    `json:"total"` // Matches before the limit was applied.
}

// FindNotes searches the notes by words, tags, priority and due date.
//
//mcp:tool readOnly scopes=notes:read
func (s *Store) FindNotes(ctx context.Context, in FindNotesInput) (FoundNotes, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []Note
	for _, n := range s.notes {
		if matches(n, in) {
			found = append(found, n)
		}
	}
	slices.SortStableFunc(found, func(a, b Note) int { return int(b.Priority - a.Priority) })
	total := len(found)
	if in.Limit > 0 && len(found) > in.Limit {
		found = found[:in.Limit]
	}
	return FoundNotes{Notes: found, Total: total}, nil
}

func matches(n Note, in FindNotesInput) bool {
	text := strings.ToLower(n.Title + " " + n.Body)
	for _, w := range strings.Fields(strings.ToLower(in.Query)) {
		if !strings.Contains(text, w) {
			return false
		}
	}
	if f := in.Filter; f != nil {
		for _, t := range f.Tags {
			if !slices.Contains(n.Tags, t) {
				return false
			}
		}
		if n.Priority < f.MinPriority {
			return false
		}
		if f.DueBefore != nil && (n.Due == nil || !n.Due.Before(*f.DueBefore)) {
			return false
		}
	}
	return true
}

// DeleteNoteInput names the note to delete.
type DeleteNoteInput struct {
	ID string `json:"id"` // ID of the note, as add_note returned it.
}

// DeleteNote deletes a note.
//
//mcp:tool destructive idempotent scopes=notes:write
func (s *Store) DeleteNote(ctx context.Context, in DeleteNoteInput) error {
	s.mu.Lock()
	i := slices.IndexFunc(s.notes, func(n Note) bool { return n.ID == in.ID })
	if i < 0 {
		s.mu.Unlock()
		return fmt.Errorf("no note with ID %q", in.ID)
	}
	rest := slices.Delete(slices.Clone(s.notes), i, i+1)
	if err := s.save(rest, s.next); err != nil {
		s.mu.Unlock()
		return err
	}
	s.notes = rest
	s.mu.Unlock()
	s.notify(in.ID)
	return nil
}

func cmpOr[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}

func main() {
	//docs:begin loadenv
	var cfg Config
	if err := cfg.LoadEnv(os.Getenv); err != nil {
		fmt.Fprintf(os.Stderr, "notes: %v\n", err) // nothing is served
		os.Exit(2)
	}
	//docs:end loadenv
	notes, err := OpenStore(cfg.Dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "notes: %v\n", err)
		os.Exit(1)
	}
	cli.Main(newServer(notes),
		cli.WithRedis(func(ctx context.Context, url string) (store.Store, error) {
			return redis.Open(ctx, url, nil)
		}),
		cli.WithAuthorization(func(issuer string) (runtime.TokenVerifier, error) {
			return auth.NewJWTVerifier(auth.JWTConfig{Issuer: issuer})
		}))
}

// newServer serves store: the generated NewServer, with the notes listed
// as resources and clients told when they change.
func newServer(store *Store) *runtime.Server {
	srv := NewServer(store)
	srv.ListResources = store.ListNotes
	store.changed = func(id string) {
		srv.ResourceListChanged()
		srv.ResourceUpdated(noteURI(id))
	}
	return srv
}
