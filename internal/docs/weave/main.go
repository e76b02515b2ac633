// Command weave builds the repository's documentation pages from their
// sources, so that every Go block a page shows is a file, or a region of a
// file, that the tests compile.
//
// Each source internal/docs/NAME.src.md becomes docs/NAME.md, and
// internal/docs/README.src.md becomes README.md. A source is Markdown in
// which a line
//
//	%include PATH -
//	%include PATH REGION
//
// stands for a fenced Go block holding the file PATH (relative to the
// repository's root) or its region REGION: the lines between the comments
// //docs:begin REGION and //docs:end REGION, dedented. Lines of such
// markers are left out of what a page shows. A source may not hold a
// fenced Go block of its own: weave refuses it, so that no page can show
// Go that was not compiled.
//
// Run it with go generate in its directory, or from anywhere inside the
// repository:
//
//	go run ./internal/docs/weave
//
// With -check it writes nothing, names each page that differs from what
// its source makes, and exits 1 if one does.
package main

//go:generate go run .

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	check := flag.Bool("check", false, "write nothing; exit 1 if a page is not what its source makes")
	flag.Parse()
	root, err := findRoot()
	if err != nil {
		fail(err)
	}
	ps, err := pages(root)
	if err != nil {
		fail(err)
	}
	stale := false
	for _, p := range ps {
		want, err := weave(root, p.src)
		if err != nil {
			fail(err)
		}
		have, err := os.ReadFile(filepath.Join(root, p.out))
		if err == nil && bytes.Equal(have, want) {
			continue
		}
		if *check {
			fmt.Fprintf(os.Stderr, "%s: not what %s makes: run go generate ./internal/docs/weave\n", p.out, p.src)
			stale = true
			continue
		}
		if err := os.WriteFile(filepath.Join(root, p.out), want, 0o644); err != nil {
			fail(err)
		}
	}
	if stale {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "weave: %v\n", err)
	os.Exit(2)
}

// findRoot returns the repository's root: the nearest directory, from the
// working directory up, that holds go.work.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.work in the working directory or above it: run weave inside the repository")
		}
		dir = parent
	}
}
