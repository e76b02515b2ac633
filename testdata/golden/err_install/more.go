// More install mistakes, in a second file's doc comment.
//
//mcp:install registry=no-namespace command=bin/bad homepage=example.com/bad
//mcp:install description="A description far longer than the Registry allows, which is one hundred characters, so it is refused."
//mcp:install icon=https://example.com/bad.gif author
//mcp:server name=bad
package bad
