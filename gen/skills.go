package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Skills (the skills extension, SEP-2640) come from a folder that the
// package embeds:
//
//	//go:embed skills
//	//mcp:skills
//	var skillFiles embed.FS
//
// Every folder below it with a SKILL.md is a skill, its path the folder's
// below the skills' folder (pdf-processing, acme/billing/refunds). mcpgen
// reads each one as //go:embed does (hidden files left out unless the
// pattern says all:), checks it, and writes its frontmatter as JSON and
// the manifest of its files, each with its size and SHA-256 digest, into
// the generated file, which serves them from the embed.FS: the runtime
// checks the files against the manifest before it serves, so a skill
// changed after go generate is refused until it is regenerated.
//
// A skill whose files other than SKILL.md are computed at run time is a
// function marked //mcp:skill <path>, for a skill of the folder that
// holds its SKILL.md alone: func([ctx context.Context]) (fs.FS, error).
const (
	directiveSkills = "skills" // //mcp:skills [folder] on an embed.FS variable
	directiveSkill  = "skill"  // //mcp:skill path on a function
)

// maxSkillDescription bounds a skill's description (Agent Skills); the
// limits of its files are the runtime's (runtime.MaxSkillFiles and
// MaxSkillBytes, SEP-2640), which AddSkill enforces.
const maxSkillDescription = 1024

// A skillFolder is one //mcp:skills directive: an embed.FS variable and
// its folder that holds skills.
type skillFolder struct {
	v   *types.Var
	pos token.Pos // the directive
	// dir is the folder, relative to the package's directory, with
	// slashes: what the embed.FS holds it under.
	dir string
	// patterns are the variable's //go:embed patterns.
	patterns []string
}

// A skillModel is one skill of a folder.
type skillModel struct {
	folder *skillFolder
	// path is the skill's path below the folder, its last segment the
	// skill's name.
	path        string
	fm          *frontmatter
	files       []skillFile // SKILL.md first, then by path
	md          string      // the absolute path of SKILL.md
	constName   string      // the frontmatter's constant, once emitted
	dynamic     *handlerFunc
	dynamicPos  token.Pos // the //mcp:skill directive
	dynamicPath string
}

// A skillFile is one file of a skill's manifest.
type skillFile struct {
	path   string // in the skill's folder
	size   int64
	digest string
}

// uri is the URI of the skill's SKILL.md.
func (k *skillModel) uri() string { return "skill://" + k.path + "/SKILL.md" }

// skillDirectives finds the //mcp:skills directives of a file's variable
// declarations; attached records the comments it used.
func (p *pass) skillDirectives(f *ast.File, attached map[*ast.Comment]bool) []*skillFolder {
	var out []*skillFolder
	for vs, doc := range documentedVars(f) {
		var embeds []ast.Directive
		for _, c := range doc.List {
			if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "go" && d.Name == "embed" {
				embeds = append(embeds, d)
			}
		}
		for _, c := range doc.List {
			d, ok := ast.ParseDirective(c.Slash, c.Text)
			if !ok || d.Tool != "mcp" || d.Name != directiveSkills {
				continue
			}
			attached[c] = true
			if sf := p.skillFolder(d, vs, embeds); sf != nil {
				out = append(out, sf)
			}
		}
	}
	return out
}

// skillFolder checks one //mcp:skills directive on the variable of vs,
// whose //go:embed directives are embeds.
func (p *pass) skillFolder(d ast.Directive, vs *ast.ValueSpec, embeds []ast.Directive) *skillFolder {
	args, err := parseArgs(d)
	if err != nil {
		var pe *posError
		errors.As(err, &pe)
		p.errorf(pe.pos, "//mcp:skills: %v", err)
		return nil
	}
	var v *types.Var
	if len(vs.Names) == 1 {
		v, _ = p.info.Defs[vs.Names[0]].(*types.Var)
	}
	switch {
	case v == nil:
		p.errorf(d.Slash, "//mcp:skills goes on the declaration of one variable of type embed.FS")
		return nil
	case !isEmbedFS(v.Type()):
		p.errorf(d.Slash, "//mcp:skills: %s is a %s; it must be an embed.FS that embeds the skills' folder (//go:embed skills)", v.Name(), typeString(v.Type(), p.pkg))
		return nil
	case len(args) > 1 || len(args) == 1 && args[0].key != "":
		p.errorf(d.ArgsPos, "//mcp:skills takes one argument, the folder that holds the skills: //mcp:skills skills")
		return nil
	}
	var patterns []string
	for _, e := range embeds {
		ps, err := embedPatterns(e.Args)
		if err != nil {
			p.errorf(e.ArgsPos, "//go:embed: %v", err)
			return nil
		}
		patterns = append(patterns, ps...)
	}
	sf := &skillFolder{v: v, pos: d.Slash, patterns: patterns}
	if len(args) == 1 {
		sf.dir = args[0].value
		if !fs.ValidPath(sf.dir) || sf.dir == "." {
			p.errorf(args[0].pos, "//mcp:skills: %q is not a folder of the package: write its path from the package's directory, with slashes, without . or ..", sf.dir)
			return nil
		}
	} else {
		switch len(patterns) {
		case 0:
			p.errorf(d.Slash, "//mcp:skills: %s has no //go:embed: embed the folder that holds the skills (//go:embed skills)", v.Name())
			return nil
		case 1:
			sf.dir = strings.TrimPrefix(patterns[0], "all:")
		default:
			p.errorf(d.Slash, "//mcp:skills: %s embeds %d patterns: name the folder that holds the skills (//mcp:skills skills)", v.Name(), len(patterns))
			return nil
		}
	}
	return sf
}

