package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/installtest"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// The tests below prove the install files that mcpgen generated for this
// example with the real tools that read them: mcpb, the MCP Registry's
// schema, and the Claude Code CLI.

// buildNotes builds this example's binary into dir, as name.
func buildNotes(t *testing.T, dir, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run runs a command and returns its combined output; it fails the test
// if the command fails.
func run(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return string(out)
}

// manifest is what the tests read of a bundle's manifest.json: what a
// host reads to start the server.
type manifest struct {
	Name   string `json:"name"`
	Server struct {
		MCPConfig struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcp_config"`
	} `json:"server"`
	Tools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tools"`
	PromptsGenerated bool `json:"prompts_generated"`
}

// hostCommand is the command a host runs for an unpacked bundle in dir,
// with the user's answers to its user_config: ${__dirname} is the
// bundle's folder, and ${user_config.KEY} the answer to KEY. A setting
// without an answer is left as its placeholder, which the server must
// take as unset.
func hostCommand(t *testing.T, dir string, m *manifest, answers map[string]string) *exec.Cmd {
	expand := func(s string) string {
		s = strings.ReplaceAll(s, "${__dirname}", dir)
		for k, v := range answers {
			s = strings.ReplaceAll(s, "${user_config."+k+"}", v)
		}
		return s
	}
	cfg := m.Server.MCPConfig
	cmd := exec.Command(expand(cfg.Command))
	for _, a := range cfg.Args {
		cmd.Args = append(cmd.Args, expand(a))
	}
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+expand(v))
	}
	return cmd
}

// TestBundle packs this example into an MCP bundle with the real mcpb,
// unpacks it, starts it the way a host does with the user's answer to
// its user_config, and checks with the official Go SDK's client that it
// serves exactly the tools the manifest lists, and keeps its notes in the
// folder the user chose.
func TestBundle(t *testing.T) {
	mcpb := installtest.MCPB(t)
	root := testmodule.Root()
	bin := buildNotes(t, t.TempDir(), "notes")
	bundle := filepath.Join(t.TempDir(), "notes.mcpb")
	pack := exec.Command(filepath.Join(root, "deploy", "mcpb-pack.sh"), bin, gen.ManifestFile, bundle)
	pack.Env = append(os.Environ(), "MCPB="+mcpb)
	if out := run(t, pack); !strings.Contains(out, "Manifest schema validation passes!") {
		t.Fatalf("deploy/mcpb-pack.sh did not validate the manifest:\n%s", out)
	}
	dir := filepath.Join(t.TempDir(), "installed")
	run(t, exec.Command(mcpb, "unpack", bundle, dir))

	// The Registry entry of the release, with the bundle's SHA-256 filled
	// in as deploy/registry-publish.sh publishes it.
	publish := exec.Command(filepath.Join(root, "deploy", "registry-publish.sh"), gen.RegistryFile, bundle)
	publish.Env = append(os.Environ(), "DRY_RUN=1")
	entry := run(t, publish)
	sum, err := exec.Command("sha256sum", bundle).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := `"fileSha256": "` + strings.Fields(string(sum))[0] + `"`; !strings.Contains(entry, want) {
		t.Errorf("deploy/registry-publish.sh: the entry lacks %s:\n%s", want, entry)
	}
	if err := registrySchema(t)([]byte(entry)); err != nil {
		t.Errorf("the published entry does not validate against the Registry's schema: %v", err)
	}

	var m manifest
	data, err := os.ReadFile(filepath.Join(dir, gen.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, tool := range m.Tools {
		listed = append(listed, tool.Name+": "+tool.Description)
	}

	notesDir := t.TempDir()
	for _, answers := range []map[string]string{{"dir": notesDir}, nil} {
		ctx := context.Background()
		client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: hostCommand(t, dir, &m, answers)}, nil)
		if err != nil {
			t.Fatalf("the unpacked bundle does not start (answers %v): %v", answers, err)
		}
		var served []string
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			served = append(served, tool.Name+": "+tool.Description)
		}
		if !slices.Equal(served, listed) {
			t.Errorf("the bundle serves tools\n%q\nand its manifest lists\n%q", served, listed)
		}
		prompts, err := cs.ListPrompts(ctx, nil)
		if err != nil || len(prompts.Prompts) == 0 != !m.PromptsGenerated {
			t.Errorf("prompts: %+v, %v; the manifest says prompts_generated=%v", prompts, err, m.PromptsGenerated)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"title": "Buy milk"}})
		if err != nil || res.IsError {
			t.Fatalf("add_note: %+v, %v", res, err)
		}
		cs.Close()
	}
	saved, err := os.ReadFile(filepath.Join(notesDir, notesFile))
	if err != nil || !bytes.Contains(saved, []byte(`"title": "Buy milk"`)) || bytes.Count(saved, []byte(`"title"`)) != 1 {
		t.Errorf("the notes folder the user chose holds %q, %v; want the one note added while it was set", saved, err)
	}
}

