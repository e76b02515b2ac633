package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestContributingMap: CONTRIBUTING.md's "Where things are" names every
// non-test .go file of the repository (outside testdata) in the entry of
// its directory, a bullet that begins with the directory in backquotes,
// and names no file that is not there. A file added, moved or removed
// without the map fails here.
func TestContributingMap(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := mapEntries(t, string(data))
	files := map[string][]string{} // by directory, relative to root
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			files[filepath.ToSlash(rel)] = append(files[filepath.ToSlash(rel)], name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, names := range files {
		entry, ok := named[dir]
		if !ok {
			t.Errorf("CONTRIBUTING.md has no entry for %s/ (files %s)", dir, strings.Join(names, ", "))
			continue
		}
		for _, name := range names {
			if !slices.Contains(entry, name) {
				t.Errorf("CONTRIBUTING.md does not name %s/%s in the entry of %s/", dir, name, dir)
			}
		}
	}
	for dir, entry := range named {
		for _, name := range entry {
			if !slices.Contains(files[dir], name) {
				t.Errorf("CONTRIBUTING.md names %s/%s, which is not there", dir, name)
			}
		}
	}
}

var (
	// entryDir is a directory that an entry is about: in backquotes, with
	// a trailing slash.
	entryDir = regexp.MustCompile("`([a-z0-9._/-]+)/`")
	// fileName is a file named in an entry: a .go name in backquotes,
	// without a directory.
	fileName = regexp.MustCompile("`([a-zA-Z0-9_]+\\.go)`")
)

// mapEntries reads the section "Where things are" of CONTRIBUTING.md: a
// bullet is an entry, and the files it names after a directory in
// backquotes belong to that directory, up to the next directory it names
// or the end of the bullet.
func mapEntries(t *testing.T, doc string) map[string][]string {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Where things are\n")
	if !ok {
		t.Fatal(`CONTRIBUTING.md has no section "## Where things are"`)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	entries := map[string][]string{}
	for _, bullet := range strings.Split(section, "\n- ") {
		bullet, _, _ = strings.Cut(bullet, "\n\n") // a paragraph after the list is no entry
		dir := ""
		for _, m := range regexp.MustCompile("`[^`]+`").FindAllString(bullet, -1) {
			if d := entryDir.FindStringSubmatch(m); d != nil {
				dir = d[1]
				if _, ok := entries[dir]; !ok {
					entries[dir] = []string{}
				}
				continue
			}
			if f := fileName.FindStringSubmatch(m); f != nil && dir != "" {
				entries[dir] = append(entries[dir], f[1])
			}
		}
	}
	return entries
}
