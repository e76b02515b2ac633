package gen

import (
	"fmt"
	"go/ast"
	"go/token"
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
		case directiveTool, directiveResource, directivePrompt, directiveServer:
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
			a.value, a.valPos = v, a.pos
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
				a.value = v
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
	// task is "optional" or "required" for a tool whose calls run as
	// tasks, "" otherwise; taskPoll and taskTTL are its pollInterval= and
	// ttl=.
	task     string
	taskPoll time.Duration
	taskTTL  time.Duration
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
const toolOptionNames = "name, title, readOnly, destructive, idempotent, openWorld, searchHint, alwaysLoad, timeout, task, pollInterval, ttl"

// parseToolDirective reads the options of //mcp:tool. Option names are
// matched without regard to case.
func parseToolDirective(d ast.Directive, ds *diagnostics) (toolOptions, bool) {
	var o toolOptions
	args, err := parseArgs(d)
	if err != nil {
		pe := err.(*posError)
		ds.errorf(pe.pos, "//mcp:tool: %v", pe.err)
		return o, false
	}
	ok := true
	for i, a := range args {
		if a.key == "" {
			if i == 0 && !isBoolOption(a.value) {
				o.name, o.namePos = a.value, a.valPos
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
			ds.errorf(a.pos, "//mcp:tool: unexpected argument %q: the tool name comes first; options are key=value (%s)", a.value, toolOptionNames)
			ok = false
			continue
		}
		if !a.hasVal || a.value == "" && !strings.EqualFold(a.key, "title") {
			ds.errorf(a.valPos, "//mcp:tool: %s= needs a value", a.key)
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
				ds.errorf(a.valPos, "//mcp:tool: alwaysLoad=%s: want true or false", a.value)
				ok = false
			}
			o.alwaysLoad = b
		case key == "timeout":
			t, err := time.ParseDuration(a.value)
			if err != nil || t <= 0 {
				ds.errorf(a.valPos, "//mcp:tool: timeout=%s: want a positive duration such as 30s or 2m", a.value)
				ok = false
			}
			o.timeout = t
		case key == "task":
			switch v := strings.ToLower(a.value); v {
			case "optional", "required":
				o.task = v
			case "forbidden":
			default:
				ds.errorf(a.valPos, "//mcp:tool: task=%s: want optional, required or forbidden", a.value)
				ok = false
			}
		case key == "pollinterval" || key == "ttl":
			d, err := time.ParseDuration(a.value)
			if err != nil || d <= 0 {
				ds.errorf(a.valPos, "//mcp:tool: %s=%s: want a positive duration such as 5s or 1h", a.key, a.value)
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
				ds.errorf(a.valPos, "//mcp:tool: %s=%s: want true or false", a.key, a.value)
				ok = false
			}
			*findBoolOption(key).dst(&o) = new(b)
		default:
			ds.errorf(a.pos, "//mcp:tool: unknown option %q (options: %s)", a.key, toolOptionNames)
			ok = false
		}
	}
	if o.task == "" && (o.taskPoll > 0 || o.taskTTL > 0) {
		ds.errorf(d.ArgsPos, "//mcp:tool: pollInterval= and ttl= are for a tool whose calls run as tasks: add task=optional or task=required")
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

// serverOptions are the settings of the //mcp:server package directive.
type serverOptions struct {
	pos          token.Pos
	name         string
	version      string
	title        string
	instructions string
	inline       bool
}

const serverOptionNames = "name, version, title, instructions, inline"

func parseServerDirective(d ast.Directive, ds *diagnostics) (serverOptions, bool) {
	o := serverOptions{pos: d.Slash}
	args, err := parseArgs(d)
	if err != nil {
		pe := err.(*posError)
		ds.errorf(pe.pos, "//mcp:server: %v", pe.err)
		return o, false
	}
	ok := true
	for _, a := range args {
		key := strings.ToLower(a.key)
		if a.key == "" {
			key = strings.ToLower(a.value)
			if key != "inline" {
				ds.errorf(a.pos, "//mcp:server: unexpected argument %q: options are key=value (%s)", a.value, serverOptionNames)
				ok = false
				continue
			}
			a.value = "true"
		}
		switch key {
		case "name":
			o.name = a.value
		case "version":
			o.version = a.value
		case "title":
			o.title = a.value
		case "instructions":
			o.instructions = a.value
		case "inline":
			b, err := strconv.ParseBool(a.value)
			if err != nil {
				ds.errorf(a.valPos, "//mcp:server: inline=%s: want true or false", a.value)
				ok = false
			}
			o.inline = b
		default:
			ds.errorf(a.pos, "//mcp:server: unknown option %q (options: %s)", a.key, serverOptionNames)
			ok = false
		}
	}
	if o.name != "" && !validToolName(o.name) {
		ds.errorf(o.pos, "//mcp:server: server name %q must match ^[a-zA-Z0-9_-]{1,64}$ (Claude Code's rule for names)", o.name)
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

// snakeCase turns a Go name into a tool name: CreateTicket → create_ticket,
// GetHTTPStatus → get_http_status, ID2Name → id2_name.
func snakeCase(name string) string {
	runes := []rune(name)
	var b strings.Builder
	for i, r := range runes {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1]))
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if i > 0 && runes[i-1] != '_' && (prevLower || nextLower && unicode.IsUpper(runes[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// primitiveOptions are the options //mcp:resource and //mcp:prompt share.
type primitiveOptions struct {
	name        string
	namePos     token.Pos
	title       string
	description string
	complete    string // a completer's name
	completePos token.Pos
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
	uri      string
	uriPos   token.Pos
	mimeType string
	size     int64
	audience []string
	priority *float64
}

const resourceOptionNames = "name, title, description, mimeType, size, audience, priority, complete"

// parseResourceDirective reads //mcp:resource URI [option...].
func parseResourceDirective(d ast.Directive, ds *diagnostics) (resourceOptions, bool) {
	var o resourceOptions
	args, ok := directiveArgs(d, "resource", ds)
	if !ok {
		return o, false
	}
	if len(args) == 0 || args[0].key != "" {
		ds.errorf(d.Slash, "//mcp:resource needs a URI or a URI template first, such as //mcp:resource notes://{id}")
		return o, false
	}
	o.uri, o.uriPos = args[0].value, args[0].valPos
	for _, a := range args[1:] {
		if a.key == "" {
			ds.errorf(a.pos, "//mcp:resource: unexpected argument %q: the URI comes first; options are key=value (%s)", a.value, resourceOptionNames)
			ok = false
			continue
		}
		switch key := strings.ToLower(a.key); {
		case o.set(key, a):
		case key == "mimetype":
			o.mimeType = a.value
		case key == "size":
			n, err := strconv.ParseInt(a.value, 10, 64)
			if err != nil || n <= 0 {
				ds.errorf(a.valPos, "//mcp:resource: size=%s: want a positive number of bytes", a.value)
				ok = false
			}
			o.size = n
		case key == "audience":
			for _, who := range strings.Split(a.value, ",") {
				if who != "user" && who != "assistant" {
					ds.errorf(a.valPos, "//mcp:resource: audience=%s: want user, assistant or user,assistant", a.value)
					ok = false
					break
				}
				o.audience = append(o.audience, who)
			}
		case key == "priority":
			f, err := strconv.ParseFloat(a.value, 64)
			if err != nil || f < 0 || f > 1 {
				ds.errorf(a.valPos, "//mcp:resource: priority=%s: want a number from 0 to 1", a.value)
				ok = false
			}
			o.priority = &f
		default:
			ds.errorf(a.pos, "//mcp:resource: unknown option %q (options: %s)", a.key, resourceOptionNames)
			ok = false
		}
	}
	return o, ok
}

const promptOptionNames = "name, title, description, complete"

// parsePromptDirective reads //mcp:prompt [name] [option...].
func parsePromptDirective(d ast.Directive, ds *diagnostics) (primitiveOptions, bool) {
	var o primitiveOptions
	args, ok := directiveArgs(d, "prompt", ds)
	if !ok {
		return o, false
	}
	for i, a := range args {
		switch {
		case a.key == "" && i == 0:
			o.name, o.namePos = a.value, a.valPos
		case a.key == "":
			ds.errorf(a.pos, "//mcp:prompt: unexpected argument %q: the prompt name comes first; options are key=value (%s)", a.value, promptOptionNames)
			ok = false
		case !o.set(strings.ToLower(a.key), a):
			ds.errorf(a.pos, "//mcp:prompt: unknown option %q (options: %s)", a.key, promptOptionNames)
			ok = false
		}
	}
	return o, ok
}

// directiveArgs splits the arguments of //mcp:<name>, reporting a syntax
// error or an option without a value.
func directiveArgs(d ast.Directive, name string, ds *diagnostics) ([]arg, bool) {
	args, err := parseArgs(d)
	if err != nil {
		pe := err.(*posError)
		ds.errorf(pe.pos, "//mcp:%s: %v", name, pe.err)
		return nil, false
	}
	ok := true
	for _, a := range args {
		if a.hasVal && a.value == "" {
			ds.errorf(a.valPos, "//mcp:%s: %s= needs a value", name, a.key)
			ok = false
		}
	}
	return args, ok
}
