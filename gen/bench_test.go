package gen

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// manyTools writes a package of n tools, each with its own input struct
// (strings, numbers, an enum, a nested struct, a list) and doc comments.
func manyTools(n int) string {
	var b strings.Builder
	b.WriteString("// Package many has many tools.\npackage many\n\nimport \"context\"\n\n")
	b.WriteString("// Level is an enum.\ntype Level string\n\nconst (\n\tLow Level = \"low\"\n\tHigh Level = \"high\"\n)\n\n")
	b.WriteString("// Address is shared by the inputs.\ntype Address struct {\n\tStreet string `json:\"street\"` // Street and number.\n\tCity string `json:\"city\"`\n}\n\n")
	for i := range n {
		fmt.Fprintf(&b, `// Input%[1]d is the input of tool %[1]d.
type Input%[1]d struct {
	Name  string   `+"`json:\"name\" jsonschema:\"minLength=1\"`"+` // Name of the thing.
	Count int      `+"`json:\"count,omitempty\" jsonschema:\"minimum=0,maximum=100\"`"+`
	Level Level    `+"`json:\"level\"`"+`
	Home  *Address `+"`json:\"home,omitempty\"`"+`
	Tags  []string `+"`json:\"tags,omitempty\"`"+` // Free-form tags.
}

// Tool%[1]d does thing number %[1]d.
//
//mcp:tool
func Tool%[1]d(ctx context.Context, in Input%[1]d) (string, error) { return in.Name, nil }

`, i)
	}
	return b.String()
}

// BenchmarkGenerate measures a whole generation of a 200-tool package
// (load, model, schemas, emit). Compare it with BenchmarkLoad, the bare
// go/packages load of the same package, which is the floor.
func BenchmarkGenerate(b *testing.B) {
	dir := testmodule.New(b, "example.com/many", map[string]string{"many.go": manyTools(200)})
	cfg := Config{Dir: dir}
	for b.Loop() {
		results, err := Generate(context.Background(), cfg)
		if err != nil || len(results) != 1 || results[0].Content == nil {
			b.Fatalf("generate: %v %v", err, results)
		}
	}
}

// BenchmarkLoad is the go/packages load alone, with the mode mcpgen uses.
func BenchmarkLoad(b *testing.B) {
	dir := testmodule.New(b, "example.com/many", map[string]string{"many.go": manyTools(200)})
	cfg := &packages.Config{Dir: dir, Mode: loadMode}
	for b.Loop() {
		pkgs, err := packages.Load(cfg, ".")
		if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
			b.Fatalf("load: %v %v", err, pkgs)
		}
	}
}

// BenchmarkGenerator measures the generator's own work on a 200-tool
// package loaded once: model, schemas and emit, without the go/packages
// load that BenchmarkLoad measures. On a shared machine, where the load
// (a go list subprocess) varies most, this is the part mcpgen controls.
func BenchmarkGenerator(b *testing.B) {
	dir := testmodule.New(b, "example.com/many", map[string]string{"many.go": manyTools(200)})
	pkgs, err := load(context.Background(), Config{Dir: dir})
	if err != nil || len(pkgs) != 1 {
		b.Fatalf("load: %v", err)
	}
	for b.Loop() {
		if r := generatePackage(pkgs[0]); r == nil || r.Content == nil {
			b.Fatalf("generate: %v", r)
		}
	}
}

// BenchmarkGeneratorSurface is BenchmarkGenerator for the same package
// asking for its surface snapshot (//mcp:server surface): the difference
// between the two is what the snapshot costs.
func BenchmarkGeneratorSurface(b *testing.B) {
	src := strings.Replace(manyTools(200), "package many\n", "//\n//mcp:server surface\npackage many\n", 1)
	dir := testmodule.New(b, "example.com/many", map[string]string{"many.go": src})
	pkgs, err := load(context.Background(), Config{Dir: dir})
	if err != nil || len(pkgs) != 1 {
		b.Fatalf("load: %v", err)
	}
	for b.Loop() {
		if r := generatePackage(pkgs[0]); r == nil || r.Content == nil || r.SurfaceFile == nil {
			b.Fatalf("generate: %v", r)
		}
	}
}

// BenchmarkSurface measures the snapshot alone, for a 200-tool package
// whose schemas are built: what BenchmarkGeneratorSurface adds to
// BenchmarkGenerator, without the noise of the rest.
func BenchmarkSurface(b *testing.B) {
	dir := testmodule.New(b, "example.com/many", map[string]string{"many.go": manyTools(200)})
	pkgs, err := load(context.Background(), Config{Dir: dir})
	if err != nil || len(pkgs) != 1 {
		b.Fatalf("load: %v", err)
	}
	m := newPass(pkgs[0]).buildModel()
	m.buildSchemas()
	size := 0
	for b.Loop() {
		size = len(encodeSurface(m.surface()))
	}
	b.ReportMetric(float64(size), "snapshot-bytes")
}
