package gen

import (
	"bytes"
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
func (e *emitter) typeMethods(b *bytes.Buffer, used map[string]bool) {
	for _, td := range e.m.typeDirs {
		name := td.named.Obj().Name()
		suffix, doc := "OutputSchema", "returns the JSON Schema of "+name+", which claude.Options.OutputType\n// asks the model's answer to follow."
		if td.kind == directiveForm {
			suffix, doc = "FormSchema", "returns the form that runtime.ElicitForm asks the user to\n// fill for a "+name+"."
		}
		td.constName = e.constName(lowerCamel(snakeCase(name))+suffix, used)
		b.WriteString("\n// MCPSchema " + doc + "\n")
		b.WriteString("func (*" + name + ") MCPSchema() string { return " + td.constName + " }\n")
		if td.kind != directiveForm {
			continue
		}
		recv := receiverName(name)
		e.qual(implPath, "Unmarshal")
		b.WriteString("\n// UnmarshalMCP decodes the user's answer, which the runtime has checked\n// against the form, into " + recv + ".\n")
		b.WriteString("func (" + recv + " *" + name + ") UnmarshalMCP(data []byte) error {\n")
		b.WriteString("\treturn " + implRef + "Unmarshal(data, " + recv + ", " + e.dec.ref(td.named) + ")\n}\n")
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

// typeSchemaConsts appends the schema constants of the //mcp:form and
// //mcp:output types.
func (e *emitter) typeSchemaConsts(buf *bytes.Buffer) {
	for _, td := range e.m.typeDirs {
		what := "is the JSON Schema of " + td.named.Obj().Name() + "."
		if td.kind == directiveForm {
			what = "is the elicitation form of " + td.named.Obj().Name() + "."
		}
		writeConst(buf, td.constName, what, td.schema)
	}
}
