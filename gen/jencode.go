package gen

import (
	"go/constant"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Go that jennifer has no one call for. jennifer's Lit writes a string
// quoted and a number of a sized type converted (int64(3)); the generated
// file shows a schema and a struct tag as raw strings, as a person would
// write them, and a constant's value exactly. Such a literal is one Go
// token that jennifer writes as it is given (Op); literal is the only
// place that hands it one, and its callers give it only literal tokens.

// literal is tok, a Go literal token, as jennifer code.
func literal(tok string) jen.Code {
	return jen.Op(tok)
}

// canBeRaw reports whether s can be written as a raw string literal: it
// holds no backquote and no carriage return (which a raw string drops).
func canBeRaw(s string) bool {
	return !strings.ContainsAny(s, "`\r")
}

// schemaLit is a schema as a raw string literal, so that it reads as JSON
// in the file and in a diff; or, when it cannot be one, as quoted lines
// joined with +.
func schemaLit(s string) jen.Code {
	if canBeRaw(s) {
		return literal("`" + s + "`")
	}
	code := jen.Null()
	for i, line := range strings.SplitAfter(s, "\n") {
		if i > 0 {
			code.Op("+").Line()
		}
		code.Lit(line)
	}
	return code
}

// tagLit is a struct tag as the user would write it: a raw string, or a
// quoted one when it holds what a raw string cannot.
func tagLit(tag string) jen.Code {
	if canBeRaw(tag) {
		return literal("`" + tag + "`")
	}
	return jen.Lit(tag)
}

// constLit is the value of an integer or string constant, exactly: an
// integer constant may not fit any Go integer type.
func constLit(v constant.Value) jen.Code {
	if v.Kind() == constant.String {
		return jen.Lit(constant.StringVal(v))
	}
	return literal(v.ExactString())
}

// elements is the body of a composite literal with one element per line,
// each followed by a comma:
//
//	{
//		Name: "greet",
//		Handler: …,
//	}
//
// (jennifer's Values writes the elements on one line, and its Dict sorts
// them by key.)
func elements(es ...jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, es...)
}

// oneLine is a function body of one statement on the line of its
// signature, { return x }, as gofmt keeps a short one (jennifer's Block
// puts each statement on a line of its own).
func oneLine(stmt jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}"}, stmt)
}

// field is the element key: value of a struct literal.
func field(key string, value jen.Code) *jen.Statement {
	return jen.Id(key).Op(":").Add(value)
}

// comments writes a comment of one or more lines, each its own // line
// (jen.Comment writes a text with newlines as a /* */ block).
func comments(g *jen.Group, lines ...string) {
	for _, l := range lines {
		g.Comment(l)
	}
}
