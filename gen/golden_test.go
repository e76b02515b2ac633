package gen_test

import (
	"bytes"
	"context"
	"flag"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

var update = flag.Bool("update", false, "rewrite the golden files: each case's mcp_gen.go and want/")

// goldenDir holds one directory per case: the input package, and what
// mcpgen must make of it: mcp_gen.go, the package's generated file, the
// install files (manifest.json, server.json, .mcp.json) of a package with
// //mcp:install, and in want/ one <constant>.json per schema constant (and
// skill's frontmatter) and diagnostics.txt when mcpgen reports anything. -update owns these files;
// the rest of the directory is the case's input.
const goldenDir = "testdata/golden"

// exampleCases are examples that are golden cases too, so that each
// exists once: their directories have the same layout.
var exampleCases = []string{"examples/greet", "examples/tickets"}

// TestGolden generates every case and compares the output with the files
// in its directory. Run go test ./gen -update to rewrite them, then review
// the diff as you would code.
func TestGolden(t *testing.T) {
	root := testmodule.Root()
	cases := goldenCases(t, root)
	results := generateCases(t, root, cases)

	var compile []string
	for _, name := range cases {
		dir := filepath.Join(root, name)
		r := results[name]
		t.Run(name, func(t *testing.T) {
			if r == nil {
				t.Fatal("mcpgen produced no result for this package")
			}
			want := map[string][]byte{}
			if r.Content != nil {
				if formatted, err := format.Source(r.Content); err != nil || !bytes.Equal(formatted, r.Content) {
					t.Errorf("the generated file is not gofmt-clean (%v)", err)
				}
				want[gen.DefaultOutput] = r.Content
				for _, f := range r.Install {
					want[filepath.Base(f.Path)] = f.Content
				}
				if r.SurfaceFile != nil {
					want[gen.SurfaceFile] = r.SurfaceFile.Content
				}
				for name, schema := range schemaConsts(t, r.Content) {
					want[filepath.Join(wantDir, name+".json")] = []byte(schema + "\n")
				}
				compile = append(compile, "./"+name)
			}
			var diags strings.Builder
			for _, d := range r.Diagnostics {
				diags.WriteString(d.Format(dir) + "\n")
			}
			if diags.Len() > 0 {
				want[filepath.Join(wantDir, "diagnostics.txt")] = []byte(diags.String())
			}
			if *update {
				writeGolden(t, dir, want)
				return
			}
			checkGolden(t, dir, want)
		})
	}
	if t.Failed() || *update {
		return
	}

	t.Run("deterministic", func(t *testing.T) {
		again := generateCases(t, root, cases)
		for _, name := range cases {
			if !bytes.Equal(results[name].Content, again[name].Content) {
				t.Errorf("%s: a second run generated different bytes", name)
			}
		}
	})
	// The descriptions of another package's types must not depend on how
	// the go command built it: with -trimpath, export data holds no usable
	// file names.
	t.Run("trimpath", func(t *testing.T) {
		trimmed, err := gen.Generate(context.Background(), gen.Config{
			Dir:      root,
			Patterns: []string{"./" + goldenDir + "/other_package"},
			Env:      append(os.Environ(), "GOFLAGS=-trimpath"),
		})
		if err != nil || len(trimmed) != 1 {
			t.Fatalf("generate: %v", err)
		}
		if !bytes.Equal(trimmed[0].Content, results[goldenDir+"/other_package"].Content) {
			t.Error("other_package generates differently with GOFLAGS=-trimpath")
		}
	})
	t.Run("compiles", func(t *testing.T) {
		cmd := exec.Command("go", append([]string{"vet"}, compile...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go vet of the generated cases failed: %v\n%s", err, out)
		}
	})
}

// wantDir is the directory of a case's wanted outputs other than its
// generated file.
const wantDir = "want"

// goldenCases lists the cases' directories, relative to root.
func goldenCases(t *testing.T, root string) []string {
	entries, err := os.ReadDir(filepath.Join(root, goldenDir))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, goldenDir+"/"+e.Name())
		}
	}
	if len(cases) < 20 {
		t.Fatalf("found %d golden cases; the suite needs at least 20", len(cases))
	}
	return append(cases, exampleCases...)
}

// generateCases runs the generator over every case in one load, as
// mcpgen ./... would.
func generateCases(t *testing.T, root string, cases []string) map[string]*gen.Result {
	var patterns []string
	for _, c := range cases {
		patterns = append(patterns, "./"+c)
	}
	results, err := gen.Generate(context.Background(), gen.Config{Dir: root, Patterns: patterns})
	if err != nil {
		t.Fatal(err)
	}
	byCase := map[string]*gen.Result{}
	for _, r := range results {
		byCase[strings.TrimPrefix(r.PkgPath, "github.com/mcpgen/mcpgen/")] = r
	}
	return byCase
}

// schemaConsts returns the schema constants of a generated file, and the
// frontmatters of its skills, by name.
func schemaConsts(t *testing.T, src []byte) map[string]string {
	f, err := parser.ParseFile(token.NewFileSet(), gen.DefaultOutput, src, 0)
	if err != nil {
		t.Fatalf("generated file does not parse: %v", err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			name := vs.Names[0].Name
			if !strings.HasSuffix(name, "Schema") && !strings.HasSuffix(name, "Frontmatter") {
				continue
			}
			out[name] = constString(t, vs.Values[0])
		}
	}
	return out
}

// constString evaluates a string literal or a + of string literals.
func constString(t *testing.T, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			t.Fatal(err)
		}
		return s
	case *ast.BinaryExpr:
		return constString(t, e.X) + constString(t, e.Y)
	}
	t.Fatalf("schema constant is not a string literal: %T", e)
	return ""
}

// owned lists the files of a case directory that the golden test owns:
// the generated file, the install files, the surface snapshot and
// everything in want/.
func owned(dir string) []string {
	names := []string{gen.DefaultOutput, gen.ManifestFile, gen.RegistryFile, gen.ClaudeFile, gen.SurfaceFile}
	entries, _ := os.ReadDir(filepath.Join(dir, wantDir))
	for _, e := range entries {
		names = append(names, filepath.Join(wantDir, e.Name()))
	}
	return names
}

func writeGolden(t *testing.T, dir string, want map[string][]byte) {
	for _, name := range owned(dir) {
		if want[name] == nil {
			os.Remove(filepath.Join(dir, name))
		}
	}
	os.Remove(filepath.Join(dir, wantDir)) // if nothing is wanted there any more
	for name, data := range want {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func checkGolden(t *testing.T, dir string, want map[string][]byte) {
	for _, name := range owned(dir) {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil && want[name] == nil {
			t.Errorf("%s: mcpgen no longer produces this file (go test ./gen -update removes it)", name)
		}
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: missing: run go test ./gen -update", name)
			continue
		}
		if !bytes.Equal(got, want[name]) {
			t.Errorf("%s differs from what mcpgen generates now; if the change is intended, run go test ./gen -update and review the diff\n--- golden\n+++ generated\n%s", name, lineDiff(string(got), string(want[name])))
		}
	}
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n-" + x + "\n+" + y
		}
	}
	return ""
}
