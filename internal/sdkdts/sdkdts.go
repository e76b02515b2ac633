// Package sdkdts reads the type declarations of the TypeScript Claude
// Agent SDK (sdk.d.ts) for what the Go host in runtime/claude mirrors: the
// members of Options, the methods of Query, the exported functions, the
// hook events, the control request subtypes and the start-up failure
// reasons, each with the text that declares it. runtime/claude's tests
// check the host against the pinned SDK with it, and Diff says what a
// newer SDK adds or changes (.ci/sdk-diff.sh).
//
// sdk.d.ts is generated, and its layout is regular: every top-level
// declaration starts at column 0 ("export declare type X = {", "declare
// type X = ...", "export declare function f(...)"), members are indented
// by four spaces, and doc comments sit right above what they document.
// The parser relies on that layout, not on TypeScript's grammar.
package sdkdts

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A Decl is a named declaration and its text: the lines that declare it,
// its doc comment included.
type Decl struct {
	Name string
	Text string
}

// An API is what the host mirrors of one sdk.d.ts.
type API struct {
	// Options are the members of the Options type.
	Options []Decl
	// Query are the methods of the Query interface.
	Query []Decl
	// Functions are the exported functions (overloads share one Decl).
	Functions []Decl
	// HookEvents is HOOK_EVENTS.
	HookEvents []string
	// ControlSubtypes are the control requests of SDKControlRequestInner,
	// each named by its subtype, with the text of its request type.
	ControlSubtypes []Decl
	// StartupFailureReasons is the SDKStartupFailureReason union.
	StartupFailureReasons []string
	// Types are the other top-level declarations (types, interfaces,
	// constants, classes), by name.
	Types []Decl
}

// declStart matches the first line of a top-level declaration.
var declStart = regexp.MustCompile(`^(?:export )?declare (?:type|interface|function|const|class|namespace|abstract class) (\w+)`)

// Parse reads an sdk.d.ts. It fails if a declaration the host mirrors is
// missing, so that a change of layout shows instead of an empty list.
func Parse(src string) (*API, error) {
	decls := topLevel(src)
	api := &API{}
	find := func(kind, name string) (Decl, error) {
		for _, d := range decls {
			if d.Name == name && strings.Contains(firstDeclLine(d.Text), kind+" "+name) {
				return d, nil
			}
		}
		return Decl{}, fmt.Errorf("sdk.d.ts has no %s %s", kind, name)
	}
	opts, err := find("type", "Options")
	if err != nil {
		return nil, err
	}
	api.Options = members(opts.Text, `^    (\w+)\??:`)
	query, err := find("interface", "Query")
	if err != nil {
		return nil, err
	}
	api.Query = members(query.Text, `^    (\w+)\(`)
	events, err := find("const", "HOOK_EVENTS")
	if err != nil {
		return nil, err
	}
	api.HookEvents = quoted(firstDeclLine(events.Text))
	reasons, err := find("type", "SDKStartupFailureReason")
	if err != nil {
		return nil, err
	}
	api.StartupFailureReasons = quoted(firstDeclLine(reasons.Text))
	inner, err := find("type", "SDKControlRequestInner")
	if err != nil {
		return nil, err
	}
	subtype := regexp.MustCompile(`(?m)^    subtype: '(\w+)';`)
	for _, name := range unionMembers(firstDeclLine(inner.Text)) {
		d, err := find("type", name)
		if err != nil {
			return nil, fmt.Errorf("SDKControlRequestInner: %w", err)
		}
		m := subtype.FindStringSubmatch(d.Text)
		if m == nil {
			return nil, fmt.Errorf("sdk.d.ts: %s has no subtype", name)
		}
		api.ControlSubtypes = append(api.ControlSubtypes, Decl{Name: m[1], Text: d.Text})
	}
	covered := map[string]bool{"Options": true, "Query": true, "HOOK_EVENTS": true, "SDKStartupFailureReason": true, "SDKControlRequestInner": true}
	for _, d := range decls {
		switch {
		case strings.Contains(firstDeclLine(d.Text), "function "+d.Name):
			if i := slices.IndexFunc(api.Functions, func(f Decl) bool { return f.Name == d.Name }); i >= 0 {
				api.Functions[i].Text += "\n" + d.Text // an overload
			} else {
				api.Functions = append(api.Functions, d)
			}
		case !covered[d.Name]:
			api.Types = append(api.Types, d)
		}
	}
	if len(api.Options) == 0 || len(api.Query) == 0 || len(api.Functions) == 0 || len(api.HookEvents) == 0 || len(api.StartupFailureReasons) == 0 {
		return nil, fmt.Errorf("sdk.d.ts: an empty list (options %d, query %d, functions %d, hook events %d, start-up failure reasons %d): has its layout changed?",
			len(api.Options), len(api.Query), len(api.Functions), len(api.HookEvents), len(api.StartupFailureReasons))
	}
	return api, nil
}

