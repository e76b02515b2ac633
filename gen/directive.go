package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// The directives mcpgen reads. Like //go: directives they have no space
// after the slashes, so gofmt keeps them at the end of a doc comment and
// (*ast.CommentGroup).Text leaves them out of the description.
const (
	directiveTool     = "tool"     // //mcp:tool [name] [option...]
	directiveResource = "resource" // //mcp:resource URI [option...]
	directivePrompt   = "prompt"   // //mcp:prompt [name] [option...]
	directiveServer   = "server"   // //mcp:server [option...]
)

// spacedDirective reports a comment that is one of mcpgen's directives
// but for a space after the slashes, such as "// mcp:tool", which Go
// reads as a plain comment; it returns the directive's name.
func spacedDirective(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "//")
	trimmed := strings.TrimLeft(rest, " \t")
	if !ok || trimmed == rest {
		return "", false
	}
	rest, ok = strings.CutPrefix(trimmed, "mcp:")
	if fields := strings.Fields(rest); ok && len(fields) > 0 {
		switch fields[0] {
		case directiveTool, directiveResource, directivePrompt, directiveServer, directiveInstall, directiveConfig:
			return fields[0], true
		}
	}
	return "", false
}

// An arg is one argument of a directive: a bare word, a key=value pair,
// or (for a name) a quoted string.
type arg struct {
	key    string // empty for a positional argument
	value  string
	hasVal bool      // key=value rather than a bare key
	quoted bool      // the value is a Go string literal
	pos    token.Pos // start of the argument
	valPos token.Pos // start of the value
}

// parseArgs splits a directive's arguments. A value may be a bare word or
// a Go string literal, so title="Create a ticket" keeps its spaces; the
// positions let diagnostics point at the exact argument.
func parseArgs(d ast.Directive) ([]arg, error) {
	var args []arg
	s := d.Args
	for i := 0; i < len(s); {
		if unicode.IsSpace(rune(s[i])) {
			i++
			continue
		}
		a := arg{pos: d.ArgsPos + token.Pos(i)}
		if s[i] == '"' || s[i] == '`' {
			v, n, err := quoted(s[i:])
			if err != nil {
				return nil, &posError{a.pos, err}
			}
			a.value, a.valPos, a.quoted = v, a.pos, true
			args = append(args, a)
			i += n
			continue
		}
		j := i
		for j < len(s) && s[j] != '=' && !unicode.IsSpace(rune(s[j])) {
			j++
		}
		if j < len(s) && s[j] == '=' {
			a.key, a.hasVal = s[i:j], true
			j++
			a.valPos = d.ArgsPos + token.Pos(j)
			if j < len(s) && (s[j] == '"' || s[j] == '`') {
				v, n, err := quoted(s[j:])
				if err != nil {
					return nil, &posError{a.valPos, err}
				}
				a.value, a.quoted = v, true
				j += n
			} else {
				k := j
				for k < len(s) && !unicode.IsSpace(rune(s[k])) {
					k++
				}
				a.value = s[j:k]
				j = k
			}
			if j < len(s) && !unicode.IsSpace(rune(s[j])) {
				return nil, &posError{d.ArgsPos + token.Pos(j), fmt.Errorf("missing space after %s=…", a.key)}
			}
		} else {
			a.value, a.valPos = s[i:j], a.pos
		}
		args = append(args, a)
		i = j
	}
	return args, nil
}

func quoted(s string) (value string, n int, err error) {
	lit, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", 0, fmt.Errorf("unterminated or malformed quoted string")
	}
	v, err := strconv.Unquote(lit)
	if err != nil {
		return "", 0, err
	}
	return v, len(lit), nil
}

// posError is an error at a position.
type posError struct {
	pos token.Pos
	err error
}

func (e *posError) Error() string { return e.err.Error() }

// toolOptions are the settings of one //mcp:tool directive.
type toolOptions struct {
	name       string
	namePos    token.Pos
	title      string
	readOnly   *bool
	destruct   *bool
	idempotent *bool
	openWorld  *bool
	searchHint string
	alwaysLoad bool
	timeout    time.Duration
	scopes     []string
	// task is "optional" or "required" for a tool whose calls run as
	// tasks, "" otherwise; taskPoll and taskTTL are its pollInterval= and
	// ttl=.
	task     string
	taskPoll time.Duration
	taskTTL  time.Duration
	// icons are its icon= options (icons.go), and app its link to an MCP
	// App's view, ui= and visibility= (apps.go).
	icons []iconOption
	app   toolAppOptions
}

