package surface

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A Change is one difference between two surfaces, as a client meets it.
type Change struct {
	// Breaking says that a client written against the old surface can
	// fail against the new one.
	Breaking bool `json:"breaking"`
	// Kind names the sort of change, for programs: "tool-removed",
	// "member-added", "enum-value-removed", … (see the kinds in
	// compare.go and schema.go).
	Kind string `json:"kind"`
	// Subject is what changed: "server", "tool NAME", "resource URI",
	// "template URI", "prompt NAME", "skill NAME".
	Subject string `json:"subject"`
	// Member is the part of the subject that changed, if not the whole:
	// "input.owner.email", "output.tags[]", "argument id", "variable id",
	// "readOnlyHint", "scopes".
	Member string `json:"member,omitempty"`
	// What says what changed: "removed", "added, required", "minimum
	// raised from 1 to 5".
	What string `json:"what"`
	// Why says why the change breaks clients, or why it does not.
	Why string `json:"why"`
	// Place is where the change is in the new surface (its place, or the
	// nearest enclosing one: a removed member's struct), and OldPlace in
	// the old; either is empty where the subject does not exist.
	Place    string `json:"-"`
	OldPlace string `json:"-"`
}

// Kinds of change that are not a schema's.
const (
	KindAdded       = "added"        // a tool, resource, template, prompt or skill
	KindRemoved     = "removed"      // the same, gone
	KindRenamed     = "renamed"      // removed, and added under another name (see Compare)
	KindDescription = "description"  // a title, description or the server's instructions
	KindServerName  = "server-name"  // the server's name
	KindVersion     = "version"      // the server's version
	KindAnnotation  = "annotation"   // a tool's hint
	KindScope       = "scope"        // a scope a call needs, added or removed
	KindTaskSupport = "task-support" // whether calls run as tasks
	KindMeta        = "meta"         // the _meta hints for Claude Code
	KindMIMEType    = "mime-type"    // a resource's MIME type
	KindOutput      = "output"       // a tool's output schema, added or removed
)

// Compare lists what changed from old to new, in the order of the
// surface: the server, then each tool, resource, template, prompt and
// skill by name, each one's own changes before its schemas'. A subject
// removed and another added are reported as one renamed (which breaks
// clients all the same) when they look alike: see pairRenames.
func Compare(old, new *Surface) []Change {
	c := &comparison{}
	c.server(&old.Server, &new.Server)
	compareLists(c, "tool", old.Tools, new.Tools, toolKey, toolSimilar, c.tool)
	compareLists(c, "resource", old.Resources, new.Resources, func(r *Resource) string { return r.URI }, resourceSimilar, c.resource)
	compareLists(c, "template", old.ResourceTemplates, new.ResourceTemplates, func(r *ResourceTemplate) string { return r.URITemplate }, templateSimilar, c.template)
	compareLists(c, "prompt", old.Prompts, new.Prompts, func(p *Prompt) string { return p.Name }, promptSimilar, c.prompt)
	compareLists(c, "skill", old.Skills, new.Skills, func(s *Skill) string { return s.Name }, func(a, b *Skill) bool { return a.Description != "" && a.Description == b.Description }, func(string, *Skill, *Skill) {})
	return c.changes
}

// A comparison gathers the changes.
type comparison struct {
	changes []Change
}

func (c *comparison) add(ch Change) { c.changes = append(c.changes, ch) }

func toolKey(t *Tool) string { return t.Name }

func (c *comparison) server(old, new *Server) {
	if old.Name != new.Name {
		c.add(Change{Breaking: true, Kind: KindServerName, Subject: "server", Member: "name", What: fmt.Sprintf("renamed from %s to %s", old.Name, new.Name),
			Why:   "clients name the server's tools after it (Claude Code: mcp__" + new.Name + "__<tool>): permission rules, settings and prompts that name the old one miss them",
			Place: ServerPlace, OldPlace: ServerPlace})
	}
	if old.Version != new.Version {
		c.add(Change{Kind: KindVersion, Subject: "server", Member: "version", What: fmt.Sprintf("%s → %s", orNone(old.Version), orNone(new.Version)),
			Why: "clients are told the version; it says whether breaking changes are expected (a new major version)", Place: VersionPlace, OldPlace: VersionPlace})
	}
	c.texts("server", "", ServerPlace, ServerPlace, [][3]string{{"title", old.Title, new.Title}, {"instructions", old.Instructions, new.Instructions}})
}