// TestManifestsValidate runs mcpb validate on every manifest.json that
// mcpgen generated in the repository (this example's and the golden
// case's), and checks that it refuses a broken one.
func TestManifestsValidate(t *testing.T) {
	mcpb := installtest.MCPB(t)
	root := testmodule.Root()
	for _, file := range []string{"examples/notes/manifest.json", "testdata/golden/install/manifest.json"} {
		if out := run(t, exec.Command(mcpb, "validate", filepath.Join(root, file))); !strings.Contains(out, "passes") {
			t.Errorf("mcpb validate %s:\n%s", file, out)
		}
	}
	broken := filepath.Join(t.TempDir(), "manifest.json")
	data, _ := os.ReadFile(gen.ManifestFile)
	if err := os.WriteFile(broken, bytes.Replace(data, []byte(`"type": "directory"`), []byte(`"type": "folder"`), 1), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mcpb, "validate", broken).CombinedOutput(); err == nil {
		t.Errorf("mcpb validate accepts a user_config of type folder:\n%s", out)
	}
}

// registrySchema returns a function that validates a server.json against
// the MCP Registry's own schema (2025-12-11, from the Registry's module),
// with formats asserted.
func registrySchema(t *testing.T) func([]byte) error {
	t.Helper()
	schemaFile := installtest.RegistrySchemaFile(t)
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return func(data []byte) error {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return err
		}
		return sch.Validate(v)
	}
}

// TestRegistryEntries validates every server.json that mcpgen generated
// in the repository against the MCP Registry's own schema (2025-12-11,
// from the Registry's module), with formats asserted; this example's has
// a stdio package (OCI and MCPB) and a remote over Streamable HTTP. A
// broken entry must fail, so that the validation is known to bite.
func TestRegistryEntries(t *testing.T) {
	validate := registrySchema(t)
	const url = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

	root := testmodule.Root()
	for _, file := range []string{"examples/notes/server.json", "testdata/golden/install/server.json"} {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(data); err != nil {
			t.Errorf("%s does not validate against the Registry's schema: %v", file, err)
		}
	}

	data, err := os.ReadFile(gen.RegistryFile)
	if err != nil {
		t.Fatal(err)
	}
	var entry struct {
		Schema   string `json:"$schema"`
		Packages []struct {
			RegistryType string `json:"registryType"`
			Transport    struct {
				Type string `json:"type"`
			} `json:"transport"`
		} `json:"packages"`
		Remotes []struct {
			Type string `json:"type"`
			URL  string `json:"url"`
		} `json:"remotes"`
	}
	if err := json.Unmarshal(data, &entry); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, p := range entry.Packages {
		kinds = append(kinds, p.RegistryType+"/"+p.Transport.Type)
	}
	for _, r := range entry.Remotes {
		kinds = append(kinds, "remote/"+r.Type)
	}
	if entry.Schema != url || !slices.Equal(kinds, []string{"oci/stdio", "mcpb/stdio", "remote/streamable-http"}) {
		t.Errorf("server.json: $schema %s, entries %q; want the 2025-12-11 schema, OCI and MCPB on stdio, and a Streamable HTTP remote", entry.Schema, kinds)
	}

	for what, broken := range map[string][]byte{
		"a remote URL that is not http": bytes.Replace(data, []byte(`"url": "https://notes.example.com/mcp"`), []byte(`"url": "notes.example.com/mcp"`), 1),
		"a name without a namespace":    bytes.Replace(data, []byte(`"name": "io.github.mcpgen/notes"`), []byte(`"name": "notes"`), 1),
		"a package without transport":   bytes.Replace(data, []byte(`"transport": {`), []byte(`"transportation": {`), 1),
	} {
		if bytes.Equal(broken, data) {
			t.Fatalf("%s: the replacement changed nothing", what)
		}
		if validate(broken) == nil {
			t.Errorf("the Registry's schema accepts %s", what)
		}
	}
}

