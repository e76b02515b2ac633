package genbench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/bench/internal/manysrc"
	"github.com/mcpgen/mcpgen/gen"
)

// loadMode is gen's loadMode (gen/load.go), which is unexported: syntax
// for the directives and doc comments, types for the signatures and
// schemas. Keep the two in step.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo

var sizes = []int{10, 50, 200}

// repoRoot is the mcpgen repository, the parent of the bench module.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// module writes a module with the n-tool package, as
// internal/testmodule.New does for gen's own benchmark: a go.mod that
// requires mcpgen from this repository, and its go.sum.
func module(b *testing.B, n int) string {
	dir := b.TempDir()
	root := repoRoot()
	gomod := "module example.com/many\n\ngo 1.26.0\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		b.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "many.go": []byte(manysrc.ManyTools(n))} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o666); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkGenerate measures a whole generation (load, model, schemas,
// emit) of an n-tool package, in memory.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			cfg := gen.Config{Dir: module(b, n)}
			generate := func() {
				results, err := gen.Generate(context.Background(), cfg)
				if err != nil || len(results) != 1 || results[0].Content == nil {
					b.Fatalf("generate: %v %v", err, results)
				}
			}
			generate() // warm the go command's caches, as for the load
			for b.Loop() {
				generate()
			}
		})
	}
}

// BenchmarkLoad is the go/packages load alone, with the mode mcpgen uses.
func BenchmarkLoad(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			cfg := &packages.Config{Dir: module(b, n), Mode: loadMode}
			load := func() {
				pkgs, err := packages.Load(cfg, ".")
				if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
					b.Fatalf("load: %v %v", err, pkgs)
				}
			}
			load()
			for b.Loop() {
				load()
			}
		})
	}
}

// BenchmarkGenerateVsLoad alternates a generation and a bare load of the
// same package in every iteration, so that a busy machine slows both
// alike, and reports each one's time and their ratio (the target is at
// most 1.7 at 200 tools). ns/op is the pair.
func BenchmarkGenerateVsLoad(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			dir := module(b, n)
			cfg := gen.Config{Dir: dir}
			pcfg := &packages.Config{Dir: dir, Mode: loadMode}
			generate := func() {
				results, err := gen.Generate(context.Background(), cfg)
				if err != nil || len(results) != 1 || results[0].Content == nil {
					b.Fatalf("generate: %v %v", err, results)
				}
			}
			load := func() {
				pkgs, err := packages.Load(pcfg, ".")
				if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
					b.Fatalf("load: %v %v", err, pkgs)
				}
			}
			generate()
			load()
			var genTime, loadTime time.Duration
			i := 0
			for b.Loop() {
				// Alternate which goes first, so that neither always runs
				// right after the other's garbage.
				if i%2 == 0 {
					genTime += timed(generate)
					loadTime += timed(load)
				} else {
					loadTime += timed(load)
					genTime += timed(generate)
				}
				i++
			}
			b.ReportMetric(float64(genTime.Nanoseconds())/float64(i), "gen-ns/op")
			b.ReportMetric(float64(loadTime.Nanoseconds())/float64(i), "load-ns/op")
			b.ReportMetric(float64(genTime)/float64(loadTime), "gen/load")
		})
	}
}

func timed(f func()) time.Duration {
	t := time.Now()
	f()
	return time.Since(t)
}