// texts reports changed titles and descriptions: the model reads them,
// no client depends on their words.
func (c *comparison) texts(subject, member, place, oldPlace string, pairs [][3]string) {
	for _, p := range pairs {
		if p[1] == p[2] {
			continue
		}
		what := "changed"
		switch {
		case p[1] == "":
			what = "added"
		case p[2] == "":
			what = "removed"
		}
		m := p[0]
		if member != "" {
			m = member + " " + p[0]
		}
		c.add(Change{Kind: KindDescription, Subject: subject, Member: m, What: what, Why: "the model reads it to decide what to do; no call depends on its words", Place: place, OldPlace: oldPlace})
	}
}

// compareLists compares two sorted lists of one kind of subject: each
// removed, added, renamed or, present in both, compared by same.
func compareLists[T any](c *comparison, kind string, old, new []T, key func(T) string, similar func(a, b T) bool, same func(subject string, a, b T)) {
	oldBy, newBy := map[string]T{}, map[string]T{}
	for _, o := range old {
		oldBy[key(o)] = o
	}
	for _, n := range new {
		newBy[key(n)] = n
	}
	var removed, added []T
	for _, o := range old {
		if _, ok := newBy[key(o)]; !ok {
			removed = append(removed, o)
		}
	}
	for _, n := range new {
		if _, ok := oldBy[key(n)]; !ok {
			added = append(added, n)
		}
	}
	renamedTo := pairRenames(removed, added, similar)
	// Every subject, in the order of the names, old and new together.
	var names []string
	for k := range oldBy {
		names = append(names, k)
	}
	for k := range newBy {
		if _, ok := oldBy[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	renamedFrom := map[string]bool{}
	for _, to := range renamedTo {
		renamedFrom[key(added[to])] = true
	}
	for _, name := range names {
		o, inOld := oldBy[name]
		n, inNew := newBy[name]
		subject := kind + " " + name
		switch {
		case inOld && inNew:
			same(subject, o, n)
		case inOld:
			i := slices.IndexFunc(removed, func(r T) bool { return key(r) == name })
			if to, ok := renamedTo[i]; ok {
				newName := key(added[to])
				c.add(Change{Breaking: true, Kind: KindRenamed, Subject: subject, What: "renamed to " + newName, Why: renamedWhy(kind),
					Place: kindPlace(kind, newName), OldPlace: kindPlace(kind, name)})
				same(kind+" "+newName, o, added[to])
				continue
			}
			c.add(Change{Breaking: true, Kind: KindRemoved, Subject: subject, What: "removed", Why: removedWhy(kind), OldPlace: kindPlace(kind, name)})
		case !renamedFrom[name]:
			c.add(Change{Kind: KindAdded, Subject: subject, What: "added", Why: "clients that do not know it are not affected", Place: kindPlace(kind, name)})
		}
	}
}

// kindPlace is the place of a subject of a kind.
func kindPlace(kind, name string) string {
	switch kind {
	case "tool":
		return ToolPlace(name)
	case "resource":
		return ResourcePlace(name)
	case "template":
		return TemplatePlace(name)
	case "prompt":
		return PromptPlace(name)
	}
	return ServerPlace
}

func removedWhy(kind string) string {
	switch kind {
	case "tool":
		return "a client that calls it gets an unknown-tool error; prompts, skills and saved plans that name it fail"
	case "resource", "template":
		return "a client that reads it gets resource not found"
	case "prompt":
		return "a client that asks for it gets an unknown-prompt error"
	}
	return "clients that use it find it gone"
}

func renamedWhy(kind string) string {
	return "clients know it by its old name: " + removedWhy(kind)
}

func (c *comparison) tool(subject string, old, new *Tool) {
	place, oldPlace := ToolPlace(new.Name), ToolPlace(old.Name)
	c.texts(subject, "", place, oldPlace, [][3]string{{"title", old.Title, new.Title}, {"description", old.Description, new.Description}})
	c.annotations(subject, place, oldPlace, old.Annotations, new.Annotations)
	c.scopes(subject, place, oldPlace, old.Scopes, new.Scopes)
	if old.TaskSupport != new.TaskSupport {
		breaking := new.TaskSupport == "required"
		why := "a call from a client that cannot run tasks is still answered with its result"
		if breaking {
			why = "a client of revision 2026-07-28 that does not declare the tasks extension is refused"
		}
		c.add(Change{Breaking: breaking, Kind: KindTaskSupport, Subject: subject, Member: "taskSupport", What: fmt.Sprintf("%s → %s", taskWord(old.TaskSupport), taskWord(new.TaskSupport)), Why: why, Place: place, OldPlace: oldPlace})
	}
	if old.SearchHint != new.SearchHint || old.AlwaysLoad != new.AlwaysLoad {
		c.add(Change{Kind: KindMeta, Subject: subject, Member: "_meta", What: "searchHint or alwaysLoad changed", Why: "hints for Claude Code's tool search; no call depends on them", Place: place, OldPlace: oldPlace})
	}
	c.toolApp(subject, place, oldPlace, old, new)
	schemas := newSchemaComparison(c, subject, new.Name, old.Name)
	schemas.compareRoot("input", old.InputSchema, new.InputSchema)
	switch {
	case len(old.OutputSchema) > 0 && len(new.OutputSchema) == 0:
		c.add(Change{Breaking: true, Kind: KindOutput, Subject: subject, Member: "output", What: "output schema removed",
			Why: "the tool no longer promises structured content: clients that read structuredContent find none", Place: place, OldPlace: SchemaPlace(old.Name, "output", "")})
	case len(old.OutputSchema) == 0 && len(new.OutputSchema) > 0:
		c.add(Change{Kind: KindOutput, Subject: subject, Member: "output", What: "output schema added",
			Why: "the result gains structured content; its text content is still sent", Place: SchemaPlace(new.Name, "output", ""), OldPlace: oldPlace})
	case len(old.OutputSchema) > 0:
		schemas.compareRoot("output", old.OutputSchema, new.OutputSchema)
	}
}

func taskWord(s string) string { return cmp.Or(s, "forbidden") }

// annotations compares the hints by the values they stand for: a hint
// not set means the specification's default (readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true), and
// destructiveHint means something only when readOnlyHint is false.
func (c *comparison) annotations(subject, place, oldPlace string, old, new *Annotations) {
	o, n := hintsOf(old), hintsOf(new)
	add := func(breaking bool, member, what, why string) {
		c.add(Change{Breaking: breaking, Kind: KindAnnotation, Subject: subject, Member: member, What: what, Why: why, Place: place, OldPlace: oldPlace})
	}
	switch {
	case o.readOnly && !n.readOnly:
		add(true, "readOnlyHint", "dropped: the tool may now modify its environment",
			"clients that call read-only tools without asking (or in parallel, or while planning) now must not")
	case !o.readOnly && n.readOnly:
		add(false, "readOnlyHint", "added", "a promise that the tool changes nothing: clients may ask less")
	case !n.readOnly && !o.destructive && n.destructive:
		add(true, "destructiveHint", "added: the tool may now destroy or overwrite", "clients that ran it without confirmation, as it only added things, must now ask")
	case !n.readOnly && o.destructive && !n.destructive:
		add(false, "destructiveHint", "removed: the tool only adds", "a weaker warning; clients may ask less")
	}
	if o.idempotent && !n.idempotent {
		add(true, "idempotentHint", "dropped", "clients that retry a failed call, as repeating it had no further effect, may now repeat its effect")
	} else if !o.idempotent && n.idempotent {
		add(false, "idempotentHint", "added", "a promise that repeating a call has no further effect")
	}
	if o.openWorld != n.openWorld {
		what := "dropped: the tool no longer reaches outside the server"
		if n.openWorld {
			what = "added: the tool now reaches an open world (the web, other services)"
		}
		add(false, "openWorldHint", what, "a hint about where the tool acts; no call depends on it")
	}
}

// hints are the values a tool's annotations stand for.
type hints struct {
	readOnly, destructive, idempotent, openWorld bool
}

func hintsOf(a *Annotations) hints {
	h := hints{destructive: true, openWorld: true}
	if a == nil {
		return h
	}
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&h.readOnly, a.ReadOnlyHint)
	set(&h.destructive, a.DestructiveHint)
	set(&h.idempotent, a.IdempotentHint)
	set(&h.openWorld, a.OpenWorldHint)
	if h.readOnly {
		h.destructive = false // meaningful only when readOnlyHint is false
	}
	return h
}

// scopes reports each scope added (a token without it is refused) and
// each removed.
func (c *comparison) scopes(subject, place, oldPlace string, old, new []string) {
	for _, s := range new {
		if !slices.Contains(old, s) {
			c.add(Change{Breaking: true, Kind: KindScope, Subject: subject, Member: "scopes", What: "scope " + s + " added",
				Why: "a caller whose token lacks " + s + " is refused (403, insufficient_scope) until it is authorized again", Place: place, OldPlace: oldPlace})
		}
	}
	for _, s := range old {
		if !slices.Contains(new, s) {
			c.add(Change{Kind: KindScope, Subject: subject, Member: "scopes", What: "scope " + s + " removed",
				Why: "tokens that held it still work", Place: place, OldPlace: oldPlace})
		}
	}
}

func (c *comparison) resource(subject string, old, new *Resource) {
	place, oldPlace := ResourcePlace(new.URI), ResourcePlace(old.URI)
	c.texts(subject, "", place, oldPlace, [][3]string{{"name", old.Name, new.Name}, {"title", old.Title, new.Title}, {"description", old.Description, new.Description}})
	c.mimeType(subject, place, oldPlace, old.MIMEType, new.MIMEType)
	c.scopes(subject, place, oldPlace, old.Scopes, new.Scopes)
	c.resourceApp(subject, place, oldPlace, old, new)
}

func (c *comparison) template(subject string, old, new *ResourceTemplate) {
	place, oldPlace := TemplatePlace(new.URITemplate), TemplatePlace(old.URITemplate)
	c.texts(subject, "", place, oldPlace, [][3]string{{"name", old.Name, new.Name}, {"title", old.Title, new.Title}, {"description", old.Description, new.Description}})
	c.mimeType(subject, place, oldPlace, old.MIMEType, new.MIMEType)
	c.scopes(subject, place, oldPlace, old.Scopes, new.Scopes)
	c.arguments(subject, "variable", old.Variables, new.Variables,
		func(name string) string { return VariablePlace(new.URITemplate, name) },
		func(name string) string { return VariablePlace(old.URITemplate, name) }, place)
}

func (c *comparison) prompt(subject string, old, new *Prompt) {
	place, oldPlace := PromptPlace(new.Name), PromptPlace(old.Name)
	c.texts(subject, "", place, oldPlace, [][3]string{{"title", old.Title, new.Title}, {"description", old.Description, new.Description}})
	c.scopes(subject, place, oldPlace, old.Scopes, new.Scopes)
	c.arguments(subject, "argument", old.Arguments, new.Arguments,
		func(name string) string { return ArgumentPlace(new.Name, name) },
		func(name string) string { return ArgumentPlace(old.Name, name) }, place)
}

func (c *comparison) mimeType(subject, place, oldPlace, old, new string) {
	if old != new {
		c.add(Change{Breaking: true, Kind: KindMIMEType, Subject: subject, Member: "mimeType", What: fmt.Sprintf("%s → %s", orNone(old), orNone(new)),
			Why: "clients that read the contents as " + orNone(old) + " get another format", Place: place, OldPlace: oldPlace})
	}
}

// arguments compares a prompt's arguments or a template's variables
// (what is "argument" or "variable"), which the server reads from
// strings: an unknown one is refused, and so is a value of the wrong
// type or outside the enum.
func (c *comparison) arguments(subject, what string, old, new []Argument, newPlace, oldPlace func(string) string, place string) {
	find := func(args []Argument, name string) *Argument {
		if i := slices.IndexFunc(args, func(a Argument) bool { return a.Name == name }); i >= 0 {
			return &args[i]
		}
		return nil
	}
	var removed, added []*Argument
	for i := range old {
		if find(new, old[i].Name) == nil {
			removed = append(removed, &old[i])
		}
	}
	for i := range new {
		if find(old, new[i].Name) == nil {
			added = append(added, &new[i])
		}
	}
	renamed := pairRenames(removed, added, func(a, b *Argument) bool {
		return a.Type == b.Type && slices.Equal(a.Enum, b.Enum) && (a.Description == b.Description || len(removed) == 1 && len(added) == 1)
	})
	add := func(ch Change) {
		ch.Subject = subject
		c.add(ch)
	}
	for i, o := range removed {
		if to, ok := renamed[i]; ok {
			n := added[to]
			add(Change{Breaking: true, Kind: KindMemberRenamed, Member: what + " " + o.Name, What: "renamed to " + n.Name,
				Why: "a client that still sends " + o.Name + " is refused: the server knows no such " + what, Place: newPlace(n.Name), OldPlace: oldPlace(o.Name)})
			c.argument(subject, what, o, n, newPlace(n.Name), oldPlace(o.Name))
			continue
		}
		add(Change{Breaking: true, Kind: KindMemberRemoved, Member: what + " " + o.Name, What: "removed",
			Why: "a client that still sends it is refused: the server knows no such " + what, Place: place, OldPlace: oldPlace(o.Name)})
	}
	for i, n := range added {
		if slices.Contains(mapValues(renamed), i) {
			continue
		}
		if n.Required {
			add(Change{Breaking: true, Kind: KindMemberAdded, Member: what + " " + n.Name, What: "added, required",
				Why: "a client that does not send it is refused", Place: newPlace(n.Name)})
		} else {
			add(Change{Kind: KindMemberAdded, Member: what + " " + n.Name, What: "added, optional",
				Why: "clients that do not know it leave it out", Place: newPlace(n.Name)})
		}
	}
	for i := range old {
		if n := find(new, old[i].Name); n != nil {
			c.argument(subject, what, &old[i], n, newPlace(n.Name), oldPlace(old[i].Name))
		}
	}
}

// argument compares one argument or variable present in both.
func (c *comparison) argument(subject, what string, old, new *Argument, place, oldPlace string) {
	member := what + " " + new.Name
	add := func(breaking bool, kind, change, why string) {
		c.add(Change{Breaking: breaking, Kind: kind, Subject: subject, Member: member, What: change, Why: why, Place: place, OldPlace: oldPlace})
	}
	switch {
	case !old.Required && new.Required:
		add(true, KindMemberRequired, "now required", "a client that leaves it out is refused")
	case old.Required && !new.Required:
		add(false, KindMemberOptional, "now optional", "clients that send it still may")
	}
	if old.Type != new.Type {
		// Every integer is a number, and every value is a string.
		widened := new.Type == "string" || old.Type == "integer" && new.Type == "number"
		why := "a value the old type took may now be refused: the server reads the string as " + new.Type
		if widened {
			why = "every value the old type took is still taken"
		}
		add(!widened, KindType, fmt.Sprintf("type changed from %s to %s", old.Type, new.Type), why)
	}
	enumValues(old.Enum, new.Enum, add)
	c.texts(subject, member, place, oldPlace, [][3]string{{"description", old.Description, new.Description}})
}

// enumValues compares the string enums of an argument, which is an
// input: a value removed is refused, a value added is safe; an enum that
// appears refuses what it leaves out, one that goes takes any string.
func enumValues(old, new []string, add func(breaking bool, kind, change, why string)) {
	switch {
	case old == nil && new == nil:
		return
	case old == nil:
		add(true, KindEnum, "restricted to "+strings.Join(new, ", "), "a value outside the list, which was accepted, is now refused")
		return
	case new == nil:
		add(false, KindEnum, "no longer restricted to a list", "every value of the list is still accepted")
		return
	}
	for _, v := range old {
		if !slices.Contains(new, v) {
			add(true, KindEnumRemoved, fmt.Sprintf("value %q removed", v), fmt.Sprintf("a client that sends %q is refused", v))
		}
	}
	for _, v := range new {
		if !slices.Contains(old, v) {
			add(false, KindEnumAdded, fmt.Sprintf("value %q added", v), "clients that do not know it do not send it")
		}
	}
}

func mapValues(m map[int]int) []int {
	var vs []int
	for _, v := range m {
		vs = append(vs, v)
	}
	return vs
}

func orNone(s string) string { return cmp.Or(s, "(none)") }
