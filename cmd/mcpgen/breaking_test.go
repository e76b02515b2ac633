package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/surface"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

var update = flag.Bool("update", false, "rewrite the want.txt of each case in testdata/breaking")

// breakingDir holds the golden cases of -breaking: in each, the package
// before the change (old/), after it (new/), and want.txt, the report of
// new against old and its exit status. go test ./cmd/mcpgen -update
// rewrites want.txt.
const breakingDir = "testdata/breaking"

// breakingCases is the table of changes: what each case changes, and how
// each change must be classified, as "breaking KIND" or "compatible
// KIND", with the exit status. Every change the issue lists has its case.
var breakingCases = map[string]struct {
	want   []string
	status int
}{
	"tool_removed":             {[]string{"breaking removed"}, 1},
	"tool_renamed":             {[]string{"breaking renamed"}, 1},
	"tool_added":               {[]string{"compatible added"}, 0},
	"prompt_removed":           {[]string{"breaking removed"}, 1},
	"prompt_renamed":           {[]string{"breaking renamed"}, 1},
	"resource_removed":         {[]string{"breaking removed"}, 1},
	"resource_renamed":         {[]string{"breaking renamed"}, 1},
	"template_removed":         {[]string{"breaking removed"}, 1},
	"template_renamed":         {[]string{"breaking renamed"}, 1},
	"input_required_added":     {[]string{"breaking member-added"}, 1},
	"input_optional_added":     {[]string{"compatible member-added"}, 0},
	"input_member_removed":     {[]string{"breaking member-removed"}, 1},
	"input_member_renamed":     {[]string{"breaking member-renamed"}, 1},
	"input_type_changed":       {[]string{"breaking type"}, 1},
	"input_bounds_tightened":   {[]string{"breaking bound", "breaking bound", "breaking bound"}, 1},
	"input_bound_widened":      {[]string{"compatible bound", "compatible bound", "compatible bound"}, 0},
	"input_pattern_added":      {[]string{"breaking pattern"}, 1},
	"input_format_added":       {[]string{"breaking format"}, 1},
	"input_enum_value_removed": {[]string{"breaking enum-value-removed", "breaking enum-value-removed"}, 1},
	"input_enum_value_added":   {[]string{"compatible enum-value-added", "compatible enum-value-added"}, 0},
	"output_member_removed":    {[]string{"breaking member-removed"}, 1},
	"output_member_optional":   {[]string{"breaking member-optional"}, 1},
	"output_type_changed":      {[]string{"breaking type"}, 1},
	"output_member_added":      {[]string{"compatible member-added"}, 0},
	"output_enum_value_added":  {[]string{"breaking enum-value-added", "breaking enum-value-added"}, 1},
	"output_may_be_null":       {[]string{"breaking nullable"}, 1},
	"readonly_dropped":         {[]string{"breaking annotation"}, 1},
	"destructive_added":        {[]string{"breaking annotation"}, 1},
	"scope_added":              {[]string{"breaking scope"}, 1},
	"nested_member_removed":    {[]string{"breaking member-removed"}, 1},
	"refs_inlined_no_change":   {nil, 0},
	"map_key_enum_narrowed":    {[]string{"breaking enum-value-removed"}, 1},
	"major_version":            {[]string{"breaking member-removed", "breaking renamed", "compatible version"}, 0},
}

// TestBreakingGolden generates both sides of every case in one load, as
// -breaking generates a revision's source, and checks the classification
// against the table and the report against want.txt.
func TestBreakingGolden(t *testing.T) {
	root := testmodule.Root()
	entries, err := os.ReadDir(filepath.Join(root, breakingDir))
	if err != nil {
		t.Fatal(err)
	}
	var names, patterns []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
			patterns = append(patterns, "./"+breakingDir+"/"+e.Name()+"/old", "./"+breakingDir+"/"+e.Name()+"/new")
		}
	}
	for name := range breakingCases {
		if !slices.Contains(names, name) {
			t.Errorf("case %s of the table has no directory", name)
		}
	}
	results, err := gen.Generate(context.Background(), gen.Config{Dir: root, Patterns: patterns, Surface: true})
	if err != nil {
		t.Fatal(err)
	}
	byDir := map[string]*gen.Result{}
	for _, r := range results {
		if r.HasErrors() {
			t.Fatalf("%s does not generate: %v", r.PkgPath, r.Diagnostics)
		}
		byDir[filepath.Dir(r.OutputPath)] = r
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, breakingDir, name)
			old, cur := byDir[filepath.Join(dir, "old")], byDir[filepath.Join(dir, "new")]
			if old == nil || cur == nil || old.Surface == nil || cur.Surface == nil {
				t.Fatal("a side of the case has no surface")
			}
			rep, status := caseReport(t, dir, old, cur)
			c, ok := breakingCases[name]
			if !ok {
				t.Fatal("the case is not in the table breakingCases")
			}
			var got []string
			for _, ch := range rep.Changes {
				verdict := "compatible"
				if ch.Breaking {
					verdict = "breaking"
				}
				got = append(got, verdict+" "+ch.Kind)
				if !strings.HasPrefix(ch.Position, "new/") && !strings.HasPrefix(ch.Position, "old/") {
					t.Errorf("%s: %s: the position %q is not in the case's source", ch.Subject, ch.What, ch.Position)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) || status != c.status {
				t.Errorf("classified as %q, status %d; want %q, status %d", got, status, c.want, c.status)
			}
			var text bytes.Buffer
			writeReport(&text, rep, "old")
			fmt.Fprintf(&text, "exit status %d\n", status)
			wantFile := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(wantFile, text.Bytes(), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v: run go test ./cmd/mcpgen -run TestBreakingGolden -update", err)
			}
			if !bytes.Equal(want, text.Bytes()) {
				t.Errorf("the report differs from want.txt (-update rewrites it):\n--- want\n%s--- got\n%s", want, text.Bytes())
			}
		})
	}
}

