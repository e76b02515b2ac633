// Command mcpgen generates typed MCP tool registration for Go packages.
//
// Mark a function with //mcp:tool in its doc comment and run mcpgen in its
// package (usually through go generate):
//
//	//go:generate go tool mcpgen
//
// Usage:
//
//	mcpgen [flags] [packages]
//
// With no packages, mcpgen works on the package in the current directory.
// It writes one file, mcp_gen.go, into each package that has tools, and
// leaves files whose content has not changed untouched.
//
// Every mistake is reported as file:line:col: message, and nothing is
// written for a package with errors; the exit status is then 1. A pattern
// that names no package is reported in the go command's words, and the
// exit status is 2.
//
// A package whose doc comment has //mcp:install also gets its install
// files, beside mcp_gen.go: manifest.json (an MCP bundle's manifest),
// server.json (its MCP Registry entry) and .mcp.json (a Claude Code
// project's server list); -claude-add prints the claude mcp add command
// line that adds it to Claude Code, and writes nothing.
//
// With -check, mcpgen writes nothing: it prints a unified diff between the
// files on disk, install files included, and what it would generate, says
// on standard error which files are out of date, and exits 0 when they are
// identical, 1 when they differ, and 2 on any error.
//
// A package whose //mcp:server has the option surface also gets its
// snapshot, mcp_surface.json: what clients see of the server (tools with
// their schemas and annotations, resources, templates, prompts, scopes,
// the server's name and version), sorted, for review; -check keeps it
// current.
//
// With -breaking REV, mcpgen writes nothing: it compares what clients see
// of each package with what they saw at the git revision REV (from the
// snapshot committed there, or else from the package's source there) or
// in a snapshot file given instead of REV, prints each change with the
// position of the declaration that caused it, whether it breaks clients
// and why, and exits 1 when one does, unless the server's version is a
// new major one (0 then, the report printed all the same), 2 on errors.
// -format json prints the report as JSON.
//
// Like stringer, mcpgen prints nothing when all goes well. With -v, it
// prints a line for each package on standard error: the file, the tools,
// resources and prompts it serves, and whether it was written or
// unchanged (with -check: current or out of date), or that the package
// has no mcpgen directive.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("mcpgen: ")
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "write nothing; print a diff and exit 1 if any generated file is out of date")
	output := fs.String("o", gen.DefaultOutput, "name of the generated `file` in each package")
	tags := fs.String("tags", "", "comma-separated build `tags`")
	verbose := fs.Bool("v", false, "print each generated file, what it serves, and whether it was written")
	claudeAdd := fs.Bool("claude-add", false, "write nothing; print the claude mcp add command line of each package with //mcp:install")
	against := fs.String("breaking", "", "write nothing; report what changed for clients since the git `revision` (or the snapshot file), and exit 1 if a change breaks them")
	format := fs.String("format", "text", "with -breaking, the report's `format`: text or json")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpgen [flags] [packages]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "mcpgen: -format %s: want text or json\n", *format)
		return 2
	}
	cfg := gen.Config{Patterns: fs.Args(), Output: *output, Surface: *against != ""}
	if *tags != "" {
		cfg.Tags = strings.Split(*tags, ",")
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return 2
	}
	results, err := gen.Generate(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return 2
	}
	status := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			fmt.Fprintln(stderr, d.Format(wd))
		}
		if r.HasErrors() {
			status = max(status, 1)
		}
	}
	if *check {
		if status != 0 {
			return 2
		}
		return checkResults(results, wd, *verbose, stdout, stderr)
	}
	if *against != "" {
		if status != 0 {
			return 2
		}
		return breakingCheck(ctx, *against, *format, results, cfg, wd, stdout, stderr)
	}
	if *claudeAdd {
		for _, r := range results {
			if r.ClaudeAdd != "" {
				fmt.Fprintln(stdout, r.ClaudeAdd)
			}
		}
		return status
	}
	for _, r := range results {
		if r.Idle {
			if *verbose {
				fmt.Fprintln(stderr, idle(r, wd))
			}
			continue
		}
		files := otherFiles(r)
		states := make([]string, len(files))
		for i, f := range files {
			states[i] = "written"
			if ok, _ := f.Current(); ok {
				states[i] = "unchanged"
			} else if f.Content == nil {
				states[i] = "removed: the package no longer asks for it"
			}
		}
		outputCurrent, _ := r.OutputCurrent()
		changed, err := r.Write()
		if err != nil {
			fmt.Fprintf(stderr, "mcpgen: %v\n", err)
			status = 2
			continue
		}
		if *verbose && (r.Content != nil || changed) {
			state := "unchanged"
			switch {
			case r.Stale:
				state = "removed: the package has no tools any more"
			case !outputCurrent:
				state = "written"
			}
			fmt.Fprintln(stderr, describe(r, wd, true, state))
			for i, f := range files {
				fmt.Fprintln(stderr, relative(wd, f.Path)+": "+f.kind+": "+states[i])
			}
		}
	}
	return status
}

