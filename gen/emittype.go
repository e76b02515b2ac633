package gen

import (
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// typeMethods writes the methods of the //mcp:form and //mcp:output types:
//
//	// MCPSchema returns the form that runtime.ElicitForm asks the user to
//	// fill for a Contact.
//	func (*Contact) MCPSchema() string { return contactFormSchema }
//
//	// UnmarshalMCP decodes the user's answer, which the runtime has checked
//	// against the form, into c.
//	func (c *Contact) UnmarshalMCP(data []byte) error {
//		return mcpimpl.Unmarshal(data, c, decodeContact)
//	}
func (e *emitter) typeMethods() {
	f := e.f
	for _, td := range e.m.typeDirs {
		if td.kind == directiveConfig {
			e.loadEnv(td)
			continue
		}
		name := td.named.Obj().Name()
		f.Line()
		if td.kind == directiveForm {
			f.Comment("MCPSchema returns the form that runtime.ElicitForm asks the user to")
			f.Comment("fill for a " + name + ".")
		} else {
			f.Comment("MCPSchema returns the JSON Schema of " + name + ", which claude.Options.OutputType")
			f.Comment("asks the model's answer to follow.")
		}
		f.Func().Params(jen.Op("*").Add(e.objCode(td.named.Obj()))).Id("MCPSchema").Params().String().Add(oneLine(jen.Return(jen.Id(td.constName))))
		if td.kind != directiveForm {
			continue
		}
		recv := receiverName(name)
		f.Line()
		f.Comment("UnmarshalMCP decodes the user's answer, which the runtime has checked")
		f.Comment("against the form, into " + recv + ".")
		f.Func().Params(jen.Id(recv).Op("*").Add(e.objCode(td.named.Obj()))).Id("UnmarshalMCP").Params(jen.Id("data").Index().Byte()).Error().Block(
			jen.Return(e.impl("Unmarshal").Call(jen.Id("data"), jen.Id(recv), e.dec.ref(td.named))),
		)
	}
}

// receiverName is the conventional receiver name of a type: its first
// letter, lower-cased.
func receiverName(typeName string) string {
	r := []rune(typeName)
	name := string(unicode.ToLower(r[0]))
	if name == "_" || strings.ContainsRune("0123456789", r[0]) {
		return "v"
	}
	return name
}
