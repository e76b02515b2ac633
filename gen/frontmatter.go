package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The frontmatter of a SKILL.md: YAML between a first line "---" and the
// next line "---", which skills/list sends as a JSON object that hosts
// compare, member by member, with what their own YAML parser makes of the
// file. It is parsed here, at generate time, with go.yaml.in/yaml/v3 (the
// YAML organization's maintained yaml.v3; the runtime imports nothing but
// the standard library, and reads the JSON), and converted strictly: only
// what every YAML parser reads the same way becomes JSON, and the rest is
// a diagnostic at its line that says how to write it. YAML 1.1 and 1.2
// parsers disagree on integers with a leading zero (octal or decimal), on
// unquoted dates (a date or a string), on merge keys; JSON has no
// infinities, and only string keys.

// A frontmatter is the frontmatter of one SKILL.md.
type frontmatter struct {
	json        string // the JSON object, indented, members in the file's order
	name        string // the name member, if a string
	description string // the description member, if a string
	// line is the line of the SKILL.md where the YAML begins (after the
	// first "---"); the positions below are lines of the file.
	namePos, descriptionPos, metadataPos yamlPos
}

// A yamlPos is a position in a SKILL.md: a line and a column, from 1.
type yamlPos struct{ line, col int }

// A frontmatterError is a mistake in a SKILL.md's frontmatter, at a
// position of the file.
type frontmatterError struct {
	pos yamlPos
	msg string
}

func (e *frontmatterError) Error() string { return e.msg }

// maxFrontmatterNodes bounds the values that a frontmatter expands to,
// aliases included: a few aliases of aliases can stand for millions.
const maxFrontmatterNodes = 10_000

