// Package recursive: recursive types terminate through $defs, including a
// root type that refers to itself and two types that refer to each other.
package recursive

// Tree is a node of a tree.
type Tree struct {
	Label    string `json:"label"`
	Children []Tree `json:"children,omitempty"`
	Parent   *Tree  `json:"parent,omitempty"`
}

// Folder holds files and folders.
type Folder struct {
	Name  string `json:"name"`
	Files []File `json:"files,omitempty"`
}

// File belongs to a folder.
type File struct {
	Name   string  `json:"name"`
	Folder *Folder `json:"folder,omitempty"`
}

// Walk walks a tree.
//
//mcp:tool
func Walk(in Tree) (string, error) { return "", nil }

// List lists a folder.
//
//mcp:tool
func List(in Folder) (string, error) { return "", nil }

// Forest returns trees: a list of a recursive type, whose schema needs
// $defs, which a client of a revision before 2026-07-28 cannot resolve
// once the runtime wraps the list; a warning says so.
//
//mcp:tool
func Forest() ([]Tree, error) { return nil, nil }
