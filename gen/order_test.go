package gen

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// TestOutputIndependentOfLoadOrder: go/packages parses a package's files
// concurrently, so the token.Pos of a declaration says nothing stable
// about its place among the files. A package whose enum constants are
// spread over two files, presented to the generator in each order, must
// generate the same bytes: every order in the file comes from file names
// and offsets. (Ordering constants by token.Pos made mcpgen -check report
// the file it had just written as out of date 2 to 16 times in 20 runs.)
func TestOutputIndependentOfLoadOrder(t *testing.T) {
	dir := filepath.Join(testmodule.Root(), "testdata", "golden", "enum_rules")
	names := []string{"a.go", "b.go"}
	var outputs [][]byte
	for _, order := range [][]string{names, {names[1], names[0]}} {
		results, err := Generate(context.Background(), Config{Dir: dir, parseFile: inOrder(dir, order)})
		if err != nil || len(results) != 1 || results[0].Content == nil {
			t.Fatalf("generate: %v %+v", err, results)
		}
		outputs = append(outputs, results[0].Content)
	}
	if !bytes.Equal(outputs[0], outputs[1]) {
		t.Error("the generated file depends on the order in which the package's files are parsed")
	}
}

// inOrder returns a parser that, asked for any file of dir, parses the
// files named in order first, in that order, so that their positions in
// the file set follow it.
func inOrder(dir string, order []string) func(*token.FileSet, string, []byte) (*ast.File, error) {
	var (
		mu     sync.Mutex
		parsed map[string]*ast.File
	)
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		mu.Lock()
		defer mu.Unlock()
		if filepath.Dir(filename) != dir || !slices.Contains(order, filepath.Base(filename)) {
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
		}
		if parsed == nil {
			parsed = map[string]*ast.File{}
			for _, name := range order {
				path := filepath.Join(dir, name)
				data, err := os.ReadFile(path)
				if err != nil {
					return nil, err
				}
				f, err := parser.ParseFile(fset, path, data, parser.AllErrors|parser.ParseComments)
				if err != nil {
					return nil, err
				}
				parsed[name] = f
			}
		}
		return parsed[filepath.Base(filename)], nil
	}
}
