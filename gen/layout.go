package gen

import (
	"strings"
	"unicode/utf8"
)

// gofmt aligns the columns of consecutive lines: the values of a
// composite literal's keys, the types and tags of struct fields, the
// types of a var block. The generated file is written in that layout
// directly; this file holds the one rule, as gofmt's tabwriter applies it.
//
// A line is a list of cells and the rest of the line. A cell is padded with
// spaces to its column's width plus one; the rest is written as it is. The
// width of a column is the widest of its cells in a block: a run of
// consecutive lines that all have a cell in that column (text/tabwriter's
// column blocks). A line without cells ends every block. Text that spans
// lines is written as the rest of its first line, and its other lines
// have no cells: gofmt separates a multi-line element from the lines
// around it the same way (its formfeeds end the blocks).
//
// Where a multi-line construct starts a line matters: gofmt aligns the
// field name before a multi-line struct field type with the fields above
// it (the name is a cell), but not the key before a multi-line composite
// literal value (the key is part of the rest). Callers decide by what
// they put in cells; TestAlignedLikeGofmt holds them to gofmt.
type cellLine struct {
	cells []string
	rest  string
}

// writeAligned writes lines at the given indentation, each line of a
// multi-line rest indented as it comes.
func writeAligned(b *strings.Builder, indent string, lines []cellLine) {
	widths := columnWidths(lines)
	for i, l := range lines {
		b.WriteString(indent)
		for c, cell := range l.cells {
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", widths[i][c]-utf8.RuneCountInString(cell)))
		}
		b.WriteString(l.rest)
		b.WriteByte('\n')
	}
}

// columnWidths returns, for each line, the width of each of its cells'
// columns, padding included. A line whose rest spans lines has cells only
// on its first line; the lines after it start new blocks.
func columnWidths(lines []cellLine) [][]int {
	widths := make([][]int, len(lines))
	for i, l := range lines {
		widths[i] = make([]int, len(l.cells))
	}
	for c := 0; ; c++ {
		found := false
		for i := 0; i < len(lines); {
			if len(lines[i].cells) <= c {
				i++
				continue
			}
			found = true
			j, w := i, 0
			for j < len(lines) && len(lines[j].cells) > c {
				w = max(w, utf8.RuneCountInString(lines[j].cells[c]))
				j++
				if strings.Contains(lines[j-1].rest, "\n") {
					break // the block ends with the first line of a multi-line rest
				}
			}
			for k := i; k < j; k++ {
				widths[k][c] = w + 1
			}
			i = j
		}
		if !found {
			return widths
		}
	}
}

// An element is one key: value line of a composite literal.
type element struct{ key, value string }

// writeElements writes the elements of a composite literal one per line:
// the values of a run of one-line elements share a column; an element
// that spans lines is not aligned and ends the run.
func writeElements(b *strings.Builder, indent string, es []element) {
	lines := make([]cellLine, len(es))
	for i, el := range es {
		if strings.Contains(el.value, "\n") {
			lines[i] = cellLine{rest: el.key + ": " + el.value + ","}
		} else {
			lines[i] = cellLine{cells: []string{el.key + ":"}, rest: el.value + ","}
		}
	}
	writeAligned(b, indent, lines)
}
