package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/registry"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A Skill is an Agent Skill that the server serves under the skills
// extension (io.modelcontextprotocol/skills, SEP-2640): a folder of files
// with a SKILL.md at its root, each file the resource
// skill://<Path>/<file>. skills/list and skills/get describe it by its
// SKILL.md's frontmatter and the manifest of its files, each with its
// size and SHA-256 digest, which hosts check what they read against;
// resources/directory/read lists its folders. mcpgen generates Skills
// from an embedded folder marked //mcp:skills, the manifest computed by
// go generate.
type Skill struct {
	// Path locates the skill among the server's: "git-workflow", or
	// "acme/billing/refunds" under a prefix of the server's choosing. Its
	// last segment is the skill's name.
	Path string
	// Frontmatter is the YAML frontmatter of SKILL.md as a JSON object,
	// as skills/list sends it: its string members name (the last segment
	// of Path) and description are required.
	Frontmatter string
	// Files is the manifest: every file of the skill, SKILL.md among
	// them, by its path in the skill's folder. A dynamic skill lists
	// SKILL.md alone.
	Files []SkillFile
	// FS holds the files, in its folder Dir ("." for its root).
	FS  fs.FS
	Dir string
	// Dynamic, if set, computes the skill's files other than SKILL.md
	// when they are read or listed, so that no manifest can be published:
	// skills/list says "dynamic" instead. SKILL.md still comes from FS,
	// as Files describes it, and so its frontmatter is the listed one.
	Dynamic func(ctx context.Context) (fs.FS, error)
}

// A SkillFile is one file of a skill's manifest.
type SkillFile struct {
	// Path is the file's path in the skill's folder, with slashes:
	// "SKILL.md", "references/FORMS.md".
	Path string
	// Size is the length of the file in bytes, and Digest the SHA-256 of
	// its bytes as "sha256:" and 64 lower-case hexadecimal digits.
	Size   int64
	Digest string
}

// Limits of a skill that every host accepts (SEP-2640): a server should
// serve none larger, and AddSkill refuses one.
const (
	MaxSkillFiles = 512
	MaxSkillBytes = 16 << 20
)

// skillMD is the name of the file at the root of every skill.
const skillMD = "SKILL.md"

// A skill is a Skill as the server serves it.
type skill struct {
	*Skill
	root        string // skill://<Path>: the skill's folder
	uri         string // root + "/SKILL.md"
	name        string
	description string
	frontmatter []byte // compact JSON
	md          *SkillFile

	verifyOnce sync.Once
	verifyErr  error // the files in FS do not match Files
}

// AddSkill serves sk: its files as resources, SKILL.md among the listed
// ones (named and described by its frontmatter), and its entry in
// skills/list and skills/get. It panics if sk is malformed, as these are
// programming errors: a path that is not a skill's, a frontmatter that
// does not name it or has no description, a manifest without SKILL.md or
// past the limits, no FS, or a skill already served. That the files in FS
// are the ones Files describes is checked when the server starts serving
// (see Check), and again as each is read.
func (s *Server) AddSkill(sk *Skill) {
	k, err := newSkill(sk)
	if err == nil {
		err = s.skills.add(k)
	}
	if err != nil {
		panic("runtime: AddSkill: " + err.Error())
	}
	s.AddResource(&Resource{
		URI:         k.uri,
		Name:        k.name,
		Description: k.description,
		MIMEType:    skillFileMIMEType(skillMD),
		Size:        k.md.Size,
		Annotations: &ResourceAnnotations{Audience: []string{"assistant"}, Priority: new(1.0)},
		Handler: func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error) {
			return k.read(ctx, k.md)
		},
	})
}