// boolOption describes a directive option that is a flag.
type boolOption struct {
	name string
	dst  func(o *toolOptions) **bool
}

var toolBoolOptions = []boolOption{
	{"readOnly", func(o *toolOptions) **bool { return &o.readOnly }},
	{"destructive", func(o *toolOptions) **bool { return &o.destruct }},
	{"idempotent", func(o *toolOptions) **bool { return &o.idempotent }},
	{"openWorld", func(o *toolOptions) **bool { return &o.openWorld }},
}

// toolOptionNames lists every option, for error messages.
const toolOptionNames = "name, title, readOnly, destructive, idempotent, openWorld, searchHint, alwaysLoad, timeout, scopes, task, pollInterval, ttl, icon, ui, visibility"

// parseToolDirective reads the options of //mcp:tool. Option names are
// matched without regard to case.
func (p *pass) parseToolDirective(d ast.Directive) (toolOptions, bool) {
	var o toolOptions
	args, err := parseArgs(d)
	if err != nil {
		pe := err.(*posError)
		p.errorf(pe.pos, "//mcp:tool: %v", pe.err)
		return o, false
	}
	ok := true
	for i, a := range args {
		if a.key == "" {
			if i == 0 && !isBoolOption(a.value) {
				o.name, o.namePos = a.value, a.valPos
				if !a.quoted {
					p.checkBareToolName(a)
				}
				continue
			}
			if bo := findBoolOption(a.value); bo != nil {
				*bo.dst(&o) = new(true)
				continue
			}
			if strings.EqualFold(a.value, "alwaysLoad") {
				o.alwaysLoad = true
				continue
			}
			ok = false
			if continuesValue(args, i) {
				continue // reported with the word before it
			}
			if hint, ok := quoteHint(args, i); ok {
				p.errorf(a.pos, "//mcp:tool: unexpected argument %q: quote a value with spaces: %s", a.value, hint)
				continue
			}
			if near := nearOption(a.value); near != "" {
				p.errorf(a.pos, "//mcp:tool: unexpected argument %q: did you mean %s? (options: %s)", a.value, near, toolOptionNames)
				continue
			}
			p.errorf(a.pos, "//mcp:tool: unexpected argument %q: the tool name comes first; options are key=value (%s)", a.value, toolOptionNames)
			continue
		}
		if !a.hasVal || a.value == "" && !strings.EqualFold(a.key, "title") {
			p.errorf(a.valPos, "//mcp:tool: %s= needs a value", a.key)
			ok = false
			continue
		}
		switch key := strings.ToLower(a.key); {
		case key == "name":
			o.name, o.namePos = a.value, a.valPos
		case key == "title":
			o.title = a.value
		case key == "searchhint":
			o.searchHint = a.value
		case key == "alwaysload":
			b, err := strconv.ParseBool(a.value)
			if err != nil {
				p.errorf(a.valPos, "//mcp:tool: alwaysLoad=%s: want true or false", a.value)
				ok = false
			}
			o.alwaysLoad = b
		case key == "timeout":
			t, err := time.ParseDuration(a.value)
			if err != nil || t <= 0 {
				p.errorf(a.valPos, "//mcp:tool: timeout=%s: want a positive duration such as 30s or 2m", a.value)
				ok = false
			}
			o.timeout = t
		case key == "scopes":
			o.scopes, ok = p.scopesOption("tool", a, ok)
		case key == "icon":
			ok = p.iconOption("tool", a, &o.icons) && ok
		case key == "ui" || key == "visibility":
			ok = p.toolAppOption(&o.app, key, a) && ok
		case key == "task":
			switch v := strings.ToLower(a.value); v {
			case "optional", "required":
				o.task = v
			case "forbidden":
			default:
				p.errorf(a.valPos, "//mcp:tool: task=%s: want optional, required or forbidden", a.value)
				ok = false
			}
		case key == "pollinterval" || key == "ttl":
			d, err := time.ParseDuration(a.value)
			if err != nil || d <= 0 {
				p.errorf(a.valPos, "//mcp:tool: %s=%s: want a positive duration such as 5s or 1h", a.key, a.value)
				ok = false
			}
			if key == "ttl" {
				o.taskTTL = d
			} else {
				o.taskPoll = d
			}
		case findBoolOption(key) != nil:
			b, err := strconv.ParseBool(a.value)
			if err != nil {
				p.errorf(a.valPos, "//mcp:tool: %s=%s: want true or false", a.key, a.value)
				ok = false
			}
			*findBoolOption(key).dst(&o) = new(b)
		default:
			p.errorf(a.pos, "%s", unknownOption("tool", a.key, toolOptionNames))
			ok = false
		}
	}
	if o.task == "" && (o.taskPoll > 0 || o.taskTTL > 0) {
		p.errorf(d.ArgsPos, "//mcp:tool: pollInterval= and ttl= are for a tool whose calls run as tasks: add task=optional or task=required")
		ok = false
	}
	return o, ok
}