// isEmbedFS reports whether t is embed.FS.
func isEmbedFS(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "embed" && n.Obj().Name() == "FS"
}

// embedPatterns splits the arguments of //go:embed as the go command
// does: words, or Go string literals.
func embedPatterns(args string) ([]string, error) {
	var out []string
	for s := strings.TrimSpace(args); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' || s[0] == '`' {
			v, n, err := quoted(s)
			if err != nil {
				return nil, err
			}
			out, s = append(out, v), s[n:]
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			i = len(s)
		}
		out, s = append(out, s[:i]), s[i:]
	}
	return out, nil
}

// embedCovers reports whether the //go:embed patterns embed the folder
// dir whole, and whether with its hidden files (all:). A pattern with
// glob characters is not followed: it may leave out part of the folder.
func embedCovers(patterns []string, dir string) (covered, all, glob bool) {
	for _, pat := range patterns {
		p, a := strings.CutPrefix(pat, "all:")
		if strings.ContainsAny(p, `*?[\`) {
			glob = true
			continue
		}
		if rest, ok := strings.CutPrefix(dir, p); ok && (rest == "" || rest[0] == '/') {
			// The folders between the pattern and dir must not be hidden.
			hidden := false
			for seg := range strings.SplitSeq(strings.TrimPrefix(rest, "/"), "/") {
				hidden = hidden || seg != "" && !a && (seg[0] == '.' || seg[0] == '_')
			}
			if !hidden {
				return true, a, glob
			}
		}
	}
	return false, false, glob
}

// A foundFile is a file of a skills' folder, as //go:embed embeds it.
type foundFile struct {
	rel  string // below the skills' folder, with slashes
	abs  string
	size int64
}

// buildSkills reads the skills of every folder, and binds the //mcp:skill
// functions to theirs.
func (m *model) buildSkills(folders []*skillFolder, funcs []*ast.FuncDecl) {
	p := m.pass
	seen := map[string]*skillModel{}
	for _, sf := range folders {
		for _, k := range p.readSkillFolder(sf) {
			if prev := seen[k.path]; prev != nil {
				p.errorf(sf.pos, "skill %s is in the folders of two //mcp:skills directives (%s and %s): a skill's path names one skill", k.path, prev.folder.dir, sf.dir)
				continue
			}
			seen[k.path] = k
			m.skills = append(m.skills, k)
		}
	}
	for _, fd := range funcs {
		m.bindDynamicSkill(fd, seen)
	}
}

// readSkillFolder walks the folder of sf as //go:embed embeds it, and
// reads every skill in it.
func (p *pass) readSkillFolder(sf *skillFolder) []*skillModel {
	pkgDir := filepath.Dir(p.lp.output)
	covered, all, glob := embedCovers(sf.patterns, sf.dir)
	if !covered {
		why := "write the folder in its //go:embed (//go:embed " + sf.dir + ")"
		if glob {
			why = "write the folder itself in //go:embed, not a pattern: mcpgen lists the files of the folder as //go:embed embeds them"
		}
		p.errorf(sf.pos, "//mcp:skills: %s does not embed the folder %s: %s", sf.v.Name(), sf.dir, why)
		return nil
	}
	root := filepath.Join(pkgDir, filepath.FromSlash(sf.dir))
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		p.errorf(sf.pos, "//mcp:skills: the folder %s does not exist in %s", sf.dir, pkgDir)
		return nil
	}
	var files []foundFile
	ok := true
	err := filepath.WalkDir(root, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if abs == root {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(abs, root+string(filepath.Separator)))
		name := d.Name()
		if !all && (name[0] == '.' || name[0] == '_') {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil // //go:embed leaves hidden files out
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			p.errorf(sf.pos, "%s", symlinkMessage(root, abs, sf.dir+"/"+rel))
			ok = false
			return nil
		case d.IsDir():
			if _, err := os.Stat(filepath.Join(abs, "go.mod")); err == nil {
				return filepath.SkipDir // another module's, which //go:embed leaves out
			}
			return nil
		case !d.Type().IsRegular():
			p.errorf(sf.pos, "//mcp:skills: %s/%s is not a regular file: //go:embed leaves it out", sf.dir, rel)
			ok = false
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, foundFile{rel: rel, abs: abs, size: info.Size()})
		return nil
	})
	if err != nil {
		p.errorf(sf.pos, "//mcp:skills: reading %s: %v", sf.dir, err)
		return nil
	}
	var skills []*skillModel
	for _, f := range files {
		if path.Base(f.rel) != skillMDName {
			continue
		}
		dir := path.Dir(f.rel)
		if dir == "." {
			p.reportAt(f.abs, yamlPos{1, 1}, Error, "SKILL.md at the root of the skills' folder %s: put each skill in a folder of its name (%s/<name>/SKILL.md)", sf.dir, sf.dir)
			ok = false
			continue
		}
		if k := p.readSkill(sf, dir, f.abs, files); k != nil {
			skills = append(skills, k)
		} else {
			ok = false
		}
	}
	if len(skills) == 0 && ok {
		p.errorf(sf.pos, "//mcp:skills: the folder %s holds no skill: a skill is a folder with a SKILL.md", sf.dir)
	}
	if !ok {
		return nil
	}
	return skills
}

// skillMDName is the file at the root of every skill.
const skillMDName = "SKILL.md"

// symlinkMessage says why the symbolic link abs, shown as shown, cannot
// be in the skills' folder root.
func symlinkMessage(root, abs, shown string) string {
	if link, err := os.Readlink(abs); err == nil {
		target := link
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Sprintf("//mcp:skills: %s is a symbolic link to %s, outside the skills' folder: a skill's files are in its folder, and //go:embed leaves symbolic links out (the skill would be served without it); put the file itself there", shown, filepath.ToSlash(link))
		}
	}
	return fmt.Sprintf("//mcp:skills: %s is a symbolic link: //go:embed leaves symbolic links out, so the skill would be served without it; put the file itself there", shown)
}

// readSkill reads the skill in the folder dir of sf, whose SKILL.md is
// md, and checks it: its frontmatter, its name, its limits. It reports
// what is wrong and returns nil.
func (p *pass) readSkill(sf *skillFolder, dir, md string, all []foundFile) *skillModel {
	k := &skillModel{folder: sf, path: dir, md: md}
	name := path.Base(dir)
	content, err := os.ReadFile(md)
	if err != nil {
		p.reportAt(md, yamlPos{1, 1}, Error, "reading SKILL.md: %v", err)
		return nil
	}
	fm, err := parseFrontmatter(content)
	if err != nil {
		var fe *frontmatterError
		errors.As(err, &fe)
		p.reportAt(md, fe.pos, Error, "%s", fe.msg)
		return nil
	}
	k.fm = fm
	ok := true
	bad := func(at yamlPos, format string, args ...any) {
		if at.line == 0 {
			at = yamlPos{1, 1}
		}
		p.reportAt(md, at, Error, format, args...)
		ok = false
	}
	switch {
	case fm.namePos.line == 0:
		bad(yamlPos{1, 1}, "the frontmatter has no name: write name: %s, the name of the skill's folder", name)
	case fm.name != name:
		bad(fm.namePos, "the skill's name is %q, and its folder is %s: a skill's name is its folder's (the last segment of skill://%s/SKILL.md), so rename one of them", fm.name, name, dir)
	case !mcpimpl.ValidSkillName(name):
		bad(fm.namePos, "the skill's name %q must be 1 to 64 lower-case letters, digits and hyphens, without a hyphen first, last or twice in a row (Agent Skills specification)", name)
	}
	switch {
	case fm.descriptionPos.line == 0:
		bad(yamlPos{1, 1}, "the frontmatter has no description: say what the skill does and when to use it (description: …); hosts show it to the model to choose skills")
	case strings.TrimSpace(fm.description) == "":
		bad(fm.descriptionPos, "the skill's description must be a string that is not empty: hosts show it to the model to choose skills")
	case utf8.RuneCountInString(fm.description) > maxSkillDescription:
		bad(fm.descriptionPos, "the skill's description has %d characters; the Agent Skills specification allows at most %d", utf8.RuneCountInString(fm.description), maxSkillDescription)
	}
	if strings.Contains(fm.json, `"io.modelcontextprotocol/`) && fm.metadataPos.line > 0 {
		p.reportAt(md, fm.metadataPos, Warning, "metadata keys that begin with io.modelcontextprotocol/ are reserved for MCP extensions, which define none yet")
	}
	if segs := strings.Split(dir, "/"); len(segs) > 1 && !validRegName(segs[0]) {
		p.reportAt(md, yamlPos{1, 1}, Warning, "the skill's path %s begins with %q, the authority of its URI skill://%s/SKILL.md, which should be a host name (letters, digits, -._~ and sub-delimiters)", dir, segs[0], dir)
	}
	var total int64
	var mine []foundFile
	for _, f := range all {
		if strings.HasPrefix(f.rel, dir+"/") {
			mine = append(mine, f)
			total += f.size
		}
	}
	switch {
	case len(mine) > runtime.MaxSkillFiles:
		bad(yamlPos{1, 1}, "the skill %s has %d files; a skill may have at most %d (SEP-2640), hosts need not load a larger one", dir, len(mine), runtime.MaxSkillFiles)
	case total > runtime.MaxSkillBytes:
		bad(yamlPos{1, 1}, "the skill %s has %d bytes of files; a skill may have at most %d (16 MiB, SEP-2640), hosts need not load a larger one", dir, total, runtime.MaxSkillBytes)
	}
	if !ok {
		return nil
	}
	for _, f := range mine {
		data, err := os.ReadFile(f.abs)
		if err != nil {
			p.reportAt(md, yamlPos{1, 1}, Error, "reading %s: %v", f.rel, err)
			return nil
		}
		sum := sha256.Sum256(data)
		k.files = append(k.files, skillFile{path: strings.TrimPrefix(f.rel, dir+"/"), size: int64(len(data)), digest: "sha256:" + hex.EncodeToString(sum[:])})
	}
	slices.SortFunc(k.files, func(a, b skillFile) int {
		switch {
		case a.path == skillMDName:
			return -1
		case b.path == skillMDName:
			return 1
		}
		return strings.Compare(a.path, b.path)
	})
	return k
}

