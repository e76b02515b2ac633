package sdkdts

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Diff writes to w what b adds, removes and changes against a, part by
// part: Options members, Query methods, functions, hook events, control
// subtypes, start-up failure reasons, then the other declarations. A
// changed declaration is marked "doc" when only its doc comment changed,
// and its changed lines follow, "-" for a's and "+" for b's.
func Diff(w io.Writer, a, b *API) {
	diffDecls(w, "Options members", a.Options, b.Options)
	diffDecls(w, "Query methods", a.Query, b.Query)
	diffDecls(w, "exported functions", a.Functions, b.Functions)
	diffNames(w, "hook events (HOOK_EVENTS)", a.HookEvents, b.HookEvents)
	diffDecls(w, "control subtypes (SDKControlRequestInner)", a.ControlSubtypes, b.ControlSubtypes)
	diffNames(w, "start-up failure reasons (SDKStartupFailureReason)", a.StartupFailureReasons, b.StartupFailureReasons)
	diffDecls(w, "other declarations", a.Types, b.Types)
}

// diffNames reports the names b adds to a and those it drops.
func diffNames(w io.Writer, part string, a, b []string) {
	fmt.Fprintf(w, "## %s: %d, then %d\n", part, len(a), len(b))
	for _, n := range b {
		if !slices.Contains(a, n) {
			fmt.Fprintf(w, "added: %s\n", n)
		}
	}
	for _, n := range a {
		if !slices.Contains(b, n) {
			fmt.Fprintf(w, "removed: %s\n", n)
		}
	}
	fmt.Fprintln(w)
}

// diffDecls reports the declarations b adds to a, those it drops, and
// those whose text differs, with the lines that do.
func diffDecls(w io.Writer, part string, a, b []Decl) {
	fmt.Fprintf(w, "## %s: %d, then %d\n", part, len(a), len(b))
	old := map[string]string{}
	for _, d := range a {
		old[d.Name] = d.Text
	}
	var changed []Decl
	for _, d := range b {
		prev, ok := old[d.Name]
		switch {
		case !ok:
			fmt.Fprintf(w, "added: %s\n%s\n", d.Name, indent(d.Text))
		case squeeze(prev) != squeeze(d.Text):
			changed = append(changed, d)
		}
	}
	for _, d := range a {
		if !slices.ContainsFunc(b, func(n Decl) bool { return n.Name == d.Name }) {
			fmt.Fprintf(w, "removed: %s\n", d.Name)
		}
	}
	for _, d := range changed {
		what := "declaration"
		if code(old[d.Name]) == code(d.Text) {
			what = "doc"
		}
		fmt.Fprintf(w, "changed (%s): %s\n", what, d.Name)
		gone, came := lineChanges(old[d.Name], d.Text)
		for _, l := range gone {
			fmt.Fprintf(w, "  - %s\n", strings.TrimSpace(l))
		}
		for _, l := range came {
			fmt.Fprintf(w, "  + %s\n", strings.TrimSpace(l))
		}
	}
	fmt.Fprintln(w)
}

// squeeze is text without its blank lines, which mean nothing.
func squeeze(text string) string {
	var keep []string
	for l := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// code is text without its comment lines and blank lines.
func code(text string) string {
	var keep []string
	for l := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "/**") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "//") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// lineChanges returns the lines of a that b lacks and those of b that a
// lacks, each in order; a line that occurs n times counts n times.
func lineChanges(a, b string) (gone, came []string) {
	count := func(text string) map[string]int {
		n := map[string]int{}
		for l := range strings.SplitSeq(text, "\n") {
			n[l]++
		}
		return n
	}
	inA, inB := count(a), count(b)
	for l := range strings.SplitSeq(a, "\n") {
		if inB[l] > 0 {
			inB[l]--
		} else if strings.TrimSpace(l) != "" {
			gone = append(gone, l)
		}
	}
	for l := range strings.SplitSeq(b, "\n") {
		if inA[l] > 0 {
			inA[l]--
		} else if strings.TrimSpace(l) != "" {
			came = append(came, l)
		}
	}
	return gone, came
}

// indent indents every line of text by two spaces.
func indent(text string) string {
	return "  " + strings.ReplaceAll(text, "\n", "\n  ")
}