// newSkill checks sk and makes what the server serves of it.
func newSkill(sk *Skill) (*skill, error) {
	if err := checkSkillPath(sk.Path); err != nil {
		return nil, err
	}
	k := &skill{Skill: sk, root: "skill://" + sk.Path, name: path.Base(sk.Path)}
	k.uri = k.root + "/" + skillMD
	var fm map[string]any
	if err := json.Unmarshal([]byte(sk.Frontmatter), &fm); err != nil {
		return nil, fmt.Errorf("skill %s: the frontmatter is not a JSON object: %w", sk.Path, err)
	} else if fm == nil {
		return nil, fmt.Errorf("skill %s: the frontmatter is null, not a JSON object", sk.Path)
	}
	name, _ := fm["name"].(string)
	k.description, _ = fm["description"].(string)
	switch {
	case name != k.name:
		return nil, fmt.Errorf("skill %s: the frontmatter's name is %q; it must be the last segment of the path, %q", sk.Path, name, k.name)
	case k.description == "":
		return nil, fmt.Errorf("skill %s: the frontmatter has no description", sk.Path)
	case sk.FS == nil:
		return nil, fmt.Errorf("skill %s has no FS", sk.Path)
	case len(sk.Files) > MaxSkillFiles:
		return nil, fmt.Errorf("skill %s has %d files; a skill may have at most %d", sk.Path, len(sk.Files), MaxSkillFiles)
	}
	var compact bytes.Buffer
	json.Compact(&compact, []byte(sk.Frontmatter)) // it parsed
	k.frontmatter = compact.Bytes()
	seen := map[string]bool{}
	var total int64
	for i := range sk.Files {
		f := &sk.Files[i]
		switch {
		case !fs.ValidPath(f.Path) || f.Path == ".":
			return nil, fmt.Errorf("skill %s: file %q: not a path in the skill's folder", sk.Path, f.Path)
		case seen[f.Path]:
			return nil, fmt.Errorf("skill %s: file %s is listed twice", sk.Path, f.Path)
		case !validDigest(f.Digest):
			return nil, fmt.Errorf("skill %s: file %s: digest %q is not sha256: and 64 lower-case hexadecimal digits", sk.Path, f.Path, f.Digest)
		case f.Size < 0:
			return nil, fmt.Errorf("skill %s: file %s: negative size", sk.Path, f.Path)
		}
		seen[f.Path] = true
		total += f.Size
		if f.Path == skillMD {
			k.md = f
		}
	}
	switch {
	case k.md == nil:
		return nil, fmt.Errorf("skill %s: the manifest has no %s", sk.Path, skillMD)
	case sk.Dynamic != nil && len(sk.Files) != 1:
		return nil, fmt.Errorf("skill %s is dynamic: its manifest lists %s alone, the other files come from Dynamic", sk.Path, skillMD)
	case total > MaxSkillBytes:
		return nil, fmt.Errorf("skill %s has %d bytes; a skill may have at most %d", sk.Path, total, MaxSkillBytes)
	}
	return k, nil
}

// checkSkillPath reports what keeps p from being a skill's path: segments
// that are names of files, the last a skill's name as the Agent Skills
// specification has them (1 to 64 lower-case letters, digits and
// hyphens, no hyphen first, last or twice in a row).
func checkSkillPath(p string) error {
	if !fs.ValidPath(p) || p == "." {
		return fmt.Errorf("skill path %q: want segments separated by slashes, without . or .. or an empty one", p)
	}
	if name := path.Base(p); !wire.ValidSkillName(name) {
		return fmt.Errorf("skill path %q: its last segment, the skill's name, must be 1 to 64 lower-case letters, digits and hyphens, without a hyphen first, last or twice in a row", p)
	}
	return nil
}

// validDigest reports whether d is "sha256:" and 64 lower-case hex digits.
func validDigest(d string) bool {
	hex, ok := strings.CutPrefix(d, "sha256:")
	return ok && len(hex) == 64 && strings.IndexFunc(hex, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) < 0
}

// A skillSet holds the skills a server serves, in the order added, and
// the URIs of their files and folders.
type skillSet struct {
	mu    sync.RWMutex
	list  []*skill
	byURI map[string]*skill // by the URI of SKILL.md
	files map[string]skillFileRef
	// dirs are the folders of the skills' paths and manifests, by URI
	// (skill://acme, skill://acme/billing/refunds/templates), each with
	// the URIs of its children in order.
	dirs map[string][]string
}

// A skillFileRef is a file of a skill's manifest.
type skillFileRef struct {
	k *skill
	f *SkillFile
}

func (set *skillSet) add(k *skill) error {
	set.mu.Lock()
	defer set.mu.Unlock()
	if set.byURI[k.uri] != nil {
		return fmt.Errorf("duplicate skill %s", k.uri)
	}
	if set.byURI == nil {
		set.byURI, set.files, set.dirs = map[string]*skill{}, map[string]skillFileRef{}, map[string][]string{}
	}
	set.byURI[k.uri] = k
	set.list = append(set.list, k)
	// The folders from the path's first segment down to each file.
	segs := strings.Split(k.Path, "/")
	dir := "skill://" + segs[0]
	for _, seg := range segs[1:] {
		set.addChild(dir, dir+"/"+seg)
		dir += "/" + seg
	}
	for i := range k.Files {
		f := &k.Files[i]
		uri := k.root + "/" + f.Path
		set.files[uri] = skillFileRef{k, f}
		dir := k.root
		for seg := range strings.SplitSeq(f.Path, "/") {
			set.addChild(dir, dir+"/"+seg)
			dir += "/" + seg
		}
	}
	return nil
}

