package runtime_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

// skillFS holds the folders of three skills: pdf-processing with a
// reference, a script, an image and a nested folder; acme/billing/refunds;
// and reports/daily, whose other files are dynamic.
func skillFS() fstest.MapFS {
	return fstest.MapFS{
		"skills/pdf-processing/SKILL.md":                 {Data: []byte("---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\n# PDF\nSee templates/.\n")},
		"skills/pdf-processing/references/FORMS.md":      {Data: []byte("# Forms\n")},
		"skills/pdf-processing/scripts/extract.py":       {Data: []byte("print('hi')\n")},
		"skills/pdf-processing/templates/logo.png":       {Data: []byte{0x89, 'P', 'N', 'G', 0xff}},
		"skills/pdf-processing/templates/regional/eu.md": {Data: []byte("EU\n")},
		"skills/acme/billing/refunds/SKILL.md":           {Data: []byte("---\nname: refunds\ndescription: Refunds.\nlicense: Apache-2.0\n---\nRefund.\n")},
		"skills/reports/daily/SKILL.md":                  {Data: []byte("---\nname: daily\ndescription: Today's report.\n---\nRead report.md.\n")},
	}
}

// manifest lists the files of the folder dir of fsys as AddSkill wants
// them, as go generate computes them.
func manifest(t *testing.T, fsys fs.FS, dir string, only ...string) []runtime.SkillFile {
	t.Helper()
	var files []runtime.SkillFile
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if only != nil && !slices.Contains(only, rel) {
			return nil
		}
		data, _ := fs.ReadFile(fsys, p)
		sum := sha256.Sum256(data)
		files = append(files, runtime.SkillFile{Path: rel, Size: int64(len(data)), Digest: "sha256:" + hex.EncodeToString(sum[:])})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// skillServer serves the skills of fsys.
func skillServer(t *testing.T, fsys fs.FS, pageSize int) *runtime.Server {
	s := &runtime.Server{Name: "skills", PageSize: pageSize, Logger: linepeer.DiscardLogger()}
	s.AddSkill(&runtime.Skill{Path: "pdf-processing", FS: fsys, Dir: "skills/pdf-processing",
		Frontmatter: `{"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"}`,
		Files:       manifest(t, fsys, "skills/pdf-processing")})
	s.AddSkill(&runtime.Skill{Path: "acme/billing/refunds", FS: fsys, Dir: "skills/acme/billing/refunds",
		Frontmatter: `{"name":"refunds","description":"Refunds.","license":"Apache-2.0"}`,
		Files:       manifest(t, fsys, "skills/acme/billing/refunds")})
	s.AddSkill(&runtime.Skill{Path: "reports/daily", FS: fsys, Dir: "skills/reports/daily",
		Frontmatter: `{"name":"daily","description":"Today's report."}`,
		Files:       manifest(t, fsys, "skills/reports/daily", "SKILL.md"),
		Dynamic: func(ctx context.Context) (fs.FS, error) {
			return fstest.MapFS{"report.md": {Data: []byte("42 orders\n")}, "data/today.csv": {Data: []byte("a,b\n")}}, nil
		}})
	return s
}

// A skillEntry is an entry of skills/list.
type skillEntry struct {
	URI         string
	Frontmatter map[string]any
	Resources   json.RawMessage
}

// TestSkillsList: skills/list pages by PageSize, each entry whole on its
// page, with the frontmatter as given and the manifest (or "dynamic");
// skills/get answers a listed URI with the same entry; the capabilities
// declare the extension with directoryRead, in initialize and
// server/discover.
func TestSkillsList(t *testing.T) {
	linepeer.CheckLeaks(t)
	fsys := skillFS()
	s := skillServer(t, fsys, 2)
	var all []skillEntry
	var pages int
	cursor := ""
	for {
		params := ""
		if cursor != "" {
			params = fmt.Sprintf(`"cursor":%q`, cursor)
		}
		var page struct {
			Skills     []skillEntry
			NextCursor string
		}
		mcptest.Result(t, handle(s, mcptest.Request(1, "skills/list", params)), &page)
		all, pages = append(all, page.Skills...), pages+1
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	var uris []string
	for _, e := range all {
		uris = append(uris, e.URI)
	}
	if want := []string{"skill://pdf-processing/SKILL.md", "skill://acme/billing/refunds/SKILL.md", "skill://reports/daily/SKILL.md"}; !slices.Equal(uris, want) || pages != 2 {
		t.Fatalf("skills/list gave %v in %d pages, want %v in 2", uris, pages, want)
	}
	if fm := all[1].Frontmatter; fm["name"] != "refunds" || fm["license"] != "Apache-2.0" {
		t.Errorf("frontmatter of refunds: %v", fm)
	}
	var files []struct {
		URI, Digest string
		Size        int
	}
	if err := json.Unmarshal(all[0].Resources, &files); err != nil || len(files) != 5 {
		t.Fatalf("manifest of pdf-processing: %s (%v)", all[0].Resources, err)
	}
	for _, f := range files {
		data := fsys["skills/pdf-processing/"+strings.TrimPrefix(f.URI, "skill://pdf-processing/")].Data
		sum := sha256.Sum256(data)
		if f.Digest != "sha256:"+hex.EncodeToString(sum[:]) || f.Size != len(data) {
			t.Errorf("manifest entry %+v does not describe %q", f, data)
		}
	}
	if string(all[2].Resources) != `"dynamic"` {
		t.Errorf("the dynamic skill's resources: %s", all[2].Resources)
	}

	get := handle(s, mcptest.Request(1, "skills/get", `"uri":"skill://acme/billing/refunds/SKILL.md"`))
	var got struct {
		Skill      skillEntry
		NextCursor *string
	}
	mcptest.Result(t, get, &got)
	if got.Skill.URI != all[1].URI || string(got.Skill.Resources) != string(all[1].Resources) || got.NextCursor != nil {
		t.Errorf("skills/get: %s", get)
	}

	for _, init := range []string{mcptest.Initialize(1, "2025-11-25"), mcptest.PerRequest(1, "server/discover", "", "{}")} {
		resp := handle(s, init)
		if !strings.Contains(resp, `"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}}`) || !strings.Contains(resp, `"resources":{`) {
			t.Errorf("capabilities without the skills extension and resources: %s", resp)
		}
	}
	// A server without skills has none of it.
	plain := pagedServer(1, 0)
	if resp := handle(plain, mcptest.Request(1, "skills/list", "")); !strings.Contains(resp, "-32601") {
		t.Errorf("skills/list of a server without skills: %s", resp)
	}
	if resp := handle(plain, mcptest.Initialize(1, "2025-11-25")); strings.Contains(resp, "skills") {
		t.Errorf("a server without skills declares them: %s", resp)
	}
}

// TestSkillsCacheGate: skills/list and skills/get carry ttlMs and
// cacheScope under revision 2026-07-28 only, as the SEP says: the method
// table's cacheable flag, which the other lists share, is the one switch.
func TestSkillsCacheGate(t *testing.T) {
	s := skillServer(t, skillFS(), 0)
	s.ListCache = runtime.CacheHint{TTL: 300_000_000_000}
	for _, m := range []struct{ method, params string }{{"skills/list", ""}, {"skills/get", `"uri":"skill://pdf-processing/SKILL.md"`}} {
		old := handle(s, mcptest.Request(1, m.method, m.params))
		cur := handle(s, mcptest.PerRequest(1, m.method, m.params, "{}"))
		if strings.Contains(old, "ttlMs") || strings.Contains(old, "cacheScope") {
			t.Errorf("%s under a session revision carries cache hints: %s", m.method, old)
		}
		if !strings.Contains(cur, `"resultType":"complete","ttlMs":300000,"cacheScope":"public"`) {
			t.Errorf("%s under 2026-07-28 lacks resultType, ttlMs or cacheScope: %s", m.method, cur)
		}
	}
}

// TestSkillsGetUnknown: skills/get for a URI that names no skill, or a
// file of one, is invalid params that says what the URI is; one without
// a uri too.
func TestSkillsGetUnknown(t *testing.T) {
	s := skillServer(t, skillFS(), 0)
	for _, tc := range []struct{ params, want string }{
		{`"uri":"skill://nothing/SKILL.md"`, "no skill is served at skill://nothing/SKILL.md; the skills are skill://pdf-processing/SKILL.md, skill://acme/billing/refunds/SKILL.md, skill://reports/daily/SKILL.md"},
		{`"uri":"skill://pdf-processing/references/FORMS.md"`, "skill://pdf-processing/references/FORMS.md is a file of the skill skill://pdf-processing/SKILL.md, not a skill"},
		{``, `"uri" must be a string`},
	} {
		code, msg := errorMessage(t, handle(s, mcptest.Request(1, "skills/get", tc.params)))
		if code != -32602 || !strings.Contains(msg, tc.want) {
			t.Errorf("skills/get %s: %d %q, want -32602 saying %q", tc.params, code, msg, tc.want)
		}
	}
}

// TestSkillFiles: SKILL.md is a listed resource named and described by
// its frontmatter, text/markdown, with its size and annotations; every
// file of a manifest reads as its bytes, text or base64 by its type; a
// dynamic skill's files come from its function, its SKILL.md from the
// manifest.
func TestSkillFiles(t *testing.T) {
	linepeer.CheckLeaks(t)
	fsys := skillFS()
	s := skillServer(t, fsys, 0)
	var list struct {
		Resources []struct {
			URI, Name, Description, MIMEType string
			Size                             int
			Annotations                      map[string]any
		}
	}
	mcptest.Result(t, handle(s, mcptest.Request(1, "resources/list", "")), &list)
	if len(list.Resources) != 3 {
		t.Fatalf("resources/list: %+v", list.Resources)
	}
	r := list.Resources[0]
	if r.URI != "skill://pdf-processing/SKILL.md" || r.Name != "pdf-processing" || r.Description != "Extract, fill, and assemble PDF documents" ||
		r.MIMEType != "text/markdown" || r.Size != len(fsys["skills/pdf-processing/SKILL.md"].Data) || fmt.Sprint(r.Annotations) != "map[audience:[assistant] priority:1]" {
		t.Errorf("the SKILL.md resource: %+v", r)
	}
	for _, tc := range []struct{ uri, want string }{
		{"skill://pdf-processing/SKILL.md", `"mimeType":"text/markdown","text":"---\nname: pdf-processing`},
		{"skill://pdf-processing/scripts/extract.py", `"mimeType":"text/x-python","text":"print('hi')\n"`},
		{"skill://pdf-processing/templates/logo.png", `"mimeType":"image/png","blob":"iVBOR/8="`},
		{"skill://reports/daily/SKILL.md", `"text":"---\nname: daily`},
		{"skill://reports/daily/report.md", `"mimeType":"text/markdown","text":"42 orders\n"`},
		{"skill://reports/daily/data/today.csv", `"text":"a,b\n"`},
	} {
		resp := handle(s, mcptest.Request(1, "resources/read", fmt.Sprintf(`"uri":%q`, tc.uri)))
		if !strings.Contains(resp, tc.want) {
			t.Errorf("resources/read %s: %s, want %s", tc.uri, resp, tc.want)
		}
	}
	for _, uri := range []string{"skill://pdf-processing/nothing.md", "skill://reports/daily/nothing.md", "skill://pdf-processing/templates"} {
		if code, _ := mcptest.Error(t, handle(s, mcptest.Request(1, "resources/read", fmt.Sprintf(`"uri":%q`, uri)))); code != -32002 {
			t.Errorf("resources/read %s: code %d, want resource not found", uri, code)
		}
	}
}

// TestSkillsDirectoryRead: resources/directory/read lists the children of
// every folder of the skills, the prefixes of a skill's path included,
// subfolders as inode/directory, a page at a time; a dynamic skill's
// folders from its function; a file, or a URI that names nothing, is
// invalid params that says which.
func TestSkillsDirectoryRead(t *testing.T) {
	s := skillServer(t, skillFS(), 0)
	read := func(uri string) []string {
		t.Helper()
		var res struct {
			Resources []struct{ URI, Name, MIMEType string }
		}
		mcptest.Result(t, handle(s, mcptest.Request(1, "resources/directory/read", fmt.Sprintf(`"uri":%q`, uri))), &res)
		var out []string
		for _, r := range res.Resources {
			out = append(out, r.Name+" "+r.MIMEType)
		}
		return out
	}
	for _, tc := range []struct {
		uri  string
		want []string
	}{
		{"skill://pdf-processing", []string{"SKILL.md text/markdown", "references inode/directory", "scripts inode/directory", "templates inode/directory"}},
		{"skill://pdf-processing/templates", []string{"logo.png image/png", "regional inode/directory"}},
		{"skill://acme", []string{"billing inode/directory"}},
		{"skill://acme/billing/refunds", []string{"SKILL.md text/markdown"}},
		{"skill://reports/daily", []string{"SKILL.md text/markdown", "data inode/directory", "report.md text/markdown"}},
		{"skill://reports/daily/data", []string{"today.csv text/csv"}},
	} {
		if got := read(tc.uri); !slices.Equal(got, tc.want) {
			t.Errorf("resources/directory/read %s: %q, want %q", tc.uri, got, tc.want)
		}
	}
	for _, tc := range []struct{ uri, want string }{
		{"skill://pdf-processing/SKILL.md", "skill://pdf-processing/SKILL.md is not a directory resource: it is a file"},
		{"skill://reports/daily/report.md", "skill://reports/daily/report.md is not a directory resource: it is a file"},
		{"skill://reports/daily/SKILL.md", "is not a directory resource: it is a file"},
		{"skill://nothing", "skill://nothing: no directory resource is there"},
		{"skill://reports/daily/nothing", "skill://reports/daily/nothing: no directory resource is there"},
	} {
		code, msg := errorMessage(t, handle(s, mcptest.Request(1, "resources/directory/read", fmt.Sprintf(`"uri":%q`, tc.uri))))
		if code != -32602 || !strings.Contains(msg, tc.want) {
			t.Errorf("resources/directory/read %s: %d %q, want -32602 saying %q", tc.uri, code, msg, tc.want)
		}
	}
	// Pages of one, whose cursors belong to the folder they list.
	s.PageSize = 1
	var page struct{ NextCursor string }
	mcptest.Result(t, handle(s, mcptest.Request(1, "resources/directory/read", `"uri":"skill://pdf-processing"`)), &page)
	resp := handle(s, mcptest.Request(1, "resources/directory/read", fmt.Sprintf(`"uri":"skill://pdf-processing","cursor":%q`, page.NextCursor)))
	if !strings.Contains(resp, `"name":"references"`) || !strings.Contains(resp, "nextCursor") {
		t.Errorf("the second page of skill://pdf-processing: %s", resp)
	}
	code, msg := errorMessage(t, handle(s, mcptest.Request(1, "resources/directory/read", fmt.Sprintf(`"uri":"skill://pdf-processing/templates","cursor":%q`, page.NextCursor))))
	if code != -32602 || !strings.Contains(msg, `belongs to "resources/directory/read skill://pdf-processing", not to resources/directory/read skill://pdf-processing/templates`) {
		t.Errorf("a cursor of another folder: %d %q", code, msg)
	}
}

// TestSkillsStale: a skill whose files are not those of its manifest (a
// file changed, added or removed after go generate) keeps the server from
// serving: Check says which file and to re-run go generate, and
// ServeStdio returns that error; a file changed after Check is refused
// when read.
func TestSkillsStale(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"changed", func(m fstest.MapFS) {
			m["skills/pdf-processing/references/FORMS.md"] = &fstest.MapFile{Data: []byte("# Forms!\n")}
		}, "references/FORMS.md has 9 bytes and digest sha256:"},
		{"added", func(m fstest.MapFS) {
			m["skills/pdf-processing/templates/new.md"] = &fstest.MapFile{Data: []byte("new")}
		}, "templates/new.md is in the skill's folder, and not in its manifest"},
		{"removed", func(m fstest.MapFS) { delete(m, "skills/pdf-processing/scripts/extract.py") }, "scripts/extract.py is in the manifest, and not in the skill's folder"},
		{"dynamic SKILL.md", func(m fstest.MapFS) { m["skills/reports/daily/SKILL.md"] = &fstest.MapFile{Data: []byte("changed")} }, "skill reports/daily: SKILL.md has 7 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := skillFS()
			s := skillServer(t, fsys, 0)
			tc.change(fsys)
			err := s.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasSuffix(err.Error(), "re-run go generate (or correct Skill.Files)") {
				t.Fatalf("Check: %v, want an error saying %q and to re-run go generate", err, tc.want)
			}
			if serr := s.ServeStdio(context.Background()); serr == nil || serr.Error() != err.Error() {
				t.Errorf("ServeStdio: %v", serr)
			}
		})
	}
	fsys := skillFS()
	s := skillServer(t, fsys, 0)
	if err := s.Check(); err != nil {
		t.Fatalf("Check of skills as generated: %v", err)
	}
	fsys["skills/pdf-processing/SKILL.md"].Data[5] = 'X'
	resp := handle(s, mcptest.Request(1, "resources/read", `"uri":"skill://pdf-processing/SKILL.md"`))
	if code, msg := errorMessage(t, resp); code != -32603 || !strings.Contains(msg, "SKILL.md has 107 bytes and digest") || !strings.Contains(msg, "re-run go generate") {
		t.Errorf("a read of a file changed after Check: %s", resp)
	}
}