func findBoolOption(name string) *boolOption {
	for i := range toolBoolOptions {
		if strings.EqualFold(toolBoolOptions[i].name, name) {
			return &toolBoolOptions[i]
		}
	}
	return nil
}

func isBoolOption(word string) bool {
	return findBoolOption(word) != nil || strings.EqualFold(word, "alwaysLoad")
}

// flagOptions are the options written bare, and valueOptions those that
// take a value: a tool name that resembles one is probably a mistake.
var (
	flagOptions  = []string{"readOnly", "destructive", "idempotent", "openWorld", "alwaysLoad"}
	valueOptions = []string{"name", "title", "searchHint", "timeout", "scopes", "task", "pollInterval", "ttl", "icon", "ui", "visibility"}
)

// checkBareToolName warns about a tool name, the first word of
// //mcp:tool, that looks like a mistake: an option that takes a value,
// or a flag misspelled (//mcp:tool destructve names a tool "destructve"
// that advertises no destructiveHint); and about a name that is not
// snake_case, as default names are.
func (p *pass) checkBareToolName(a arg) {
	for _, opt := range valueOptions {
		if strings.EqualFold(a.value, opt) {
			p.warnf(a.pos, "//mcp:tool %s names the tool %q: %s is an option that takes a value (%s=…); write name=%s to keep the name", a.value, a.value, opt, opt, a.value)
			return
		}
	}
	if near := nearOption(a.value); near != "" {
		p.warnf(a.pos, "//mcp:tool %s names the tool %q, which looks like the option %s: write %s for the option, or name=%s to keep the name", a.value, a.value, near, near, a.value)
		return
	}
	if strings.ContainsFunc(a.value, unicode.IsUpper) {
		p.warnf(a.pos, "tool name %q is not snake_case, as default names are (%s): the model reads the name; write name=%s to keep it", a.value, snakeCase(a.value), a.value)
	}
}

// nearOption returns the flag option that word is one or two edits away
// from, ignoring case, or "".
func nearOption(word string) string {
	return nearest(word, flagOptions)
}

// nearest returns the candidate that word is one or two edits away from,
// ignoring case (the closest, the first of equals), or "": what a
// misspelling probably meant.
func nearest(word string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(word), strings.ToLower(c)); d > 0 && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// continuesValue reports whether the bare word args[i] follows another
// bare word that follows an unquoted key=value: quoteHint reported the
// run at its first word.
func continuesValue(args []arg, i int) bool {
	j := i - 1
	for j >= 0 && args[j].key == "" && !args[j].quoted && !isBoolOption(args[j].value) {
		j--
	}
	return j >= 0 && j < i-1 && args[j].hasVal && !args[j].quoted
}

// quoteHint reports whether the bare word args[i] is the first of words
// that continue an unquoted key=value before them, as in title=Read a
// file, and returns the option as it should be written: title="Read a
// file". The other words of the run are not reported again.
func quoteHint(args []arg, i int) (string, bool) {
	j := i - 1
	if j < 0 || !args[j].hasVal || args[j].quoted {
		return "", false
	}
	words := []string{args[j].value}
	for k := j + 1; k < len(args) && args[k].key == "" && !args[k].quoted && !isBoolOption(args[k].value); k++ {
		words = append(words, args[k].value)
	}
	return args[j].key + "=" + strconv.Quote(strings.Join(words, " ")), true
}

// serverOptions are the settings of the //mcp:server package directive.
type serverOptions struct {
	pos          token.Pos
	name         string
	version      string
	versionPos   token.Pos
	title        string
	instructions string
	inline       bool
	// surface asks for the snapshot of what clients see, mcp_surface.json
	// (surface.go).
	surface bool
}

const serverOptionNames = "name, version, title, instructions, inline, surface"

