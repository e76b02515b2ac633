package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// The files of skills: reading them from their FS, checked against the
// manifest (at start-up for every file, see checkSkills, and again as
// each is read), their MIME types, and the folders that
// resources/directory/read lists.

// errRegenerate ends every message about files that differ from their
// manifest: the manifest is what go generate computed.
const errRegenerate = "the skill changed after its manifest was made: re-run go generate (or correct Skill.Files)"

// fsPath is the path of the file rel of k in k.FS.
func (k *skill) fsPath(rel string) string {
	return path.Join(k.Dir, rel)
}

// checkFile reports how data differs from what f says of it, if it does.
func (f *SkillFile) checkFile(data []byte) error {
	sum := sha256.Sum256(data)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if int64(len(data)) != f.Size || digest != f.Digest {
		return fmt.Errorf("%s has %d bytes and digest %s, where the manifest says %d bytes and %s", f.Path, len(data), digest, f.Size, f.Digest)
	}
	return nil
}

// read reads f, a file of k's manifest, from k.FS, and refuses it unless
// it is what the manifest says.
func (k *skill) read(_ context.Context, f *SkillFile) (*ResourceResult, error) {
	data, err := fs.ReadFile(k.FS, k.fsPath(f.Path))
	if err == nil {
		err = f.checkFile(data)
	}
	if err != nil {
		return nil, fmt.Errorf("skill %s: %w; %s", k.Path, err, errRegenerate)
	}
	res := skillContents(k.root+"/"+f.Path, data)
	res.Cache = skillCache()
	return res, nil
}

// skillCache returns the cache hint of a file of a manifest: public, as
// its content is the same for every user (the one its digest names), and
// stale at once, as for a resource that sets none: a host that keeps it
// checks it against the entry it holds. Each result gets its own, which
// no other can change.
func skillCache() *CacheHint { return &CacheHint{} }

// readDynamic reads the file rel of a dynamic skill from what its Dynamic
// function gives. A file it does not have is not found.
func (k *skill) readDynamic(ctx context.Context, uri, rel string) (*ResourceResult, error) {
	fsys, err := k.Dynamic(ctx)
	if err != nil {
		return nil, fmt.Errorf("skill %s: %w", k.Path, err)
	}
	data, err := fs.ReadFile(fsys, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &ResourceNotFoundError{URI: uri}
	}
	if err != nil {
		return nil, fmt.Errorf("skill %s: %w", k.Path, err)
	}
	return skillContents(uri, data), nil
}

// skillContents is the result of reading the file uri: its text, for a
// textual MIME type and valid UTF-8, else its bytes.
func skillContents(uri string, data []byte) *ResourceResult {
	mime := skillFileMIMEType(uri)
	c := ResourceContents{URI: uri, MIMEType: mime}
	if textual(mime) && utf8.Valid(data) {
		c.Text = string(data)
	} else {
		c.Blob = data
	}
	return &ResourceResult{Contents: []ResourceContents{c}}
}

// skillMIMETypes are the MIME types of skill files by extension. The
// table is fixed, not the system's (mime.TypeByExtension reads
// /etc/mime.types), so that a file has the same type everywhere.
var skillMIMETypes = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain",
	".html": "text/html", ".htm": "text/html", ".css": "text/css", ".csv": "text/csv",
	".js": "text/javascript", ".mjs": "text/javascript", ".ts": "text/x-typescript",
	".py": "text/x-python", ".sh": "text/x-shellscript", ".go": "text/x-go", ".rb": "text/x-ruby",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml",
	".toml": "application/toml", ".xml": "application/xml", ".sql": "application/sql",
	".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".pdf": "application/pdf", ".zip": "application/zip",
}

