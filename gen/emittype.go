package gen

import (
	"strings"
	"unicode"
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
	g := e.g
	for _, td := range e.m.typeDirs {
		if td.kind == directiveConfig {
			e.loadEnv(td)
			continue
		}
		name := g.obj(td.named.Obj())
		g.P()
		if td.kind == directiveForm {
			g.P("// MCPSchema returns the form that runtime.ElicitForm asks the user to")
			g.P("// fill for a ", name, ".")
		} else {
			g.P("// MCPSchema returns the JSON Schema of ", name, ", which claude.Options.OutputType")
			g.P("// asks the model's answer to follow.")
		}
		g.P("func (*", name, ") MCPSchema() string { return ", td.constName, " }")
		if td.kind != directiveForm {
			continue
		}
		recv := receiverName(name)
		g.P()
		g.P("// UnmarshalMCP decodes the user's answer, which the runtime has checked")
		g.P("// against the form, into ", recv, ".")
		g.P("func (", recv, " *", name, ") UnmarshalMCP(data []byte) error {")
		g.P("\treturn ", g.impl("Unmarshal"), "(data, ", recv, ", ", e.dec.ref(td.named), ")")
		g.P("}")
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
