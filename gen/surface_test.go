package gen_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/surface"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// TestSurfacePositions: with Config.Surface, every part of the surface
// has the position of the declaration behind it (the directive, the
// struct, the field; through $defs too), which mcpgen -breaking reports
// a change at; without it, none is computed, and the snapshot only for a
// package that asks for it.
func TestSurfacePositions(t *testing.T) {
	root := testmodule.Root()
	cfg := gen.Config{Dir: root, Patterns: []string{"./" + goldenDir + "/surface", "./" + goldenDir + "/scopes"}}
	plain, err := gen.Generate(context.Background(), cfg)
	if err != nil || len(plain) != 2 {
		t.Fatalf("generate: %v", err)
	}
	for _, r := range plain {
		asks := r.PkgPath == "github.com/mcpgen/mcpgen/"+goldenDir+"/surface"
		if (r.Surface != nil) != asks || (r.SurfaceFile != nil) != asks || r.SurfacePositions != nil {
			t.Errorf("%s without Config.Surface: snapshot %t, file %t, positions %t; want the snapshot and its file only if the package asks", r.PkgPath, r.Surface != nil, r.SurfaceFile != nil, r.SurfacePositions != nil)
		}
	}

	cfg.Surface = true
	results, err := gen.Generate(context.Background(), cfg)
	if err != nil || len(results) != 2 {
		t.Fatalf("generate: %v", err)
	}
	for _, r := range results {
		if r.Surface == nil || r.SurfacePositions == nil {
			t.Fatalf("%s with Config.Surface: no snapshot or no positions", r.PkgPath)
		}
	}
	if results[0].SurfaceFile != nil && results[0].PkgPath != "github.com/mcpgen/mcpgen/"+goldenDir+"/surface" {
		t.Error("Config.Surface gave a snapshot file to a package that does not ask for one")
	}
	r := results[0]
	if r.PkgPath != "github.com/mcpgen/mcpgen/"+goldenDir+"/surface" {
		r = results[1]
	}
	for place, want := range map[string]string{
		surface.ServerPlace:                                                                         "surface.go:6:1",
		surface.VersionPlace:                                                                        "surface.go:6:32",
		surface.ToolPlace("open_ticket"):                                                            "surface.go:70:1",
		surface.SchemaPlace("open_ticket", "input", ""):                                             "surface.go:37:6",
		surface.SchemaPlace("open_ticket", "input", "/properties/title"):                            "surface.go:38:2",
		surface.SchemaPlace("open_ticket", "input", "/$defs/Person"):                                "surface.go:31:6",
		surface.SchemaPlace("open_ticket", "output", "/$defs/Person/properties/email"):              "surface.go:33:2",
		surface.SchemaPlace("search", "output", "/items/properties/owner/oneOf/0/properties/email"): "surface.go:33:2",
		surface.TemplatePlace("desk://tickets/{id}"):                                                "surface.go:80:1",
		surface.VariablePlace("desk://tickets/{id}", "id"):                                          "surface.go:60:2",
		surface.ArgumentPlace("triage", "days"):                                                     "surface.go:95:2",
	} {
		p, ok := r.SurfacePositions[place]
		if got := fmt.Sprintf("surface.go:%d:%d", p.Line, p.Column); !ok || got != want {
			t.Errorf("position of %q: %s (recorded: %t), want %s", place, got, ok, want)
		}
	}
}
