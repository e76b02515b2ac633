package claude_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/sdkdts"
)

// TestDocsSDKTable checks docs/agent-sdk.md's tables of the TypeScript Agent SDK's
// Options members, Query methods, exported functions and hook events
// against the pinned SDK's sdk.d.ts, so that drift shows: every member of
// the SDK has a row, every name a row gives is the SDK's, every Go name it
// gives exists in this package, and every test it cites exists.
func TestDocsSDKTable(t *testing.T) {
	api := pinnedSDK(t)
	page, err := os.ReadFile("../../docs/agent-sdk.md")
	if err != nil {
		t.Fatal(err)
	}
	sdk := map[string][]string{
		"options":   sdkdts.Names(api.Options),
		"query":     sdkdts.Names(api.Query),
		"functions": sdkdts.Names(api.Functions),
		"hooks":     api.HookEvents,
	}
	// The counts in 0.3.332 (0.3.330 had the same, but 33 hook events).
	for kind, n := range map[string]int{"options": 70, "query": 30, "functions": 21, "hooks": 34} {
		if len(sdk[kind]) != n {
			t.Errorf("sdk.d.ts has %d %s, want %d: is the parser still right?", len(sdk[kind]), kind, n)
		}
	}
	goNames := goDecls(t)
	tests := testNames(t)
	for kind, names := range sdk {
		rows := table(t, string(page), kind)
		listed := map[string]bool{}
		for _, row := range rows {
			for _, name := range backticked(row[0]) {
				if !slices.Contains(names, name) {
					t.Errorf("docs/agent-sdk.md %s table: %q is not in sdk.d.ts %s", kind, name, claudetest.AgentSDKVersion)
				}
				listed[name] = true
			}
			for _, name := range backticked(row[1]) {
				if !goNames.has(name) {
					t.Errorf("docs/agent-sdk.md %s table, row %s: the Go name %q does not exist", kind, row[0], name)
				}
			}
			for _, name := range regexp.MustCompile(`\bTest\w+`).FindAllString(row[2], -1) {
				if !tests[name] {
					t.Errorf("docs/agent-sdk.md %s table, row %s: the test %s does not exist", kind, row[0], name)
				}
			}
		}
		for _, name := range names {
			if !listed[name] {
				t.Errorf("docs/agent-sdk.md %s table has no row for %q of sdk.d.ts %s", kind, name, claudetest.AgentSDKVersion)
			}
		}
	}
}

// TestSDKConstants: the Go constants of the hook events and of the
// start-up failure reasons are those of the pinned SDK's sdk.d.ts
// (HOOK_EVENTS, SDKStartupFailureReason), none missing and none extra.
func TestSDKConstants(t *testing.T) {
	api := pinnedSDK(t)
	consts := goConstants(t)
	for _, c := range []struct {
		goType string
		sdk    []string
	}{
		{"HookEvent", api.HookEvents},
		{"StartupFailureReason", api.StartupFailureReasons},
	} {
		for _, v := range c.sdk {
			if !slices.Contains(consts[c.goType], v) {
				t.Errorf("no %s constant is %q of sdk.d.ts %s", c.goType, v, claudetest.AgentSDKVersion)
			}
		}
		for _, v := range consts[c.goType] {
			if !slices.Contains(c.sdk, v) {
				t.Errorf("the %s constant %q is not in sdk.d.ts %s", c.goType, v, claudetest.AgentSDKVersion)
			}
		}
	}
}

// pinnedSDK parses the pinned SDK's sdk.d.ts.
func pinnedSDK(t *testing.T) *sdkdts.API {
	t.Helper()
	dts, err := os.ReadFile(claudetest.AgentSDK(t))
	if err != nil {
		t.Fatal(err)
	}
	api, err := sdkdts.Parse(string(dts))
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// table returns the cells of the rows of the page's table marked
// <!-- sdk-table:kind -->, without its header.
func table(t *testing.T, page, kind string) [][]string {
	marker := "<!-- sdk-table:" + kind + " -->\n"
	i := strings.Index(page, marker)
	if i < 0 {
		t.Fatalf("docs/agent-sdk.md has no %q", marker)
	}
	var rows [][]string
	sc := bufio.NewScanner(strings.NewReader(page[i+len(marker):]))
	for n := 0; sc.Scan() && strings.HasPrefix(sc.Text(), "|"); n++ {
		if n < 2 {
			continue // the header and its rule
		}
		cells := strings.Split(strings.Trim(sc.Text(), "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("docs/agent-sdk.md %s table: a row without three cells: %s", kind, sc.Text())
		}
		rows = append(rows, cells)
	}
	return rows
}

// backticked returns the names in backticks in cell that look like
// identifiers, qualified or not ("Options", "Session.SetModel",
// "*StreamEvent"); other code (flags, JSON) is left out.
func backticked(cell string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cell, -1) {
		name := strings.TrimPrefix(m[1], "*")
		if regexp.MustCompile(`^[A-Za-z_]\w*(\.\w+)?$`).MatchString(name) {
			out = append(out, name)
		}
	}
	return out
}

// decls are the exported names of package claude: top-level ones, and
// Type.Member for methods and struct fields.
type decls map[string]bool

// has reports whether name, as the page's Go column gives it, exists:
// a top-level name, Type.Member, or a field of Options. Names of other
// packages (runtime.Server) and lower-case words (ctx) are not checked.
func (d decls) has(name string) bool {
	if first := name[:1]; strings.ToLower(first) == first {
		return true
	}
	return d[name] || d["Options."+name]
}

// packageFiles parses the package's own files, its tests left out.
func packageFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	return pkgs["claude"].Files
}

// goConstants are the values of the package's string constants, by the
// name of their declared type.
func goConstants(t *testing.T) map[string][]string {
	out := map[string][]string{}
	for _, f := range packageFiles(t) {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				typ, ok := vs.Type.(*ast.Ident)
				if !ok {
					continue
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						out[typ.Name] = append(out[typ.Name], s)
					}
				}
			}
		}
	}
	return out
}

// goDecls parses the package's own files.
func goDecls(t *testing.T) decls {
	d := decls{}
	for _, f := range packageFiles(t) {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					d[decl.Name.Name] = true
					continue
				}
				recv := decl.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					d[id.Name+"."+decl.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						d[spec.Name.Name] = true
						if st, ok := spec.Type.(*ast.StructType); ok {
							for _, field := range st.Fields.List {
								for _, n := range field.Names {
									d[spec.Name.Name+"."+n.Name] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							d[n.Name] = true
						}
					}
				}
			}
		}
	}
	return d
}

// testNames are the test functions of the repository.
func testNames(t *testing.T) map[string]bool {
	names := map[string]bool{}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "../.." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				names[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}