// claudeProject prepares a run of the real Claude Code CLI in a new
// project folder, offline: it returns the folder and the environment,
// with bin first in PATH (where the notes binary is, as go install would
// put it) and a claude command there.
func claudeProject(t *testing.T, bin string) (project string, env []string) {
	cli := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__notes__add_note", `{"title":"Buy milk"}`)
	if err := os.Symlink(cli, filepath.Join(bin, "claude")); err != nil {
		t.Fatal(err)
	}
	project = t.TempDir()
	env = append(os.Environ(), claudetest.Env(t, api)...)
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return project, env
}

// claude runs the CLI that claudeProject put in bin, in project with env,
// and returns its output.
func claude(t *testing.T, bin, project string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "claude"), args...)
	cmd.Dir, cmd.Env = project, env
	return run(t, cmd)
}

// TestClaudeAddLine runs the claude mcp add line that mcpgen generates
// for this example, in a shell, with the real Claude Code CLI, then
// claude mcp list: the server must be connected, with the notes folder
// from the shell's environment.
func TestClaudeAddLine(t *testing.T) {
	results, err := gen.Generate(context.Background(), gen.Config{Patterns: []string{"."}})
	if err != nil || len(results) != 1 || results[0].ClaudeAdd == "" {
		t.Fatalf("generate: %v, %+v", err, results)
	}
	line := results[0].ClaudeAdd
	if want := `claude mcp add notes -e NOTES_DIR="$NOTES_DIR" -- notes`; line != want {
		t.Errorf("claude mcp add line %q, want %q", line, want)
	}
	bin := t.TempDir()
	buildNotes(t, bin, "notes")
	project, env := claudeProject(t, bin)
	notesDir := t.TempDir()
	sh := exec.Command("sh", "-c", line)
	sh.Dir, sh.Env = project, append(env, "NOTES_DIR="+notesDir)
	run(t, sh)

	if out := claude(t, bin, project, env, "mcp", "list"); !strings.Contains(out, "notes: notes  - ✔ Connected") {
		t.Errorf("claude mcp list after the generated line:\n%s", out)
	}
	if out := claude(t, bin, project, env, "mcp", "get", "notes"); !strings.Contains(out, "NOTES_DIR="+notesDir) {
		t.Errorf("claude mcp get notes does not pass NOTES_DIR:\n%s", out)
	}
}

// TestClaudeProjectFile puts this example's .mcp.json in a project and
// checks that the real Claude Code CLI picks it up: pending approval at
// first, connected once approved (as the CLI's dialog records it), and
// that a turn whose model calls add_note reaches the server with the
// notes folder of the user's environment.
func TestClaudeProjectFile(t *testing.T) {
	bin := t.TempDir()
	buildNotes(t, bin, "notes")
	project, env := claudeProject(t, bin)
	data, err := os.ReadFile(gen.ClaudeFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, gen.ClaudeFile), data, 0o666); err != nil {
		t.Fatal(err)
	}
	if out := claude(t, bin, project, env, "mcp", "list"); !strings.Contains(out, "notes: notes  - ⏸ Pending approval") {
		t.Fatalf("claude mcp list in a project with the .mcp.json:\n%s", out)
	}

	// What the CLI records when the user trusts the folder and approves
	// the project's server.
	var home string
	for _, e := range env {
		if h, ok := strings.CutPrefix(e, "HOME="); ok {
			home = h
		}
	}
	approval, _ := json.Marshal(map[string]any{"projects": map[string]any{project: map[string]any{
		"hasTrustDialogAccepted": true, "enabledMcpjsonServers": []string{"notes"},
	}}})
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), approval, 0o600); err != nil {
		t.Fatal(err)
	}
	if out := claude(t, bin, project, env, "mcp", "list"); !strings.Contains(out, "notes: notes  - ✔ Connected") {
		t.Fatalf("claude mcp list once approved:\n%s", out)
	}

	notesDir := t.TempDir()
	out := claude(t, bin, project, append(env, "NOTES_DIR="+notesDir), "-p", "Note: buy milk", "--allowedTools", "mcp__notes__add_note")
	if !strings.Contains(out, "The tool answered") {
		t.Errorf("claude -p:\n%s", out)
	}
	if saved, err := os.ReadFile(filepath.Join(notesDir, notesFile)); err != nil || !bytes.Contains(saved, []byte(`"title": "Buy milk"`)) {
		t.Errorf("the note did not reach NOTES_DIR through .mcp.json: %q, %v", saved, err)
	}
}