// caseReport is the report of a case's new side against its old side,
// generated from source as -breaking REV does, with positions relative to
// the case's directory; and the exit status it leads to.
func caseReport(t *testing.T, dir string, old, cur *gen.Result) (*packageReport, int) {
	t.Helper()
	oldSurface, err := surface.Parse(old.Surface)
	if err != nil {
		t.Fatal(err)
	}
	curSurface, err := surface.Parse(cur.Surface)
	if err != nil {
		t.Fatal(err)
	}
	positions := map[string]string{}
	for place, p := range old.SurfacePositions {
		positions[place] = relativePosition(dir, p)
	}
	rep := newReport(cur, curSurface, &baseline{surface: oldSurface, from: "its source", positions: positions, where: "old"}, dir)
	status := 0
	if rep.fails() {
		status = 1
	}
	return rep, status
}

// gitRepo makes dir a git repository with one commit of its files.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "one"}} {
		runGit(t, dir, args...)
	}
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(context.Background(), dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBreakingRevision: mcpgen -breaking REV in a git repository, against
// the package's source at REV (no snapshot there), then against the
// snapshot committed at REV, then against a snapshot file; JSON for
// tools; a new major version accepted; a revision that is not there (as
// in a shallow clone) named as such.
func TestBreakingRevision(t *testing.T) {
	dir := testmodule.New(t, "example.com/tools", map[string]string{"tools.go": toolSource})
	gitRepo(t, dir)
	edited := strings.Replace(toolSource, "Name string `json:\"name\"`", "Nick string `json:\"nick\"`", 1)
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(edited), 0o666)

	status, out, errOut := mcpgen(t, dir, "-breaking", "HEAD")
	want := "tools.go:7:2: breaking: tool hello: input.name: renamed to nick\n\ta client that still sends name is refused, and one that does not send nick is refused (was at HEAD:tools.go:7:2)\n" +
		".: 1 breaking change against HEAD (its source at HEAD): if they are meant, make the server's version a new major one (//mcp:server version=)\n"
	if status != 1 || out != want {
		t.Fatalf("-breaking HEAD from the source: status %d, stdout:\n%s\nstderr:\n%s\nwant status 1 and:\n%s", status, out, errOut, want)
	}

	// A snapshot committed at the revision is what it compares with.
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(surfaceSource), 0o666)
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: %d\n%s", status, errOut)
	}
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "-m", "snapshot")
	withNick := strings.Replace(surfaceSource, "Name string `json:\"name\"`", "Name string `json:\"name\"`\n\tNick string `json:\"nick,omitempty\"`", 1)
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(withNick), 0o666)
	status, out, _ = mcpgen(t, dir, "-breaking", "HEAD")
	if status != 0 || !strings.Contains(out, "tools.go:11:2: compatible: tool hello: input.nick: added, optional\n") || !strings.Contains(out, "(its mcp_surface.json at HEAD)") {
		t.Fatalf("-breaking HEAD from the snapshot: status %d, want 0 and the new member, from the snapshot:\n%s", status, out)
	}

	// A snapshot file instead of a revision; JSON.
	snapshot := filepath.Join(t.TempDir(), "old.json")
	os.WriteFile(snapshot, []byte(runGit(t, dir, "show", "HEAD:"+surface.File)), 0o666)
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(strings.Replace(surfaceSource, "//mcp:tool\n", "//mcp:tool readOnly\n", 1)), 0o666)
	status, out, _ = mcpgen(t, dir, "-breaking", snapshot, "-format", "json")
	var rep struct {
		Packages []struct {
			Changes []struct {
				Breaking bool
				Kind     string
				Member   string
				Position string
			}
		}
		Status int
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || status != 0 || rep.Status != 0 || len(rep.Packages) != 1 || len(rep.Packages[0].Changes) != 1 ||
		rep.Packages[0].Changes[0].Kind != surface.KindAnnotation || rep.Packages[0].Changes[0].Position != "tools.go:15:1" {
		t.Fatalf("-breaking FILE -format json: status %d (%v), want 0 and readOnlyHint added at tools.go:15:1:\n%s", status, err, out)
	}

	// A breaking change with a new major version: reported, accepted.
	major := strings.Replace(strings.Replace(surfaceSource, "version=1.0.0", "version=2.0.0", 1), "Name string `json:\"name\"`", "", 1)
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(major), 0o666)
	status, out, _ = mcpgen(t, dir, "-breaking", "HEAD")
	if status != 0 || !strings.Contains(out, "breaking: tool hello: input.name: removed") || !strings.Contains(out, "accepted, as version 2.0.0 is a new major version after 1.0.0") {
		t.Fatalf("-breaking HEAD with version 2.0.0: status %d, want 0, the change and its acceptance:\n%s", status, out)
	}

	// A revision the repository does not have: in a shallow clone, say so.
	shallow := filepath.Join(t.TempDir(), "clone")
	runGit(t, dir, "clone", "-q", "--depth", "1", "file://"+dir, shallow)
	os.WriteFile(filepath.Join(shallow, "go.sum"), must(os.ReadFile(filepath.Join(dir, "go.sum"))), 0o666)
	status, _, errOut = mcpgen(t, shallow, "-breaking", "HEAD~1")
	if status != 2 || !strings.Contains(errOut, "HEAD~1 is not a commit of this shallow clone: fetch its history (git fetch --deepen=1") {
		t.Fatalf("-breaking HEAD~1 in a shallow clone: status %d, want 2 and the reason:\n%s", status, errOut)
	}
}

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}