// TestAddSkillMalformed: AddSkill panics with what is wrong.
func TestAddSkillMalformed(t *testing.T) {
	fsys := skillFS()
	md := manifest(t, fsys, "skills/acme/billing/refunds")
	good := func() *runtime.Skill {
		return &runtime.Skill{Path: "refunds", FS: fsys, Dir: "skills/acme/billing/refunds", Frontmatter: `{"name":"refunds","description":"R."}`, Files: slices.Clone(md)}
	}
	many := make([]runtime.SkillFile, runtime.MaxSkillFiles+1)
	for i := range many {
		many[i] = runtime.SkillFile{Path: fmt.Sprintf("f%d", i), Digest: md[0].Digest}
	}
	many[0] = md[0]
	for _, tc := range []struct {
		change func(*runtime.Skill)
		want   string
	}{
		{func(k *runtime.Skill) { k.Path = "Refunds" }, `skill path "Refunds": its last segment`},
		{func(k *runtime.Skill) { k.Path = "a//refunds" }, `skill path "a//refunds": want segments`},
		{func(k *runtime.Skill) { k.Path = "a/re--funds" }, `its last segment, the skill's name, must be`},
		{func(k *runtime.Skill) { k.Frontmatter = `{"name":"other","description":"R."}` }, `the frontmatter's name is "other"; it must be the last segment of the path, "refunds"`},
		{func(k *runtime.Skill) { k.Frontmatter = `{"name":"refunds"}` }, "the frontmatter has no description"},
		{func(k *runtime.Skill) { k.Frontmatter = `[1]` }, "the frontmatter is not a JSON object"},
		{func(k *runtime.Skill) { k.Files = nil }, "the manifest has no SKILL.md"},
		{func(k *runtime.Skill) { k.Files[0].Digest = "sha256:ABC" }, `digest "sha256:ABC" is not sha256:`},
		{func(k *runtime.Skill) { k.Files = append(k.Files, k.Files[0]) }, "file SKILL.md is listed twice"},
		{func(k *runtime.Skill) {
			k.Files = append(k.Files, runtime.SkillFile{Path: "../x", Digest: md[0].Digest})
		}, `file "../x": not a path in the skill's folder`},
		{func(k *runtime.Skill) { k.Files = many }, "has 513 files; a skill may have at most 512"},
		{func(k *runtime.Skill) { k.Files[0].Size = runtime.MaxSkillBytes + 1 }, "has 16777217 bytes; a skill may have at most 16777216"},
		{func(k *runtime.Skill) { k.FS = nil }, "has no FS"},
	} {
		k := good()
		tc.change(k)
		if got := panicOf(func() { (&runtime.Server{}).AddSkill(k) }); !strings.Contains(got, tc.want) {
			t.Errorf("AddSkill: panic %q, want one saying %q", got, tc.want)
		}
	}
	s := &runtime.Server{}
	s.AddSkill(good())
	if got := panicOf(func() { s.AddSkill(good()) }); !strings.Contains(got, "duplicate skill skill://refunds/SKILL.md") {
		t.Errorf("a skill added twice: %q", got)
	}
	// At the limits exactly: 512 files, 16 MiB.
	k := good()
	k.Files = many[:runtime.MaxSkillFiles]
	k.Files[1].Size = runtime.MaxSkillBytes - k.Files[0].Size
	if got := panicOf(func() { (&runtime.Server{}).AddSkill(k) }); got != "" {
		t.Errorf("a skill at the limits: %s", got)
	}
}

// panicOf returns the value f panics with, as text, or "".
func panicOf(f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprint(v)
		}
	}()
	f()
	return ""
}
