// Package skills has skills that mcpgen refuses, each with the position
// of what is wrong: a name that is not its folder's, a file that is a
// symbolic link out of the folder, 513 files, frontmatters that YAML
// parsers read differently or that lack what the Agent Skills
// specification requires.
package skills

import "embed"

//go:embed skills
//mcp:skills
var skillFiles embed.FS
