// Command attack-server is the server that cmd/attack attacks: a notes
// store whose tools, resources and roots callback reach every path the
// hardening issue names, written with mcpgen's directives only, so that
// the same source builds against any version of the runtime and the
// figures compare versions, not servers.
package main

//go:generate go tool mcpgen

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"sync"

	"github.com/mcpgen/mcpgen/runtime"
)

// A Store holds notes.
type Store struct {
	srv   *runtime.Server
	mu    sync.Mutex
	notes []string
}

// AddNoteInput is a note to add.
type AddNoteInput struct {
	Text string `json:"text"` // The note.
}

// AddNote adds a note, and tells the clients that the list of resources
// changed.
//
//mcp:tool add_note
func (s *Store) AddNote(ctx context.Context, in AddNoteInput) (string, error) {
	s.mu.Lock()
	s.notes = append(s.notes, in.Text)
	n := len(s.notes)
	s.mu.Unlock()
	s.srv.ResourceListChanged()
	return fmt.Sprintf("note %d added", n), nil
}

// NoteInput names a note.
type NoteInput struct {
	ID string `json:"id"` // The note's number.
}

// Note is one note.
//
//mcp:resource notes://{id}
func (s *Store) Note(ctx context.Context, in NoteInput) (string, error) {
	return "note " + in.ID, nil
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at `addr` instead of stdio")
	sessions := flag.Bool("sessions", false, "with -http, give clients sessions")
	flag.Parse()
	store := &Store{}
	s := NewServer(store)
	store.srv = s
	// The documented use of OnRootsChanged: ask the client for its roots.
	s.OnRootsChanged = func(ctx context.Context) { runtime.Roots(ctx) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if *addr != "" {
		err = s.ListenAndServeHTTP(ctx, *addr, &runtime.HTTPOptions{Sessions: *sessions})
	} else {
		err = s.ServeStdio(ctx)
	}
	if err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
