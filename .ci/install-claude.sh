#!/usr/bin/env bash
# Installs the pinned Claude Code CLI into the cache folder (outside the
# repository) and prints the path of its binary. The end-to-end tests use
# it offline, against a fake Messages API on 127.0.0.1.
set -euo pipefail

version=2.1.332
dir="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/claude-code-$version"
bin="$dir/node_modules/@anthropic-ai/claude-code-linux-x64/claude"

if [ ! -x "$bin" ] || ! "$bin" --version 2>/dev/null | grep -q "^$version "; then
	mkdir -p "$dir"
	# npm on Node 20 warns that 2.1.332 wants Node 22 (EBADENGINE): the CLI
	# is a native binary and does not use Node.
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
		"@anthropic-ai/claude-code@$version" >&2
fi
if [ ! -x "$bin" ]; then
	# The platform package is an optional dependency; fall back to the
	# wrapper that postinstall links.
	bin="$dir/node_modules/.bin/claude"
fi
"$bin" --version >&2
echo "$bin"