func (p *pass) parseServerDirective(d ast.Directive) (serverOptions, bool) {
	o := serverOptions{pos: d.Slash}
	args, err := parseArgs(d)
	if err != nil {
		pe := err.(*posError)
		p.errorf(pe.pos, "//mcp:server: %v", pe.err)
		return o, false
	}
	ok := true
	for i, a := range args {
		key := strings.ToLower(a.key)
		if a.key == "" {
			key = strings.ToLower(a.value)
			if key != "inline" && key != "surface" {
				if hint, quote := quoteHint(args, i); quote {
					p.errorf(a.pos, "//mcp:server: unexpected argument %q: quote a value with spaces: %s", a.value, hint)
				} else if !continuesValue(args, i) {
					p.errorf(a.pos, "//mcp:server: unexpected argument %q: options are key=value (%s)", a.value, serverOptionNames)
				}
				ok = false
				continue
			}
			a.value = "true"
		}
		switch key {
		case "name":
			o.name = a.value
		case "version":
			o.version, o.versionPos = a.value, a.valPos
		case "title":
			o.title = a.value
		case "instructions":
			o.instructions = a.value
		case "inline", "surface":
			b, err := strconv.ParseBool(a.value)
			if err != nil {
				p.errorf(a.valPos, "//mcp:server: %s=%s: want true or false", key, a.value)
				ok = false
			}
			if key == "inline" {
				o.inline = b
			} else {
				o.surface = b
			}
		default:
			p.errorf(a.pos, "%s", unknownOption("server", a.key, serverOptionNames))
			ok = false
		}
	}
	if o.name != "" && !validToolName(o.name) {
		p.errorf(o.pos, "//mcp:server: server name %q must match ^[a-zA-Z0-9_-]{1,64}$ (Claude Code's rule for names)", o.name)
		ok = false
	}
	return o, ok
}

// validToolName reports whether name satisfies Claude Code's rule
// ^[a-zA-Z0-9_-]{1,64}$.
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0
}

// primitiveOptions are the options //mcp:resource and //mcp:prompt share.
type primitiveOptions struct {
	name        string
	namePos     token.Pos
	title       string
	description string
	complete    string // a completer's name
	completePos token.Pos
	scopes      []string
}

// set reads a shared option, and reports whether key is one.
func (o *primitiveOptions) set(key string, a arg) bool {
	switch key {
	case "name":
		o.name, o.namePos = a.value, a.valPos
	case "title":
		o.title = a.value
	case "description":
		o.description = a.value
	case "complete":
		o.complete, o.completePos = a.value, a.valPos
	default:
		return false
	}
	return true
}

// resourceOptions are the settings of one //mcp:resource directive.
type resourceOptions struct {
	primitiveOptions
	uri         string
	uriPos      token.Pos
	mimeType    string
	mimeTypePos token.Pos
	size        int64
	audience    []string
	priority    *float64
	// app is how an MCP App's view asks to be shown (apps.go).
	app appResourceOptions
}

const resourceOptionNames = "name, title, description, mimeType, size, audience, priority, complete, scopes, " + appResourceOptionNames

// parseResourceDirective reads //mcp:resource URI [option...].
func (p *pass) parseResourceDirective(d ast.Directive) (resourceOptions, bool) {
	var o resourceOptions
	args, ok := p.directiveArgs(d, "resource")
	if !ok {
		return o, false
	}
	if len(args) == 0 || args[0].key != "" {
		p.errorf(d.Slash, "//mcp:resource needs a URI or a URI template first, such as //mcp:resource notes://{id}")
		return o, false
	}
	o.uri, o.uriPos = args[0].value, args[0].valPos
	for i, a := range args[1:] {
		if a.key == "" {
			if hint, quote := quoteHint(args, i+1); quote {
				p.errorf(a.pos, "//mcp:resource: unexpected argument %q: quote a value with spaces: %s", a.value, hint)
			} else if !continuesValue(args, i+1) {
				p.errorf(a.pos, "//mcp:resource: unexpected argument %q: the URI comes first; options are key=value (%s)", a.value, resourceOptionNames)
			}
			ok = false
			continue
		}
		switch key := strings.ToLower(a.key); {
		case o.set(key, a):
		case key == "scopes":
			o.scopes, ok = p.scopesOption("resource", a, ok)
		case key == "mimetype":
			o.mimeType, o.mimeTypePos = a.value, a.valPos
		case isAppResourceOption(key):
			ok = p.appResourceOption(&o.app, key, a) && ok
		case key == "size":
			n, err := strconv.ParseInt(a.value, 10, 64)
			if err != nil || n <= 0 {
				p.errorf(a.valPos, "//mcp:resource: size=%s: want a positive number of bytes", a.value)
				ok = false
			}
			o.size = n
		case key == "audience":
			for _, who := range strings.Split(a.value, ",") {
				if who != "user" && who != "assistant" {
					p.errorf(a.valPos, "//mcp:resource: audience=%s: want user, assistant or user,assistant", a.value)
					ok = false
					break
				}
				o.audience = append(o.audience, who)
			}
		case key == "priority":
			f, err := strconv.ParseFloat(a.value, 64)
			if err != nil || f < 0 || f > 1 {
				p.errorf(a.valPos, "//mcp:resource: priority=%s: want a number from 0 to 1", a.value)
				ok = false
			}
			o.priority = &f
		default:
			p.errorf(a.pos, "%s", unknownOption("resource", a.key, resourceOptionNames))
			ok = false
		}
	}
	return o, ok
}

