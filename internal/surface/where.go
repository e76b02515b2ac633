package surface

import "strings"

// A place names a part of a surface, so that a change can say which Go
// declaration caused it: the generator records the position of each
// place (gen.Result.SurfacePositions), and each Change names its places.
// The forms are
//
//	server                          the //mcp:server directive
//	server version                  its version= option
//	tool NAME                       the //mcp:tool directive
//	tool NAME input                 the input struct (output: the result type)
//	tool NAME input#POINTER         a part of the input schema, by JSON pointer
//	resource URI                    the //mcp:resource directive
//	template URI                    the same, for a URI template
//	template URI variable NAME      the field that holds the variable
//	prompt NAME                     the //mcp:prompt directive
//	prompt NAME argument NAME       the field that holds the argument
//
// Names hold no spaces (tool and prompt names cannot; URIs do not).

// ServerPlace is the place of the server directive.
const ServerPlace = "server"

// VersionPlace is the place of the server's version.
const VersionPlace = "server version"

// ToolPlace is the place of a tool's directive.
func ToolPlace(tool string) string { return "tool " + tool }

// SchemaPlace is the place of a part of a tool's input or output schema
// (which is "input" or "output"), by JSON pointer ("" for the schema).
func SchemaPlace(tool, which, pointer string) string {
	if pointer == "" {
		return "tool " + tool + " " + which
	}
	return "tool " + tool + " " + which + "#" + pointer
}

// ResourcePlace is the place of a resource's directive.
func ResourcePlace(uri string) string { return "resource " + uri }

// TemplatePlace is the place of a resource template's directive.
func TemplatePlace(uri string) string { return "template " + uri }

// VariablePlace is the place of a template's variable.
func VariablePlace(uri, name string) string { return "template " + uri + " variable " + name }

// SkillPlace is the place of a skill: its SKILL.md.
func SkillPlace(uri string) string { return "skill " + uri }

// PromptPlace is the place of a prompt's directive.
func PromptPlace(prompt string) string { return "prompt " + prompt }

// ArgumentPlace is the place of a prompt's argument.
func ArgumentPlace(prompt, name string) string { return "prompt " + prompt + " argument " + name }

// Enclosing is the place that holds place, and false for the server: a
// part of a schema is held by the part above it, then by the schema, the
// schema by the tool, a variable by its template, everything else by the
// server. A position not recorded for a place is looked for in the
// places that enclose it.
func Enclosing(place string) (string, bool) {
	if place == ServerPlace || place == "" {
		return "", false
	}
	if head, ptr, ok := strings.Cut(place, "#"); ok {
		if i := strings.LastIndexByte(ptr, '/'); i > 0 {
			return head + "#" + ptr[:i], true
		}
		return head, true
	}
	fields := strings.Fields(place)
	switch {
	case len(fields) > 2:
		return fields[0] + " " + fields[1], true
	default:
		return ServerPlace, true
	}
}
