package gen

import (
	"go/ast"
	"go/doc"
	"go/token"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// directiveInstall asks for a server's install files (installfiles.go):
//
//	//mcp:install [option ...]
//
// in the package doc comment, on as many lines as it takes, each option
// once. Its options say what the code cannot: where the server is
// published and who publishes it.
const directiveInstall = "install"

// installOptions are the options of the package's //mcp:install lines.
type installOptions struct {
	pos    token.Pos            // the first //mcp:install
	values map[string]string    // by option, as written
	at     map[string]token.Pos // where each value is
}

// installOptionNames lists the options of //mcp:install, for messages.
const installOptionNames = "registry, description, author, homepage, repository, license, icon, command, oci, mcpb, remote"

// parseInstallDirective adds the options of one //mcp:install line to o.
func (p *pass) parseInstallDirective(d ast.Directive, o *installOptions) {
	if !o.pos.IsValid() {
		o.pos, o.values, o.at = d.Slash, map[string]string{}, map[string]token.Pos{}
	}
	args, ok := p.directiveArgs(d, directiveInstall)
	if !ok {
		return
	}
	for i, a := range args {
		key := strings.ToLower(a.key)
		switch {
		case a.key == "":
			if hint, quote := quoteHint(args, i); quote {
				p.errorf(a.pos, "//mcp:install: unexpected argument %q: quote a value with spaces: %s", a.value, hint)
			} else if !continuesValue(args, i) {
				p.errorf(a.pos, "//mcp:install: unexpected argument %q: options are key=value (%s)", a.value, installOptionNames)
			}
		case !strings.Contains(", "+installOptionNames+",", ", "+key+","):
			p.errorf(a.pos, "%s", unknownOption("install", a.key, installOptionNames))
		case o.values[key] != "":
			first := p.fset.Position(o.at[key])
			p.errorf(a.pos, "//mcp:install: %s= is set already, at %s:%d", a.key, filepath.Base(first.Filename), first.Line)
		default:
			o.values[key], o.at[key] = a.value, a.valPos
		}
	}
}

// An installInfo is everything the install files say about a server,
// resolved from the directives, the doc comment and the module, and
// checked.
type installInfo struct {
	name        string // the server's name, as NewServer reports it
	registry    string // the Registry's reverse-DNS name
	title       string
	description string
	version     string
	author      string
	homepage    string
	license     string
	icon        string
	repository  string // URL
	source      string // github, gitlab, …
	subfolder   string // the package's directory in the repository
	command     string // the binary's name
	oci         string // image without tag
	mcpb        string // the bundle's URL, {version} replaced
	remote      string // Streamable HTTP URL
	tools       []*tool
	prompts     bool
	config      []*configField
}

// Limits of the Registry's server.json (schema 2025-12-11).
const (
	maxRegistryDescription = 100
	maxRegistryTitle       = 100
)

// registryName is the Registry's pattern for a server's name: a
// reverse-DNS namespace, one slash, a name.
var registryName = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// buildInstall resolves and checks what the install files say, reporting
// every mistake; it returns nil when the package has no //mcp:install or
// when something is wrong.
func (m *model) buildInstall() *installInfo {
	o := m.install
	if o == nil {
		return nil
	}
	p := m.pass
	owner, repo, host := modulePlace(p.lp.modulePath)
	in := &installInfo{
		name:        m.serverName(),
		title:       m.server.title,
		version:     m.server.version,
		description: o.values["description"],
		author:      o.values["author"],
		homepage:    o.values["homepage"],
		license:     o.values["license"],
		icon:        o.values["icon"],
		repository:  o.values["repository"],
		command:     o.values["command"],
		oci:         o.values["oci"],
		remote:      o.values["remote"],
		registry:    o.values["registry"],
		tools:       m.tools,
		prompts:     len(m.prompts) > 0,
	}
	if td := m.config(); td != nil {
		in.config = td.config
	}
	switch {
	case in.version == "":
		p.errorf(o.pos, "//mcp:install: the install files need the server's version: add version=1.0.0 to //mcp:server")
	case !isSemver(in.version):
		p.errorf(m.server.versionPos, "//mcp:server: version=%s is not a semantic version (MAJOR.MINOR.PATCH, such as 1.0.0 or 2.1.0-beta.1), which MCP bundles and the Registry require", in.version)
	}
	switch {
	case in.registry == "" && owner == "":
		p.errorf(o.pos, "//mcp:install: the module %s is not on GitHub or GitLab, so the Registry name cannot be derived from it: add registry=<reverse-DNS namespace>/%s", p.lp.modulePath, in.name)
	case in.registry == "":
		in.registry = "io." + strings.TrimSuffix(host, ".com") + "." + owner + "/" + in.name
	}
	if in.registry != "" && (!registryName.MatchString(in.registry) || len(in.registry) > 200) {
		p.errorf(m.installPos("registry"), "//mcp:install: registry=%s: the Registry wants a reverse-DNS namespace, one slash and a name of letters, digits, ., _ and -, such as io.github.owner/%s", in.registry, in.name)
	}
	if in.description == "" {
		in.description = m.synopsis()
		switch n := utf8.RuneCountInString(in.description); {
		case n == 0:
			p.errorf(o.pos, "//mcp:install: the server needs a description: write a package doc comment, or description=\"…\"")
		case n > maxRegistryDescription:
			p.errorf(o.pos, "//mcp:install: the package doc comment's first sentence, the server's description, has %d characters, and the Registry allows %d: write a shorter one with description=\"…\"", n, maxRegistryDescription)
		}
	} else if n := utf8.RuneCountInString(in.description); n > maxRegistryDescription {
		p.errorf(m.installPos("description"), "//mcp:install: description has %d characters, and the Registry allows %d", n, maxRegistryDescription)
	}
	if utf8.RuneCountInString(in.title) > maxRegistryTitle {
		p.errorf(m.server.pos, "//mcp:server: title has %d characters, and the Registry allows %d", utf8.RuneCountInString(in.title), maxRegistryTitle)
	}
	if in.repository == "" && owner != "" {
		in.repository = "https://" + host + "/" + owner + "/" + repo
	}
	if in.repository != "" {
		if u := m.checkURL("repository", in.repository, false); u != nil {
			in.source = strings.TrimSuffix(strings.TrimPrefix(u.Hostname(), "www."), ".com")
		}
		in.subfolder = p.lp.moduleSubdir
	}
	if in.author == "" {
		in.author = owner
		if owner == "" {
			p.errorf(o.pos, "//mcp:install: an MCP bundle names its author: add author=\"Your Name\"")
		}
	}
	if in.command == "" {
		in.command = path.Base(p.pkg.Path())
	} else if strings.ContainsAny(in.command, `/\ `) {
		p.errorf(m.installPos("command"), "//mcp:install: command=%s: the name of the server's binary, without a folder", in.command)
	}
	if in.homepage != "" {
		m.checkURL("homepage", in.homepage, false)
	}
	if in.icon != "" {
		if u := m.checkURL("icon", in.icon, true); u != nil && iconType(u.Path) == "" {
			p.errorf(m.installPos("icon"), "//mcp:install: icon=%s: a PNG, JPEG, SVG or WebP image (by its extension), which the Registry's clients display", in.icon)
		}
	}
	if in.remote != "" {
		m.checkURL("remote", in.remote, false)
	}
	if in.oci != "" && !ociImage.MatchString(in.oci) {
		p.errorf(m.installPos("oci"), "//mcp:install: oci=%s: an image without its tag, registry host first, such as ghcr.io/owner/%s (the tag is the version)", in.oci, in.name)
	}
	if raw := o.values["mcpb"]; raw != "" {
		in.mcpb = strings.ReplaceAll(raw, "{version}", in.version)
		if u := m.checkURL("mcpb", in.mcpb, true); u != nil && !strings.Contains(in.mcpb, "mcp") {
			p.errorf(m.installPos("mcpb"), "//mcp:install: mcpb=%s: the Registry accepts a bundle whose URL contains \"mcp\" (as the .mcpb extension does)", raw)
		}
	}
	if in.oci == "" && in.mcpb == "" && in.remote == "" {
		p.warnf(o.pos, "//mcp:install: server.json lists no package and no remote, so the Registry has nothing to install: add oci=, mcpb= or remote=")
	}
	if p.hasErrors() {
		return nil
	}
	return in
}

// installPos is where the value of an //mcp:install option is, or the
// directive when the option is not written.
func (m *model) installPos(option string) token.Pos {
	if pos, ok := m.install.at[option]; ok {
		return pos
	}
	return m.install.pos
}

// checkURL reports a value of option that is not an absolute http or
// https URL (https only, if secure), and returns it parsed when it is.
func (m *model) checkURL(option, raw string, secure bool) *url.URL {
	u, err := url.Parse(raw)
	want := "an absolute http or https URL"
	if secure {
		want = "an https URL"
	}
	if err != nil || u.Host == "" || !(u.Scheme == "https" || u.Scheme == "http" && !secure) {
		m.errorf(m.installPos(option), "//mcp:install: %s=%s: want %s", option, raw, want)
		return nil
	}
	return u
}

// ociImage is an OCI image name without a tag or digest: a registry host
// (with a dot or a port), then a path.
var ociImage = regexp.MustCompile(`^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9]+([._-][a-z0-9]+)*)+$`)

// iconType is the MIME type of an icon by its file name's extension, or
// "" for one the Registry does not list.
func iconType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".svg":
		return "image/svg+xml"
	case ".webp":
		return "image/webp"
	}
	return ""
}

