// Package directives misuses //mcp:skills and //mcp:skill: each mistake
// is reported where it is written.
package directives

import (
	"context"
	"embed"
	"io/fs"
)

//go:embed skills
//mcp:skills
var skillFiles embed.FS

// notFS is not an embed.FS.
//
//mcp:skills skills
var notFS string

// noEmbed embeds nothing.
//
//mcp:skills
var noEmbed embed.FS

//go:embed other
//mcp:skills skills
var otherFiles embed.FS

//go:embed skills other
//mcp:skills
var twoFolders embed.FS

//go:embed hidden
//mcp:skills hidden/.secret
var hiddenFiles embed.FS

//go:embed skills/*
//mcp:skills skills
var globbed embed.FS

// Report computes the files of a skill that has none.
//
//mcp:skill nothing
func Report(ctx context.Context) (fs.FS, error) { return nil, nil }

// Busy computes the files of a skill whose folder has files of its own.
//
//mcp:skill busy
func Busy() (fs.FS, error) { return nil, nil }

// Wrong returns the wrong thing.
//
//mcp:skill report
func Wrong(ctx context.Context) (string, error) { return "", nil }

// Twice computes the files of report.
//
//mcp:skill report
func Twice(ctx context.Context) (fs.FS, error) { return nil, nil }

// Again computes them too.
//
//mcp:skill report
func Again(ctx context.Context) (fs.FS, error) { return nil, nil }

// Stray is a directive on a constant.
//
//mcp:skills
const Stray = 1
