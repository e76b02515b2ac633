package runtime_test

import (
	"bytes"
	"encoding/json"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// apiPackages are the packages whose exported API users read in go doc.
var apiPackages = []string{
	"github.com/mcpgen/mcpgen/runtime",
	"github.com/mcpgen/mcpgen/runtime/claude",
	"github.com/mcpgen/mcpgen/runtime/store",
}

// TestNoInternalTypesInAPI: no exported name of runtime, runtime/claude
// or runtime/store names a type of an internal package in its signature
// (a function's parameters and results, a method's, a field's type, a
// variable's, a promoted method's): users cannot name such a type, and go
// doc shows them an API they cannot call. What the Claude Code host needs
// of a server and no program should call goes through
// runtime/internal/bridge instead.
func TestNoInternalTypesInAPI(t *testing.T) {
	exports := exportData(t, apiPackages)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(file)
	})
	for _, path := range apiPackages {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("importing %s: %v", path, err)
		}
		for _, leak := range internalLeaks(pkg) {
			t.Errorf("%s: %s", path, leak)
		}
	}
}

// exportData returns the files of the compiler's export data of pkgs and
// of everything they import, by import path (go list -export).
func exportData(t *testing.T, pkgs []string) map[string]string {
	t.Helper()
	args := append([]string{"list", "-export", "-deps", "-json=ImportPath,Export"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	files := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		files[p.ImportPath] = p.Export
	}
	return files
}

// internalLeaks lists the exported names of pkg whose signatures name a
// type of an internal package, each with the type.
func internalLeaks(pkg *types.Package) []string {
	var leaks []string
	report := func(name string, typ types.Type) {
		if bad := internalType(typ, map[types.Type]bool{}); bad != "" {
			leaks = append(leaks, name+" names "+bad)
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok {
				report(name, obj.Type().Underlying())
				continue
			}
			switch u := named.Underlying().(type) {
			case *types.Struct:
				for f := range u.Fields() {
					if f.Exported() {
						report(name+"."+f.Name(), f.Type())
					}
				}
			case *types.Interface:
				for m := range u.Methods() {
					if m.Exported() {
						report(name+"."+m.Name(), m.Type())
					}
				}
			default:
				report(name, u)
			}
			ms := types.NewMethodSet(types.NewPointer(named))
			for sel := range ms.Methods() {
				if sel.Obj().Exported() {
					report(name+"."+sel.Obj().Name(), sel.Type())
				}
			}
		default: // a func, var or const
			report(name, obj.Type())
		}
	}
	return leaks
}

// internalType returns the first type of an internal package that typ
// names, looking through composite types and signatures; "" when none.
func internalType(typ types.Type, seen map[types.Type]bool) string {
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch t := typ.(type) {
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil && isInternal(p.Path()) {
			return t.String()
		}
		for targ := range t.TypeArgs().Types() {
			if bad := internalType(targ, seen); bad != "" {
				return bad
			}
		}
		return "" // a type of its own package is checked where it is declared
	case *types.Alias:
		if p := t.Obj().Pkg(); p != nil && isInternal(p.Path()) {
			return t.String()
		}
		return internalType(types.Unalias(t), seen)
	case *types.Pointer:
		return internalType(t.Elem(), seen)
	case *types.Slice:
		return internalType(t.Elem(), seen)
	case *types.Array:
		return internalType(t.Elem(), seen)
	case *types.Map:
		if bad := internalType(t.Key(), seen); bad != "" {
			return bad
		}
		return internalType(t.Elem(), seen)
	case *types.Chan:
		return internalType(t.Elem(), seen)
	case *types.Signature:
		for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
			for v := range tuple.Variables() {
				if bad := internalType(v.Type(), seen); bad != "" {
					return bad
				}
			}
		}
	case *types.Struct:
		for f := range t.Fields() {
			if bad := internalType(f.Type(), seen); bad != "" {
				return bad
			}
		}
	case *types.Interface:
		for m := range t.Methods() {
			if bad := internalType(m.Type(), seen); bad != "" {
				return bad
			}
		}
	}
	return ""
}

// isInternal reports whether path is an internal package, or below one.
func isInternal(path string) bool {
	return strings.HasSuffix(path, "/internal") || strings.Contains(path, "/internal/") || strings.HasPrefix(path, "internal/")
}