// validRegName reports whether s is an RFC 3986 reg-name without
// percent-encoding: unreserved characters and sub-delimiters.
func validRegName(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-._~!$&'()*+,;=", r))
	}) < 0
}

// reportAt reports a diagnostic at a position of a file that is not Go:
// a SKILL.md.
func (p *pass) reportAt(file string, at yamlPos, sev Severity, format string, args ...any) {
	p.diags = append(p.diags, Diagnostic{Pos: token.Position{Filename: file, Line: at.line, Column: at.col}, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// bindDynamicSkill checks an //mcp:skill function and makes it compute
// the files of its skill.
func (m *model) bindDynamicSkill(fd *ast.FuncDecl, skills map[string]*skillModel) {
	p := m.pass
	var d ast.Directive
	for _, c := range fd.Doc.List {
		if dd, ok := ast.ParseDirective(c.Slash, c.Text); ok && dd.Tool == "mcp" && dd.Name == directiveSkill {
			d = dd
		}
	}
	args, err := parseArgs(d)
	if err != nil || len(args) != 1 || args[0].key != "" {
		p.errorf(d.Slash, "//mcp:skill takes one argument, the path of the skill whose files the function computes: //mcp:skill reports/daily")
		return
	}
	fn, _ := p.info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return // the package does not type-check, and says so
	}
	h := &handlerFunc{fn: fn}
	name := fd.Name.Name
	if !p.checkSignature("skill", name, h, fd) {
		return
	}
	if h.input != nil || !isFSInterface(h.output) {
		p.errorf(fd.Type.Pos(), "skill %s: an //mcp:skill function returns the skill's files, (fs.FS, error), and takes at most a context.Context", name)
		return
	}
	k := skills[args[0].value]
	switch {
	case k == nil:
		var paths []string
		for p := range skills {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		p.errorf(args[0].pos, "//mcp:skill: no //mcp:skills folder of the package has a skill %s (its SKILL.md holds the name and description that skills/list sends); the skills are: %s", args[0].value, strings.Join(paths, ", "))
		return
	case k.dynamic != nil:
		p.errorf(args[0].pos, "//mcp:skill: %s already computes the files of the skill %s", k.dynamic.fn.Name(), k.path)
		return
	case len(k.files) != 1:
		others := k.files[1].path
		if n := len(k.files) - 2; n > 0 {
			others += fmt.Sprintf(" and %d more", n)
		}
		p.reportAt(k.md, yamlPos{1, 1}, Error, "the skill %s is dynamic (%s computes its files), so its folder holds its SKILL.md alone; move %s to what %[2]s returns", k.path, name, others)
		return
	}
	m.bind(h, fd)
	k.dynamic, k.dynamicPos, k.dynamicPath = h, d.Slash, args[0].value
}

// isFSInterface reports whether t is io/fs.FS.
func isFSInterface(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "io/fs" && n.Obj().Name() == "FS"
}
