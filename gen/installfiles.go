package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The install files of a server, written beside its generated file when
// the package has //mcp:install; each is a function of installInfo alone.
const (
	// ManifestFile is an MCP bundle's manifest (MCPB manifest 0.3): the
	// bundle runs the server's binary, and its user_config asks the user
	// for the //mcp:config fields.
	ManifestFile = "manifest.json"
	// RegistryFile is the server's entry in the MCP Registry (server.json,
	// schema 2025-12-11): an OCI image and an MCP bundle run on stdio,
	// and a remote over Streamable HTTP.
	RegistryFile = "server.json"
	// ClaudeFile is a Claude Code project's list of MCP servers,
	// .mcp.json, with the server's entry.
	ClaudeFile = ".mcp.json"
)

// registrySchema is the URL of the server.json schema the Registry file
// follows; the tests validate the file against the Registry's own copy.
const registrySchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// installFiles returns the contents of the install files, by name.
func (in *installInfo) installFiles() map[string][]byte {
	return map[string][]byte{
		ManifestFile: encodeJSON(in.manifest()),
		RegistryFile: encodeJSON(in.registryEntry()),
		ClaudeFile:   encodeJSON(in.claudeConfig()),
	}
}

// encodeJSON writes v as JSON indented by two spaces, with <, > and &
// left readable, and a final newline.
func encodeJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("gen: encoding an install file: %v", err)) // the types below always encode
	}
	return b.Bytes()
}

// members is a JSON object whose members keep the order they were added
// in, as a host shows a bundle's settings in the manifest's order.
type members []member

type member struct {
	key   string
	value any
}

