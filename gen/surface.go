package gen

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/surface"
)

// SurfaceFile is the name of the snapshot of what clients see of a
// server, written beside the generated file of a package with
// //mcp:server surface: its tools with their schemas and annotations,
// resources, templates, prompts, scopes, the server's name and version.
// Its diff in a change is the review of what the change does to clients,
// and mcpgen -breaking compares it across revisions.
const SurfaceFile = surface.File

// surface is what clients see of the package's server, each list sorted
// by name (URI for resources), the scopes sorted: a snapshot that changes
// only when what clients see does. It is built from the model, after the
// schemas, in one pass over what emit writes anyway.
func (m *model) surface() *surface.Surface {
	s := &surface.Surface{
		Format: surface.Format,
		Server: surface.Server{Name: m.serverName(), Version: m.server.version, Title: m.server.title, Instructions: m.server.instructions},
	}
	for _, t := range m.tools {
		st := &surface.Tool{
			Name:        t.name,
			Title:       t.opts.title,
			Description: t.description,
			Scopes:      sortedScopes(t.opts.scopes),
			TaskSupport: t.opts.task,
			SearchHint:  t.opts.searchHint,
			AlwaysLoad:  t.opts.alwaysLoad,
			InputSchema: surface.Schema(t.inputSchema),
		}
		if t.outputSchema != "" {
			st.OutputSchema = surface.Schema(t.outputSchema)
		}
		st.Icons, st.UI = surfaceIcons(t.opts.icons), surfaceToolUI(t.opts.app)
		if o := t.opts; o.readOnly != nil || o.destruct != nil || o.idempotent != nil || o.openWorld != nil {
			st.Annotations = &surface.Annotations{ReadOnlyHint: o.readOnly, DestructiveHint: o.destruct, IdempotentHint: o.idempotent, OpenWorldHint: o.openWorld}
		}
		s.Tools = append(s.Tools, st)
	}
	for _, r := range m.resources {
		if r.vars == nil {
			s.Resources = append(s.Resources, &surface.Resource{
				URI: r.opts.uri, Name: r.name, Title: r.opts.title, Description: r.description,
				MIMEType: r.mimeType, Scopes: sortedScopes(r.opts.scopes), UI: surfaceResourceUI(r),
			})
			continue
		}
		s.ResourceTemplates = append(s.ResourceTemplates, &surface.ResourceTemplate{
			URITemplate: r.opts.uri, Name: r.name, Title: r.opts.title, Description: r.description,
			MIMEType: r.mimeType, Scopes: sortedScopes(r.opts.scopes), Variables: surfaceArguments(r.args),
		})
	}
	for _, p := range m.prompts {
		s.Prompts = append(s.Prompts, &surface.Prompt{
			Name: p.name, Title: p.opts.title, Description: p.description,
			Scopes: sortedScopes(p.opts.scopes), Arguments: surfaceArguments(p.args),
		})
	}
	slices.SortFunc(s.Tools, func(a, b *surface.Tool) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(s.Resources, func(a, b *surface.Resource) int { return strings.Compare(a.URI, b.URI) })
	slices.SortFunc(s.ResourceTemplates, func(a, b *surface.ResourceTemplate) int { return strings.Compare(a.URITemplate, b.URITemplate) })
	slices.SortFunc(s.Prompts, func(a, b *surface.Prompt) int { return strings.Compare(a.Name, b.Name) })
	return s
}

func sortedScopes(scopes []string) []string {
	if scopes == nil {
		return nil
	}
	return slices.Sorted(slices.Values(scopes))
}

// surfaceArguments are the arguments of a prompt or the variables of a
// template, in the order of their fields (the order prompts/list gives).
func surfaceArguments(args []argField) []surface.Argument {
	var out []surface.Argument
	for _, a := range args {
		typ := "string"
		switch a.conv {
		case convInt, convUint:
			typ = "integer"
		case convFloat:
			typ = "number"
		case convBool:
			typ = "boolean"
		}
		out = append(out, surface.Argument{Name: a.name, Description: a.description, Required: a.required, Type: typ, Enum: a.enum})
	}
	return out
}

// surfacePositions are the positions of the places of the surface (see
// internal/surface's places): the directives, the input and output types
// and the parts of their schemas, the fields of arguments and variables.
func (m *model) surfacePositions() map[string]token.Position {
	out := map[string]token.Position{}
	at := func(place string, pos token.Pos) {
		if pos.IsValid() {
			out[place] = m.fset.Position(pos)
		}
	}
	server := m.server.pos
	if !server.IsValid() && len(m.files) > 0 {
		server = m.files[0].Package
	}
	at(surface.ServerPlace, server)
	at(surface.VersionPlace, m.server.versionPos)
	for _, t := range m.tools {
		at(surface.ToolPlace(t.name), t.pos)
		at(surface.SchemaPlace(t.name, "input", ""), t.inputPos)
		at(surface.SchemaPlace(t.name, "output", ""), t.outputPos)
		for ptr, pos := range t.inputAt {
			at(surface.SchemaPlace(t.name, "input", ptr), pos)
		}
		for ptr, pos := range t.outputAt {
			at(surface.SchemaPlace(t.name, "output", ptr), pos)
		}
	}
	for _, r := range m.resources {
		if r.vars == nil {
			at(surface.ResourcePlace(r.opts.uri), r.pos)
			continue
		}
		at(surface.TemplatePlace(r.opts.uri), r.pos)
		for _, a := range r.args {
			at(surface.VariablePlace(r.opts.uri, a.name), a.pos)
		}
	}
	for _, p := range m.prompts {
		at(surface.PromptPlace(p.name), p.pos)
		for _, a := range p.args {
			at(surface.ArgumentPlace(p.name, a.name), a.pos)
		}
	}
	return out
}

// surfaceFile is the snapshot file of a package: its content when the
// package asks for it; a file without content, which Write removes, when
// the package no longer asks but its directory holds a snapshot that
// mcpgen wrote; nil otherwise.
func surfaceFile(dir string, content []byte) *File {
	path := filepath.Join(dir, SurfaceFile)
	if content == nil && !isSurfaceSnapshot(path) {
		return nil
	}
	return &File{Path: path, Content: content}
}

// isSurfaceSnapshot reports whether path holds a snapshot that mcpgen
// wrote: its first member says so.
func isSurfaceSnapshot(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	return bytes.Contains(buf[:n], []byte(`"//": "`+surface.Generated))
}