// skillFileMIMEType is the MIME type of a skill's file by its name's
// extension; application/octet-stream for one the table does not know.
func skillFileMIMEType(name string) string {
	if t, ok := skillMIMETypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// textual reports whether contents of the MIME type are text.
func textual(mime string) bool {
	switch mime {
	case "application/json", "application/yaml", "application/toml", "application/xml", "application/sql", "image/svg+xml":
		return true
	}
	return strings.HasPrefix(mime, "text/")
}

// verify checks, once, that the files of k in its FS are the ones its
// manifest lists, and no others: a dynamic skill's SKILL.md alone.
func (k *skill) verify() error {
	k.verifyOnce.Do(func() {
		if k.Dynamic != nil {
			data, err := fs.ReadFile(k.FS, k.fsPath(skillMD))
			if err == nil {
				err = k.md.checkFile(data)
			}
			k.verifyErr = err
			return
		}
		k.verifyErr = k.verifyFolder()
	})
	if k.verifyErr != nil {
		return fmt.Errorf("skill %s: %w; %s", k.Path, k.verifyErr, errRegenerate)
	}
	return nil
}

// verifyFolder checks every file of k's folder against the manifest.
func (k *skill) verifyFolder() error {
	listed := make(map[string]*SkillFile, len(k.Files))
	for i := range k.Files {
		listed[k.Files[i].Path] = &k.Files[i]
	}
	dir := k.fsPath(".")
	err := fs.WalkDir(k.FS, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if dir == "." {
			rel = p
		}
		f := listed[rel]
		if f == nil {
			return fmt.Errorf("%s is in the skill's folder, and not in its manifest", rel)
		}
		delete(listed, rel)
		data, err := fs.ReadFile(k.FS, p)
		if err != nil {
			return err
		}
		return f.checkFile(data)
	})
	if err != nil {
		return err
	}
	for _, f := range k.Files {
		if listed[f.Path] != nil {
			return fmt.Errorf("%s is in the manifest, and not in the skill's folder", f.Path)
		}
	}
	return nil
}

// checkSkills reports the first skill whose files are not its manifest's,
// for Check: the server refuses to serve digests that do not match.
func (s *Server) checkSkills() error {
	for _, k := range s.skills.all() {
		if err := k.verify(); err != nil {
			return fmt.Errorf("runtime: %w", err)
		}
	}
	return nil
}

// findSkillFile returns the handler that reads uri, a file of a skill
// other than a SKILL.md (which AddSkill adds as a Resource), or nil.
func (s *Server) findSkillFile(uri string) ResourceHandler {
	set := &s.skills
	set.mu.RLock()
	ref, ok := set.files[uri]
	set.mu.RUnlock()
	if ok {
		return func(ctx context.Context, _ *ResourceRequest) (*ResourceResult, error) {
			return ref.k.read(ctx, ref.f)
		}
	}
	if k, rel := set.dynamicOwner(uri); k != nil && rel != "." {
		return func(ctx context.Context, _ *ResourceRequest) (*ResourceResult, error) {
			return k.readDynamic(ctx, uri, rel)
		}
	}
	return nil
}

// A dirChild is one child of a folder, as resources/directory/read lists
// it.
type dirChild struct {
	uri  string
	dir  bool
	size int64 // of a file of a manifest; -1 if unknown
}

// appendJSON writes c as a Resource: a folder with the MIME type
// inode/directory, a file with its own, its size if known, and the
// annotations of a skill's file.
func (c dirChild) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = jsonvalue.AppendString(b, c.uri)
	b = appendField(b, "name", path.Base(c.uri))
	if c.dir {
		return append(appendField(b, "mimeType", wire.MIMEDirectory), '}')
	}
	b = appendField(b, "mimeType", skillFileMIMEType(c.uri))
	if c.size >= 0 {
		b = fmt.Appendf(b, `,"size":%d`, c.size)
	}
	priority := "0.2"
	if path.Base(c.uri) == skillMD {
		priority = "1"
	}
	return append(b, `,"annotations":{"audience":["assistant"],"priority":`+priority+`}}`...)
}

