package gen

import (
	"context"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"go.uber.org/goleak"

	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// renderModel loads a package of three tools and builds its model and
// schemas, ready to emit.
func renderModel(t *testing.T) *model {
	t.Helper()
	dir := testmodule.New(t, "example.com/many", map[string]string{"many.go": manyTools(3)})
	pkgs, err := load(context.Background(), Config{Dir: dir})
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("load: %v", err)
	}
	m := newPass(pkgs[0]).buildModel()
	m.buildSchemas()
	return m
}

// TestRenderLeavesNoGoroutine: emit renders the decoders and the schema
// constants on goroutines of their own, which have all ended when it
// returns, with the file or with an error.
func TestRenderLeavesNoGoroutine(t *testing.T) {
	m := renderModel(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	if src, err := emit(m); err != nil || !strings.Contains(string(src), "func decodeInput2(") || !strings.Contains(string(src), "const tool2InputSchema = `{") {
		t.Fatalf("emit: %v\n%s", err, src)
	}

	// Code that does not parse, in each part, is an error, not a file.
	for _, part := range []string{"code", "decoders", "constants"} {
		e := newEmitter(m)
		e.f.HeaderComment(Header)
		f := map[string]*jen.File{"code": e.f, "decoders": e.decoders, "constants": e.consts}[part]
		f.Func().Id("broken").Op("{")
		if _, err := e.render(); err == nil {
			t.Errorf("%s that do not parse: no error", part)
		}
	}
}

// TestRenderPanicIsError: a panic while a part renders on its own
// goroutine (jennifer panics on a literal of a type it cannot write) is
// an error of emit, which generatePackage reports as an internal error,
// instead of the end of the program.
func TestRenderPanicIsError(t *testing.T) {
	m := renderModel(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	for _, part := range []string{"decoders", "constants"} {
		e := newEmitter(m)
		e.f.HeaderComment(Header)
		f := map[string]*jen.File{"decoders": e.decoders, "constants": e.consts}[part]
		f.Var().Id("x").Op("=").Lit(struct{}{})
		if _, err := e.render(); err == nil || !strings.Contains(err.Error(), "unsupported type for literal") {
			t.Errorf("%s: a panic while rendering: error %v", part, err)
		}
	}
}
