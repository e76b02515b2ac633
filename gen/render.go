package gen

import (
	"bytes"
	"cmp"
	"fmt"
	"runtime/debug"
	"slices"
)

// The generated file is rendered in three parts, joined in this order:
// the code (header, imports, guards, NewServer, Register, methods), the
// decoders, and the schema constants. gofmt, which jennifer runs on what
// it renders, takes longer over a 200-tool file than the rest of the
// generator together (BENCHMARKS.md, "jennifer writes the generated
// file"); rendered apart, the decoders (half of gofmt's work on the
// code) and the constants (half the file's bytes, which need no
// formatting) take another core while jennifer renders the code.
//
// The code is a file that jennifer renders whole: package clause, the
// imports its names need, declarations. The decoders render against a
// file of their own, to which qual gives the same import names; the
// imports they need are the code's, since a decoder names only mcpimpl
// (which the code names first), decoders, and the struct it fills, a
// struct the code guards under the same name (decoderSet.generated). A
// schema constant names nothing of another package, and a raw string
// constant is in gofmt's layout as jennifer writes it unformatted (a
// comment line, then const name = `…`, whose other lines are the
// string's own), so the constants are formatted only when one must be
// quoted lines joined with +.

// render renders the three parts and joins them.
func (e *emitter) render() ([]byte, error) {
	decoders, consts := make(chan rendered, 1), make(chan rendered, 1)
	go func() { decoders <- renderSafely(e.renderDecoders) }()
	go func() { consts <- renderSafely(e.renderConsts) }()
	var code bytes.Buffer
	err := e.f.Render(&code)
	d, c := <-decoders, <-consts
	if err := cmp.Or(err, d.err, c.err); err != nil {
		return nil, err
	}
	file := slices.Grow(code.Bytes(), len(d.text)+len(c.text)+2)
	for _, part := range [][]byte{d.text, c.text} {
		if len(part) > 0 {
			file = append(file, '\n') // the empty line between declarations
			file = append(file, part...)
		}
	}
	return file, nil
}

// renderDecoders renders the decoders' declarations, formatted, against
// their own file's import names.
func (e *emitter) renderDecoders() ([]byte, error) {
	var b bytes.Buffer
	if err := e.decoders.Group.RenderWithFile(&b, e.decoders); err != nil {
		return nil, err
	}
	return declarations(b.Bytes()), nil
}

// renderConsts renders the schema constants' declarations, formatted only
// when one is not a raw string (schemaConsts sets NoFormat). jennifer renders a file that imports
// nothing as package <name>, an empty line, then the declarations, each
// on a new line.
func (e *emitter) renderConsts() ([]byte, error) {
	var b bytes.Buffer
	if err := e.consts.Render(&b); err != nil {
		return nil, err
	}
	decls, ok := bytes.CutPrefix(b.Bytes(), []byte("package "+e.m.pkg.Name()+"\n\n"))
	if !ok {
		return nil, fmt.Errorf("jennifer rendered %.40q, not a package clause then declarations", b.Bytes())
	}
	return declarations(decls), nil
}

// declarations trims rendered declarations to start with the first one's
// first line and end with a newline, or to nothing.
func declarations(b []byte) []byte {
	b = bytes.TrimLeft(b, "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}

// rendered is Go source, or why it could not be rendered.
type rendered struct {
	text []byte
	err  error
}

// renderSafely calls render, turning a panic into an error: on a goroutine
// of its own, a panic would end the program rather than become the
// internal-error diagnostic of generatePackage.
func renderSafely(render func() ([]byte, error)) (r rendered) {
	defer func() {
		if v := recover(); v != nil {
			r.err = fmt.Errorf("%v\n%s", v, debug.Stack())
		}
	}()
	r.text, r.err = render()
	return r
}
