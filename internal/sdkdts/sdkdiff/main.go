// Command sdkdiff reports what one sdk.d.ts of the TypeScript Claude Agent
// SDK adds, removes and changes against another, in the parts that the Go
// host in runtime/claude mirrors (see package sdkdts). .ci/sdk-diff.sh runs
// it on the pinned SDK and a newer one, so that a bump starts from a list.
//
//	go run ./internal/sdkdts/sdkdiff OLD/sdk.d.ts NEW/sdk.d.ts
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/internal/sdkdts"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: sdkdiff OLD/sdk.d.ts NEW/sdk.d.ts")
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	var apis [2]*sdkdts.API
	for i, path := range flag.Args() {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sdkdiff:", err)
			os.Exit(1)
		}
		if apis[i], err = sdkdts.Parse(string(src)); err != nil {
			fmt.Fprintf(os.Stderr, "sdkdiff: %s: %v\n", path, err)
			os.Exit(1)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "# %s, then %s\n\n", flag.Arg(0), flag.Arg(1))
	sdkdts.Diff(w, apis[0], apis[1])
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "sdkdiff:", err)
		os.Exit(1)
	}
}