// semverPattern is semver.org's pattern of a version, without the v
// prefix that Go's module versions carry.
var semverPattern = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// isSemver reports whether v is a semantic version, 1.0.0 or 2.1.0-rc.1.
func isSemver(v string) bool { return semverPattern.MatchString(v) }

// modulePlace splits a module path on a code host into its owner and
// repository: github.com/mcpgen/mcpgen → mcpgen, mcpgen, github.com. It
// returns empty strings for a module elsewhere.
func modulePlace(modulePath string) (owner, repo, host string) {
	parts := strings.Split(modulePath, "/")
	if len(parts) < 3 || parts[0] != "github.com" && parts[0] != "gitlab.com" {
		return "", "", ""
	}
	return parts[1], parts[2], parts[0]
}

// synopsis is the first sentence of the package doc comment, without
// the words "Command notes" or "Package notes" that Go's convention
// starts it with: "Keeps notes." for "Command notes keeps notes."
func (m *model) synopsis() string {
	for _, f := range m.files {
		if f.Doc != nil {
			var leads []string
			for _, name := range []string{m.serverName(), m.pkg.Name(), path.Base(m.pkg.Path())} {
				leads = append(leads, "Command "+name, "Package "+name)
			}
			return withoutSubject(new(doc.Package).Synopsis(f.Doc.Text()), leads...)
		}
	}
	return ""
}

// withoutSubject drops one of leads and a space from the start of a
// sentence, and capitalises what follows: "Command notes keeps notes." →
// "Keeps notes.".
func withoutSubject(sentence string, leads ...string) string {
	for _, lead := range leads {
		rest, ok := strings.CutPrefix(sentence, lead+" ")
		if ok && rest != "" {
			r, n := utf8.DecodeRuneInString(rest)
			return string(unicode.ToUpper(r)) + rest[n:]
		}
	}
	return sentence
}
