package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The notes on disk: Config.Dir holds notes.json, rewritten whole (to a
// temporary file, then renamed over it) after each change, so that a
// crash leaves the old notes or the new ones, never half of them.

// notesFile is the name of the file in Config.Dir.
const notesFile = "notes.json"

// saved is the content of notes.json.
type saved struct {
	Next  int    `json:"next"` // the number of the last note's ID
	Notes []Note `json:"notes"`
}

// OpenStore returns a store that keeps its notes in dir, with the notes
// already there; an empty dir keeps them in memory only.
func OpenStore(dir string) (*Store, error) {
	s := NewStore()
	if dir == "" {
		return s, nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("notes folder: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("notes folder %s is not a folder", dir)
	}
	s.file = filepath.Join(dir, notesFile)
	data, err := os.ReadFile(s.file)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	var sv saved
	if err := json.Unmarshal(data, &sv); err != nil {
		return nil, fmt.Errorf("%s: %w", s.file, err)
	}
	s.notes, s.next = sv.Notes, sv.Next
	return s, nil
}

// save writes notes to s's file, if it has one. It is called with s.mu
// held, before the store takes the change, so that the store and the
// file agree when the write fails.
func (s *Store) save(notes []Note, next int) error {
	if s.file == "" {
		return nil
	}
	data, err := json.MarshalIndent(saved{Next: next, Notes: notes}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.file), ".notes-*.json")
	if err != nil {
		return fmt.Errorf("saving the notes: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a rename, there is nothing to remove
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving the notes: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving the notes: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.file); err != nil {
		return fmt.Errorf("saving the notes: %w", err)
	}
	return nil
}