// addChild records child as a child of dir, once.
func (set *skillSet) addChild(dir, child string) {
	if !slices.Contains(set.dirs[dir], child) {
		set.dirs[dir] = append(set.dirs[dir], child)
	}
}

// all returns the skills in order; the caller must not change the slice.
func (set *skillSet) all() []*skill {
	set.mu.RLock()
	defer set.mu.RUnlock()
	return set.list[:len(set.list):len(set.list)]
}

func (set *skillSet) len() int {
	set.mu.RLock()
	defer set.mu.RUnlock()
	return len(set.list)
}

func (set *skillSet) get(uri string) *skill {
	set.mu.RLock()
	defer set.mu.RUnlock()
	return set.byURI[uri]
}

// dynamicOwner returns the dynamic skill whose folder holds uri, and the
// path of uri in it ("." for the folder itself).
func (set *skillSet) dynamicOwner(uri string) (*skill, string) {
	set.mu.RLock()
	defer set.mu.RUnlock()
	for _, k := range set.list {
		if k.Dynamic == nil {
			continue
		}
		if uri == k.root {
			return k, "."
		}
		if rel, ok := strings.CutPrefix(uri, k.root+"/"); ok && fs.ValidPath(rel) {
			return k, rel
		}
	}
	return nil, ""
}

// appendEntry writes k as skills/list and skills/get describe it: its
// URI, its frontmatter, and its manifest or "dynamic".
func (k *skill) appendEntry(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = jsonvalue.AppendString(b, k.uri)
	b = append(b, `,"frontmatter":`...)
	b = append(b, k.frontmatter...)
	if k.Dynamic != nil {
		return append(b, `,"resources":"dynamic"}`...)
	}
	b = append(b, `,"resources":[`...)
	for i, f := range k.Files {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"uri":`...)
		b = jsonvalue.AppendString(b, k.root+"/"+f.Path)
		b = append(b, `,"digest":"`...)
		b = append(b, f.Digest...)
		b = fmt.Appendf(b, `","size":%d}`, f.Size)
	}
	return append(b, "]}"...)
}

// listSkills answers skills/list: the entries, a page at a time (see
// PageSize); an entry is never split across pages.
func (ss *session) listSkills(c *call) response {
	cursor, bad := stringParam(c.msg.Params, "cursor", false)
	if bad != nil {
		return *bad
	}
	return pagedList(wire.MethodSkillsList, "skill", "skills", cursor, ss.srv.PageSize, ss.srv.skills.all(),
		func(k *skill) string { return k.uri },
		func(b []byte, k *skill) ([]byte, error) { return k.appendEntry(b), nil })
}

// getSkill answers skills/get: the entry of the skill whose SKILL.md the
// URI names, listed or not. A URI that names none is invalid params.
func (ss *session) getSkill(c *call) response {
	uri, bad := stringParam(c.msg.Params, "uri", true)
	if bad != nil {
		return *bad
	}
	k := ss.srv.skills.get(uri)
	if k == nil {
		return ss.srv.skills.unknown(uri)
	}
	return rawResult(k.appendEntry([]byte(`"skill":`)))
}

// unknown is the answer to skills/get for a URI that names no skill: what
// it is instead, if it is a file or folder of one, and else the skills
// there are, the first registry.MaxNamedInError of them.
func (set *skillSet) unknown(uri string) response {
	set.mu.RLock()
	defer set.mu.RUnlock()
	if ref, ok := set.files[uri]; ok {
		return invalidParams("%s is a file of the skill %s, not a skill: skills/get takes the URI of a skill's %s", uri, ref.k.uri, skillMD)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no skill is served at %s; ", uri)
	if len(set.list) == 0 {
		b.WriteString("this server has no skills")
	} else {
		b.WriteString("the skills are ")
		for i, k := range set.list {
			if i == registry.MaxNamedInError {
				fmt.Fprintf(&b, " and %d more", len(set.list)-i)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k.uri)
		}
	}
	return invalidParams("%s", b.String())
}

// skillsExtension is the skills extension's member of the capabilities'
// extensions, for a server with skills: it serves
// resources/directory/read on every folder of them.
const skillsExtension = `"` + wire.ExtSkills + `":{"directoryRead":true}`