// A kindFile is a generated file other than the Go file, and what it
// is, as -v and -check name it.
type kindFile struct {
	*gen.File
	kind string
}

// otherFiles are the install files and the snapshot of a result.
func otherFiles(r *gen.Result) []kindFile {
	var fs []kindFile
	for i := range r.Install {
		fs = append(fs, kindFile{&r.Install[i], "install file"})
	}
	if r.SurfaceFile != nil {
		fs = append(fs, kindFile{r.SurfaceFile, "surface snapshot"})
	}
	return fs
}

// describe is the line -v prints for a result: the file, what it serves,
// the size of its tools/list (with sizes), and its state.
//
//	examples/notes/mcp_gen.go: tools add_note, find_notes, delete_note; resource notes://{id}; prompt summarize_note: tools/list 2.4 KB: written
func describe(r *gen.Result, wd string, sizes bool, state string) string {
	var served []string
	for _, kind := range []struct {
		name  string
		names []string
	}{{"tool", r.Tools}, {"resource", r.Resources}, {"prompt", r.Prompts}, {"skill", r.Skills}} {
		switch len(kind.names) {
		case 0:
		case 1:
			served = append(served, kind.name+" "+kind.names[0])
		default:
			served = append(served, kind.name+"s "+strings.Join(kind.names, ", "))
		}
	}
	line := relative(wd, r.OutputPath) + ": "
	if len(served) > 0 {
		line += strings.Join(served, "; ") + ": "
	}
	if sizes && r.ToolsListSize > 0 {
		line += fmt.Sprintf("tools/list %s: ", byteSize(r.ToolsListSize))
	}
	return line + state
}

// byteSize writes a size as people read it: 812 B, 14.2 KB.
func byteSize(n int) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1000)
}

// idle is the line -v prints for a package with nothing to generate.
func idle(r *gen.Result, wd string) string {
	return relative(wd, filepath.Dir(r.OutputPath)) + ": no mcpgen directives"
}

// checkResults prints a unified diff for every generated file that
// differs from the disk, install files included, says which files are out
// of date, and returns the -check exit status.
func checkResults(results []*gen.Result, wd string, verbose bool, stdout, stderr io.Writer) int {
	status := 0
	for _, r := range results {
		if r.Idle {
			if verbose {
				fmt.Fprintln(stderr, idle(r, wd))
			}
			continue
		}
		for _, f := range otherFiles(r) {
			current, err := f.Current()
			if err != nil {
				fmt.Fprintf(stderr, "mcpgen: %v\n", err)
				return 2
			}
			rel := relative(wd, f.Path)
			if current {
				if verbose {
					fmt.Fprintln(stderr, rel+": "+f.kind+": current")
				}
				continue
			}
			status = 1
			fmt.Fprintln(stderr, rel+": "+f.kind+": out of date: run go generate")
			old, _ := os.ReadFile(f.Path)
			fmt.Fprint(stdout, unifiedDiff("a/"+rel, "b/"+rel, string(old), string(f.Content)))
		}
		current, err := r.OutputCurrent()
		if err != nil {
			fmt.Fprintf(stderr, "mcpgen: %v\n", err)
			return 2
		}
		if current && verbose && (r.Content != nil || r.Stale) {
			fmt.Fprintln(stderr, describe(r, wd, true, "current"))
		}
		if current {
			continue
		}
		fmt.Fprintln(stderr, describe(r, wd, verbose, "out of date: run go generate"))
		status = 1
		old, err := os.ReadFile(r.OutputPath)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stderr, "mcpgen: %v\n", err)
			return 2
		}
		rel := relative(wd, r.OutputPath)
		fmt.Fprint(stdout, unifiedDiff("a/"+rel, "b/"+rel, string(old), string(r.Content)))
	}
	return status
}