func (ms members) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := marshalText(m.key)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		v, err := marshalText(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalText encodes v as compact JSON with <, > and & left readable.
func marshalText(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// The MCP bundle's manifest, version 0.3 (anthropics/mcpb MANIFEST.md and
// src/schemas/0.3.ts); fields in the spec's order.
type (
	mcpbManifest struct {
		ManifestVersion  string          `json:"manifest_version"`
		Name             string          `json:"name"`
		DisplayName      string          `json:"display_name,omitempty"`
		Version          string          `json:"version"`
		Description      string          `json:"description"`
		Author           mcpbAuthor      `json:"author"`
		Repository       *mcpbRepository `json:"repository,omitempty"`
		Homepage         string          `json:"homepage,omitempty"`
		Icon             string          `json:"icon,omitempty"`
		Server           mcpbServer      `json:"server"`
		Tools            []mcpbTool      `json:"tools,omitempty"`
		PromptsGenerated bool            `json:"prompts_generated,omitempty"`
		License          string          `json:"license,omitempty"`
		UserConfig       members         `json:"user_config,omitempty"`
	}
	mcpbAuthor struct {
		Name string `json:"name"`
	}
	mcpbRepository struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	mcpbServer struct {
		Type       string        `json:"type"`
		EntryPoint string        `json:"entry_point"`
		MCPConfig  mcpbMCPConfig `json:"mcp_config"`
	}
	mcpbMCPConfig struct {
		Command string  `json:"command"`
		Env     members `json:"env,omitempty"`
	}
	mcpbTool struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
	}
	mcpbUserConfig struct {
		Type        string      `json:"type"`
		Title       string      `json:"title"`
		Description string      `json:"description"`
		Required    bool        `json:"required"`
		Default     any         `json:"default,omitempty"`
		Sensitive   bool        `json:"sensitive,omitempty"`
		Min         json.Number `json:"min,omitempty"`
		Max         json.Number `json:"max,omitempty"`
	}
)

// manifest is the MCP bundle's manifest. The bundle holds the binary as
// server/<command>; the host runs it with each //mcp:config field in its
// environment variable, filled from the user's answer to user_config
// ("${user_config.dir}"). Prompts are not listed: a manifest's prompt is a
// fixed text, and a //mcp:prompt function computes its messages, so the
// manifest says prompts_generated and the host asks the server for them.
func (in *installInfo) manifest() *mcpbManifest {
	m := &mcpbManifest{
		ManifestVersion:  "0.3",
		Name:             in.name,
		DisplayName:      in.title,
		Version:          in.version,
		Description:      in.description,
		Author:           mcpbAuthor{Name: in.author},
		Homepage:         in.homepage,
		Icon:             in.icon,
		PromptsGenerated: in.prompts,
		License:          in.license,
		Server: mcpbServer{
			Type:       "binary",
			EntryPoint: "server/" + in.command,
			MCPConfig:  mcpbMCPConfig{Command: "${__dirname}/server/" + in.command},
		},
	}
	if in.repository != "" {
		m.Repository = &mcpbRepository{Type: "git", URL: in.repository}
	}
	for _, t := range in.tools {
		m.Tools = append(m.Tools, mcpbTool{Name: t.name, Description: t.description})
	}
	for _, f := range in.config {
		m.Server.MCPConfig.Env = append(m.Server.MCPConfig.Env, member{f.env, "${user_config." + f.name + "}"})
		m.UserConfig = append(m.UserConfig, member{f.name, mcpbUserConfig{
			Type: f.kind, Title: f.title, Description: withChoices(f.help(), f.choices), Required: f.required,
			Default: f.def, Sensitive: f.sensitive, Min: f.min, Max: f.max,
		}})
	}
	return m
}

// The Registry's server.json, schema 2025-12-11; fields in the schema's
// order.
type (
	registryServer struct {
		Schema      string              `json:"$schema"`
		Name        string              `json:"name"`
		Title       string              `json:"title,omitempty"`
		Description string              `json:"description"`
		Version     string              `json:"version"`
		WebsiteURL  string              `json:"websiteUrl,omitempty"`
		Repository  *registryRepository `json:"repository,omitempty"`
		Icons       []registryIcon      `json:"icons,omitempty"`
		Packages    []registryPackage   `json:"packages,omitempty"`
		Remotes     []registryTransport `json:"remotes,omitempty"`
	}
	registryRepository struct {
		URL       string `json:"url"`
		Source    string `json:"source"`
		Subfolder string `json:"subfolder,omitempty"`
	}
	registryIcon struct {
		Src      string `json:"src"`
		MIMEType string `json:"mimeType,omitempty"`
	}
	registryPackage struct {
		RegistryType         string                `json:"registryType"`
		Identifier           string                `json:"identifier"`
		Version              string                `json:"version,omitempty"`
		Transport            registryTransport     `json:"transport"`
		EnvironmentVariables []registryEnvVariable `json:"environmentVariables,omitempty"`
	}
	registryTransport struct {
		Type string `json:"type"`
		URL  string `json:"url,omitempty"`
	}
	registryEnvVariable struct {
		Name        string   `json:"name"`
		Description string   `json:"description,omitempty"`
		Format      string   `json:"format,omitempty"`
		IsRequired  bool     `json:"isRequired,omitempty"`
		IsSecret    bool     `json:"isSecret,omitempty"`
		Default     string   `json:"default,omitempty"`
		Choices     []string `json:"choices,omitempty"`
	}
)

// registryEntry is the server's server.json. The OCI image runs the
// binary on stdio with the //mcp:config fields in its environment; the
// bundle's own manifest asks for them, so its entry lists none. The
// bundle's fileSha256 is the release's to add, once the bundle is packed.
func (in *installInfo) registryEntry() *registryServer {
	r := &registryServer{
		Schema:      registrySchema,
		Name:        in.registry,
		Title:       in.title,
		Description: in.description,
		Version:     in.version,
		WebsiteURL:  in.homepage,
	}
	if in.repository != "" {
		r.Repository = &registryRepository{URL: in.repository, Source: in.source, Subfolder: in.subfolder}
	}
	if in.icon != "" {
		r.Icons = []registryIcon{{Src: in.icon, MIMEType: iconType(in.icon)}}
	}
	stdio := registryTransport{Type: "stdio"}
	if in.oci != "" {
		var env []registryEnvVariable
		for _, f := range in.config {
			env = append(env, registryEnvVariable{
				Name: f.env, Description: f.help(), Format: registryFormat(f.kind),
				IsRequired: f.required, IsSecret: f.sensitive, Default: defaultText(f.def), Choices: f.choices,
			})
		}
		r.Packages = append(r.Packages, registryPackage{RegistryType: "oci", Identifier: in.oci + ":" + in.version, Transport: stdio, EnvironmentVariables: env})
	}
	if in.mcpb != "" {
		r.Packages = append(r.Packages, registryPackage{RegistryType: "mcpb", Identifier: in.mcpb, Version: in.version, Transport: stdio})
	}
	if in.remote != "" {
		r.Remotes = []registryTransport{{Type: "streamable-http", URL: in.remote}}
	}
	return r
}

// help is a config field's description as a host shows it, beside the
// setting: on one line, and without the Go name a doc comment starts
// with ("Dir is the folder…" → "The folder…").
func (f *configField) help() string {
	return withoutSubject(strings.Join(strings.Fields(f.description), " "), f.goName+" is", f.goName+" are")
}

// withChoices adds the values an enum allows to a description, for a
// user_config, which has no enum: "Units of the forecast (celsius or
// fahrenheit)."
func withChoices(description string, choices []string) string {
	if len(choices) == 0 {
		return description
	}
	list := strings.Join(choices, ", ")
	if len(choices) > 1 {
		list = strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
	}
	if description == "" {
		return "One of " + list + "."
	}
	return strings.TrimSuffix(description, ".") + " (" + list + ")."
}

// registryFormat is the Registry's input format for a user_config type.
func registryFormat(kind string) string {
	switch kind {
	case "number", "boolean":
		return kind
	case "directory", "file":
		return "filepath"
	}
	return ""
}

// defaultText is a default as an environment variable holds it.
func defaultText(def any) string {
	switch d := def.(type) {
	case nil:
		return ""
	case string:
		return d
	case json.Number:
		return d.String()
	}
	b, _ := json.Marshal(def)
	return string(b)
}

// The Claude Code project file, .mcp.json.
type (
	claudeConfig struct {
		MCPServers members `json:"mcpServers"`
	}
	claudeServer struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Env     members  `json:"env,omitempty"`
	}
)

// claudeConfig is the .mcp.json of a project that uses the server's
// binary, found in PATH (go install puts it there). Each //mcp:config
// field comes from the variable of the same name in the environment of
// Claude Code, or its default: ${NOTES_DIR:-}.
func (in *installInfo) claudeConfig() *claudeConfig {
	s := claudeServer{Type: "stdio", Command: in.command, Args: []string{}}
	for _, f := range in.config {
		value := "${" + f.env + "}"
		if !f.required {
			value = "${" + f.env + ":-" + defaultText(f.def) + "}"
		}
		s.Env = append(s.Env, member{f.env, value})
	}
	return &claudeConfig{MCPServers: members{{in.name, s}}}
}

// ClaudeAdd is the command line that adds the server to Claude Code, as
// the .mcp.json entry does, with each //mcp:config variable taken from
// the shell's environment.
func (in *installInfo) claudeAdd() string {
	words := []string{"claude", "mcp", "add", in.name}
	for _, f := range in.config {
		words = append(words, "-e", f.env+`="$`+f.env+`"`)
	}
	words = append(words, "--", shellWord(in.command))
	return strings.Join(words, " ")
}

// shellWord quotes s for a POSIX shell unless it needs no quotes.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
