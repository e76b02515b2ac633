package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"testing/fstest"
	"time"
)

// The skills the suite's skills scenarios (sep-2640-*) list, get, read and
// walk: every folder below skills/ with a SKILL.md, served from the
// binary. code-review has folders, as resources/directory/read needs;
// team/billing/refunds has a prefix; status/today is dynamic.
//
//go:embed skills
//mcp:skills
var skillFiles embed.FS

// started is when the server started, for the status report.
var started = time.Now()

// Today computes the files of the skill status/today when they are read:
// its report, which no manifest can describe ahead of time.
//
//mcp:skill status/today
func Today(ctx context.Context) (fs.FS, error) {
	report := fmt.Sprintf("# Status\n\nUp for %s.\n", time.Since(started).Round(time.Second))
	return fstest.MapFS{"report.md": {Data: []byte(report)}}, nil
}