// readDirectory answers resources/directory/read: the children of a
// folder of the skills, files and folders, a page at a time (see
// PageSize). The folder of a dynamic skill is listed from what its
// Dynamic function gives. A URI that names no folder is invalid params.
func (ss *session) readDirectory(c *call) response {
	uri, bad := stringParam(c.msg.Params, "uri", true)
	if bad != nil {
		return *bad
	}
	cursor, bad := stringParam(c.msg.Params, "cursor", false)
	if bad != nil {
		return *bad
	}
	set := &ss.srv.skills
	var children []dirChild
	if k, rel := set.dynamicOwner(uri); k != nil {
		err, stop, resp := ss.runHandler(c, handlerRun{kind: "skill", target: k.uri}, func(ctx context.Context) (err error) {
			children, err = k.dynamicChildren(ctx, uri, rel)
			return err
		})
		var notDir *errNotDirectory
		switch {
		case stop:
			return resp
		case errors.As(err, &notDir):
			return invalidParams("%v", err)
		case err != nil:
			return errorResponse(jsonrpc.InternalError, "reading the directory %s: %v", uri, err)
		}
	} else if children = set.children(uri); children == nil {
		return set.notDirectory(uri)
	}
	return pagedList(wire.MethodDirectoryRead+" "+uri, "resource", "resources", cursor, ss.srv.PageSize, children,
		func(ch dirChild) string { return ch.uri }, func(b []byte, ch dirChild) ([]byte, error) { return ch.appendJSON(b), nil })
}

// children returns the children of the folder uri of the manifests, or
// nil if it is none.
func (set *skillSet) children(uri string) []dirChild {
	set.mu.RLock()
	defer set.mu.RUnlock()
	uris, ok := set.dirs[uri]
	if !ok {
		return nil
	}
	out := make([]dirChild, 0, len(uris))
	for _, u := range uris {
		ch := dirChild{uri: u, size: -1}
		if ref, ok := set.files[u]; ok {
			ch.size = ref.f.Size
		} else {
			ch.dir = true
		}
		out = append(out, ch)
	}
	return out
}

// notDirectory is the answer to resources/directory/read for a URI that
// is not a folder of the skills.
func (set *skillSet) notDirectory(uri string) response {
	set.mu.RLock()
	_, file := set.files[uri]
	set.mu.RUnlock()
	why := notDirNone
	if file {
		why = notDirFile
	}
	return invalidParams("%v", &errNotDirectory{uri, why})
}

// errNotDirectory is why resources/directory/read refuses a URI: it names
// no folder.
type errNotDirectory struct{ uri, why string }

func (e *errNotDirectory) Error() string { return e.uri + e.why }

// dynamicChildren lists the folder rel of a dynamic skill: its SKILL.md
// at the root, and what the FS of its Dynamic function holds there.
func (k *skill) dynamicChildren(ctx context.Context, uri, rel string) ([]dirChild, error) {
	if rel == skillMD {
		return nil, &errNotDirectory{uri, notDirFile}
	}
	fsys, err := k.Dynamic(ctx)
	if err != nil {
		return nil, fmt.Errorf("skill %s: %w", k.Path, err)
	}
	switch info, err := fs.Stat(fsys, rel); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &errNotDirectory{uri, notDirNone}
	case err != nil:
		return nil, fmt.Errorf("skill %s: %w", k.Path, err)
	case !info.IsDir():
		return nil, &errNotDirectory{uri, notDirFile}
	}
	entries, err := fs.ReadDir(fsys, rel)
	if err != nil {
		return nil, fmt.Errorf("skill %s: %w", k.Path, err)
	}
	var out []dirChild
	if rel == "." {
		out = append(out, dirChild{uri: k.uri, size: k.md.Size})
	}
	for _, e := range entries {
		if rel == "." && e.Name() == skillMD {
			continue // the manifest's, above
		}
		out = append(out, dirChild{uri: uri + "/" + e.Name(), dir: e.IsDir(), size: -1})
	}
	return out, nil
}

// What a URI that is not a folder is, for errNotDirectory.
const (
	notDirFile = " is not a directory resource: it is a file, which resources/read reads"
	notDirNone = ": no directory resource is there"
)