// Names returns the names of decls.
func Names(decls []Decl) []string {
	names := make([]string, len(decls))
	for i, d := range decls {
		names[i] = d.Name
	}
	return names
}

// topLevel splits src into its top-level declarations, each with the doc
// comment right above it. Imports, re-exports and comments that document
// nothing are left out.
func topLevel(src string) []Decl {
	// The file has stray carriage returns, some on lines of their own.
	lines := strings.Split(strings.ReplaceAll(src, "\r", ""), "\n")
	var decls []Decl
	doc := -1 // the line of the doc comment above the next declaration
	cur := -1 // the index in decls of the declaration being read
	var text []string
	flush := func() {
		if cur >= 0 {
			decls[cur].Text = strings.TrimRight(strings.Join(text, "\n"), "\n")
		}
		cur, text = -1, nil
	}
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "/**"):
			flush()
			doc = i
		case declStart.MatchString(l):
			flush()
			start := i
			if doc >= 0 {
				start = doc
			}
			decls = append(decls, Decl{Name: declStart.FindStringSubmatch(l)[1]})
			cur, text, doc = len(decls)-1, slices.Clone(lines[start:i+1]), -1
		case l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '}' || l[0] == ')' || l[0] == '*' || l[0] == '|':
			if cur >= 0 {
				text = append(text, l)
			}
		default: // an import, an export list: the end of what came before
			flush()
			doc = -1
		}
	}
	flush()
	return decls
}

// firstDeclLine is the line of text that declares it, after its doc.
func firstDeclLine(text string) string {
	for l := range strings.SplitSeq(text, "\n") {
		if declStart.MatchString(l) {
			return l
		}
	}
	return ""
}

// members splits the body of a type or interface into its members: a
// line that matches pattern starts one, with the doc comment above it, and
// the indented lines up to the next member or doc comment belong to it.
func members(text, pattern string) []Decl {
	re := regexp.MustCompile(pattern)
	var out []Decl
	var doc []string
	inDoc := false
	for l := range strings.SplitSeq(text, "\n") {
		switch {
		case strings.HasPrefix(l, "    /**"):
			doc, inDoc = []string{l}, !strings.HasSuffix(l, "*/")
		case inDoc:
			doc = append(doc, l)
			inDoc = !strings.HasSuffix(strings.TrimSpace(l), "*/")
		case re.MatchString(l):
			out = append(out, Decl{Name: re.FindStringSubmatch(l)[1], Text: strings.Join(append(doc, l), "\n")})
			doc = nil
		case strings.HasPrefix(l, "    ") && len(out) > 0:
			out[len(out)-1].Text += "\n" + l // the member goes on
		default: // a blank line, the body's braces
			doc = nil
		}
	}
	return out
}

// quoted returns the single-quoted strings of line, in order.
func quoted(line string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`'([^']*)'`).FindAllStringSubmatch(line, -1) {
		out = append(out, m[1])
	}
	return out
}

// unionMembers returns the type names of "declare type X = A | B | C;".
func unionMembers(line string) []string {
	_, rhs, _ := strings.Cut(line, "=")
	var out []string
	for t := range strings.SplitSeq(strings.TrimSuffix(strings.TrimSpace(rhs), ";"), "|") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