const promptOptionNames = "name, title, description, complete, scopes"

// parsePromptDirective reads //mcp:prompt [name] [option...].
func (p *pass) parsePromptDirective(d ast.Directive) (primitiveOptions, bool) {
	var o primitiveOptions
	args, ok := p.directiveArgs(d, "prompt")
	if !ok {
		return o, false
	}
	for i, a := range args {
		switch {
		case a.key == "" && i == 0:
			o.name, o.namePos = a.value, a.valPos
		case a.key == "":
			if hint, quote := quoteHint(args, i); quote {
				p.errorf(a.pos, "//mcp:prompt: unexpected argument %q: quote a value with spaces: %s", a.value, hint)
			} else if !continuesValue(args, i) {
				p.errorf(a.pos, "//mcp:prompt: unexpected argument %q: the prompt name comes first; options are key=value (%s)", a.value, promptOptionNames)
			}
			ok = false
		case strings.EqualFold(a.key, "scopes"):
			o.scopes, ok = p.scopesOption("prompt", a, ok)
		case !o.set(strings.ToLower(a.key), a):
			p.errorf(a.pos, "%s", unknownOption("prompt", a.key, promptOptionNames))
			ok = false
		}
	}
	return o, ok
}

// scopesOption reads scopes=a,b (or a quoted list with spaces): the OAuth
// scopes a token needs for the operation. Each must be an OAuth scope
// token (RFC 6749 §3.3: printable ASCII without space, " or \), once.
// It returns the scopes and ok, false when it reported an error.
func (p *pass) scopesOption(directive string, a arg, ok bool) ([]string, bool) {
	var scopes []string
	for _, sc := range strings.FieldsFunc(a.value, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch {
		case strings.ContainsFunc(sc, func(r rune) bool { return r < 0x21 || r > 0x7e || r == '"' || r == '\\' }):
			p.errorf(a.valPos, "//mcp:%s: scopes=%s: %q is not an OAuth scope (printable ASCII, without spaces, quotes or backslashes)", directive, a.value, sc)
			ok = false
		case slices.Contains(scopes, sc):
			p.errorf(a.valPos, "//mcp:%s: scopes=%s: %q is listed twice", directive, a.value, sc)
			ok = false
		default:
			scopes = append(scopes, sc)
		}
	}
	if len(scopes) == 0 && ok {
		p.errorf(a.valPos, "//mcp:%s: scopes= needs at least one scope, such as scopes=notes:write", directive)
		ok = false
	}
	return scopes, ok
}

// directiveArgs splits the arguments of //mcp:<name>, reporting a syntax
// error or an option without a value.
func (p *pass) directiveArgs(d ast.Directive, name string) ([]arg, bool) {
	args, err := parseArgs(d)
	if err != nil {
		pe := err.(*posError)
		p.errorf(pe.pos, "//mcp:%s: %v", name, pe.err)
		return nil, false
	}
	ok := true
	for _, a := range args {
		if a.hasVal && a.value == "" {
			p.errorf(a.valPos, "//mcp:%s: %s= needs a value", name, a.key)
			ok = false
		}
	}
	return args, ok
}

// unknownOption says that a directive has no option key, which option was
// probably meant, and what the options are.
func unknownOption(directive, key, names string) string {
	msg := fmt.Sprintf("//mcp:%s: unknown option %q", directive, key)
	if near := nearest(key, strings.Split(names, ", ")); near != "" {
		msg += fmt.Sprintf(": did you mean %s?", near)
	}
	return msg + " (options: " + names + ")"
}
