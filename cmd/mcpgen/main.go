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
// With -check, mcpgen writes nothing: it prints a unified diff between the
// files on disk and what it would generate, and exits 0 when they are
// identical, 1 when they differ, and 2 on any error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
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
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpgen [flags] [packages]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg := gen.Config{Patterns: fs.Args(), Output: *output}
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
		return checkResults(results, wd, stdout, stderr)
	}
	for _, r := range results {
		if _, err := r.Write(); err != nil {
			fmt.Fprintf(stderr, "mcpgen: %v\n", err)
			status = 2
		}
	}
	return status
}

// checkResults prints a unified diff for every result that differs from
// the disk and returns the -check exit status.
func checkResults(results []*gen.Result, wd string, stdout, stderr io.Writer) int {
	status := 0
	for _, r := range results {
		current, err := r.Current()
		if err != nil {
			fmt.Fprintf(stderr, "mcpgen: %v\n", err)
			return 2
		}
		if current {
			continue
		}
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