// parseFrontmatter reads the frontmatter of the SKILL.md content.
func parseFrontmatter(content []byte) (*frontmatter, error) {
	switch {
	case bytes.HasPrefix(content, []byte("\uFEFF")):
		return nil, &frontmatterError{yamlPos{1, 1}, "SKILL.md begins with a byte order mark: remove it, so that the file begins with the frontmatter's ---"}
	case !bytes.HasPrefix(content, []byte("---\n")) && !bytes.HasPrefix(content, []byte("---\r\n")):
		return nil, &frontmatterError{yamlPos{1, 1}, "SKILL.md must begin with YAML frontmatter: a line ---, the name and description of the skill, and a line --- (Agent Skills specification)"}
	}
	start := bytes.IndexByte(content, '\n') + 1
	end := -1
	for i := start; i < len(content); {
		j := bytes.IndexByte(content[i:], '\n')
		line := content[i:]
		if j >= 0 {
			line = content[i : i+j]
		}
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			end = i
			break
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	if end < 0 {
		return nil, &frontmatterError{yamlPos{1, 1}, "the frontmatter of SKILL.md has no closing line ---"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(content[start:end], &doc); err != nil {
		return nil, yamlError(err)
	}
	c := &yamlConverter{}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		line := 2
		if len(doc.Content) > 0 {
			line = doc.Content[0].Line + 1
		}
		return nil, &frontmatterError{yamlPos{line, 1}, "the frontmatter of SKILL.md must be a mapping of keys to values (name: …, description: …)"}
	}
	root := doc.Content[0]
	fm := &frontmatter{}
	var b bytes.Buffer
	if err := c.write(&b, root, 0); err != nil {
		return nil, err
	}
	fm.json = b.String()
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		for v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		switch k.Value {
		case "name":
			fm.namePos = pos(v)
			if v.ShortTag() == "!!str" {
				fm.name = v.Value
			}
		case "description":
			fm.descriptionPos = pos(v)
			if v.ShortTag() == "!!str" {
				fm.description = v.Value
			}
		case "metadata":
			fm.metadataPos = pos(v)
		}
	}
	return fm, nil
}

// pos is the position of n in the SKILL.md: its YAML begins on line 2.
func pos(n *yaml.Node) yamlPos { return yamlPos{n.Line + 1, n.Column} }

// yamlLine finds the line of the YAML in a yaml.v3 error message ("yaml:
// line 3: …").
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlError makes a YAML syntax error a frontmatterError at its line.
func yamlError(err error) error {
	msg := err.Error()
	if strings.HasSuffix(msg, "mapping values are not allowed in this context") {
		msg += ` (a value that holds ": " must be quoted)`
	}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &frontmatterError{yamlPos{line + 1, 1}, "the frontmatter of SKILL.md is not valid YAML: " + msg[len(m[0]):]}
	}
	return &frontmatterError{yamlPos{2, 1}, "the frontmatter of SKILL.md is not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// A yamlConverter writes YAML nodes as JSON, counting what it expands.
type yamlConverter struct {
	nodes int
	alias *yaml.Node // the outermost alias being expanded, if any
}

// JSON numbers that every parser reads as the same value.
var (
	decimalInt = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)$`)
	jsonFloat  = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
)

// write writes n as JSON, indented for depth.
func (c *yamlConverter) write(b *bytes.Buffer, n *yaml.Node, depth int) error {
	if c.nodes++; c.nodes > maxFrontmatterNodes {
		at := n
		if c.alias != nil {
			at = c.alias
		}
		return &frontmatterError{pos(at), fmt.Sprintf("the frontmatter expands to more than %d values (through aliases?)", maxFrontmatterNodes)}
	}
	indent := func(d int) { b.WriteString("\n" + strings.Repeat("  ", d)) }
	switch n.Kind {
	case yaml.AliasNode:
		if c.alias == nil {
			c.alias = n
			defer func() { c.alias = nil }()
		}
		return c.write(b, n.Alias, depth)
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch {
			case k.ShortTag() == "!!merge":
				return &frontmatterError{pos(k), "merge keys (<<) are not read alike by YAML parsers: write the keys out"}
			case k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str":
				return &frontmatterError{pos(k), fmt.Sprintf("the key %s is not a string: quote it (JSON, as skills/list sends the frontmatter, has string keys only)", k.Value)}
			case seen[k.Value]:
				return &frontmatterError{pos(k), fmt.Sprintf("the key %q appears twice", k.Value)}
			}
			seen[k.Value] = true
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeJSONString(b, k.Value)
			b.WriteString(": ")
			if err := c.write(b, v, depth+1); err != nil {
				return err
			}
		}
		indent(depth)
		b.WriteByte('}')
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, v := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			if err := c.write(b, v, depth+1); err != nil {
				return err
			}
		}
		indent(depth)
		b.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalar(b, n)
	default:
		return &frontmatterError{pos(n), "a value of the frontmatter that is not a scalar, a list or a mapping"}
	}
	return nil
}

// writeScalar writes a scalar by its resolved tag.
func writeScalar(b *bytes.Buffer, n *yaml.Node) error {
	v := n.Value
	switch n.ShortTag() {
	case "!!str":
		writeJSONString(b, v)
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		b.WriteString(strconv.FormatBool(strings.EqualFold(v, "true")))
	case "!!int":
		i, err := strconv.ParseInt(strings.TrimPrefix(v, "+"), 10, 64)
		switch {
		case !decimalInt.MatchString(v):
			return &frontmatterError{pos(n), fmt.Sprintf("the integer %s is read differently by YAML parsers (octal, hexadecimal or decimal): write it in decimal without leading zeros, or quote it to keep it text", v)}
		case err != nil || i > 1<<53-1 || i < -(1<<53-1):
			return &frontmatterError{pos(n), fmt.Sprintf("the integer %s is past what JSON numbers hold exactly (2^53): quote it to keep it text", v)}
		}
		b.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		f, err := strconv.ParseFloat(v, 64)
		if !jsonFloat.MatchString(v) || err != nil || math.IsInf(f, 0) {
			return &frontmatterError{pos(n), fmt.Sprintf("the number %s has no JSON form that every parser reads alike: write it as a decimal (1.5, 2e3), or quote it to keep it text", v)}
		}
		b.WriteString(strings.TrimPrefix(v, "+"))
	case "!!timestamp":
		return &frontmatterError{pos(n), fmt.Sprintf("the unquoted date %s is a date to some YAML parsers and a string to others: quote it (%q)", v, v)}
	default:
		return &frontmatterError{pos(n), fmt.Sprintf("the value %s has the tag %s, which the frontmatter's JSON cannot hold: quote it to keep it text", v, n.ShortTag())}
	}
	return nil
}

// writeJSONString writes s as a JSON string, leaving <, > and & as they
// are, for a reader of the generated file.
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)           // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}
