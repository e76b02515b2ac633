package schema

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// plural writes n with word, pluralised when n is not 1.
func plural(n int, word string) string {
	switch {
	case n == 1:
		return "1 " + word
	case strings.HasSuffix(word, "y"):
		return strconv.Itoa(n) + " " + strings.TrimSuffix(word, "y") + "ies"
	default:
		return strconv.Itoa(n) + " " + word + "s"
	}
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// describe shows a received value in a violation message: scalars as
// JSON, so that a string is quoted and a number is not.
func describe(v jsonvalue.Value) string {
	switch v.Kind() {
	case jsonvalue.Object:
		return "an object"
	case jsonvalue.Array:
		return "an array"
	default:
		return truncate(v.Raw())
	}
}

// enumList lists the values of an enum, each followed by its name when
// the schema gives names: 1 (Low), 2 (High).
func enumList(vals []jsonvalue.Value, names []string) string {
	var b strings.Builder
	for i := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(truncate(vals[i].Raw()))
		if i < len(names) {
			b.WriteString(" (" + names[i] + ")")
		}
	}
	return b.String()
}

func truncate(raw []byte) string {
	const limit = 60
	if len(raw) <= limit {
		return string(raw)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "…"
}
