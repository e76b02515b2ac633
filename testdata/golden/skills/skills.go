// Package skills serves Agent Skills from a folder it embeds: every
// folder below skills/ with a SKILL.md is a skill, pdf-processing with
// its references, scripts and templates, refunds under a prefix, and
// daily, whose files other than SKILL.md are computed when read.
//
//mcp:server surface
package skills

import (
	"context"
	"embed"
	"io/fs"
	"testing/fstest"
)

//go:embed skills
//mcp:skills
var skillFiles embed.FS

// Daily computes the files of the skill reports/daily from live data.
//
//mcp:skill reports/daily
func Daily(ctx context.Context) (fs.FS, error) {
	return fstest.MapFS{"report.md": {Data: []byte("42 orders today\n")}}, nil
}
