// Package jsonpath writes the location of a value inside a tool call's
// arguments the way the runtime's messages show it: address.city,
// labels[2], counts["a b"]. The validator and the decoders of generated
// code both report problems with it.
//
// A path has a bounded length whatever the input: the middle of a deep
// path is elided, and long member names are cut, so that a reply about a
// value nested thousands of levels deep under long keys stays short.
package jsonpath

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Step is one level of a path: a member name, or an array index.
type Step struct {
	Name    string
	Index   int
	IsIndex bool
}

// Member returns the step into the member name.
func Member(name string) Step { return Step{Name: name} }

// Index returns the step into the element i.
func Index(i int) Step { return Step{Index: i, IsIndex: true} }

// Limits of a written path.
const (
	// MaxSteps is the most steps written; a longer path keeps its first
	// headSteps and its last MaxSteps-headSteps, with the number left out
	// between them.
	MaxSteps  = 10
	headSteps = 3
	// MaxName is the most bytes of a member name written.
	MaxName = 40
)

// Format writes steps, outermost first. It costs time linear in the
// number of steps, and writes at most MaxSteps of them.
func Format(steps []Step) string {
	var b strings.Builder
	for i := 0; i < len(steps); i++ {
		if len(steps) > MaxSteps && i == headSteps {
			skip := len(steps) - MaxSteps
			b.WriteString("…(" + strconv.Itoa(skip) + " more levels)…")
			i += skip - 1
			continue
		}
		writeStep(&b, steps[i])
	}
	return b.String()
}

// FormatReversed is Format for steps held innermost first, as an error
// that gains a step at each level it crosses on its way out holds them.
func FormatReversed(steps []Step) string {
	out := make([]Step, len(steps))
	for i, st := range steps {
		out[len(steps)-1-i] = st
	}
	return Format(out)
}

func writeStep(b *strings.Builder, st Step) {
	switch {
	case st.IsIndex:
		b.WriteString("[" + strconv.Itoa(st.Index) + "]")
	case !isIdentifier(st.Name):
		b.WriteString("[" + strconv.Quote(cut(st.Name)) + "]")
	default:
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(cut(st.Name))
	}
}

// cut shortens a member name to MaxName bytes, on a character boundary,
// marking the cut.
func cut(name string) string {
	if len(name) <= MaxName {
		return name
	}
	n := MaxName
	for n > 0 && !utf8.RuneStart(name[n]) {
		n--
	}
	return name[:n] + "…"
}

// isIdentifier reports whether a member name can stand in a path as it
// is, without brackets and quotes.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '$' || r == '/' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}
