#!/usr/bin/env bash
# Installs the pinned MCP bundle CLI, mcpb (@anthropic-ai/mcpb), into the
# cache folder (outside the repository) and prints the path of its
# command. The tests of mcpgen's install files run `mcpb validate` and
# `mcpb pack` on the manifests that mcpgen generates for the examples.
set -euo pipefail

version=2.1.2
dir="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/mcpb-$version"
bin="$dir/node_modules/.bin/mcpb"

if [ ! -x "$bin" ] || ! grep -q "\"version\": \"$version\"" "$dir/node_modules/@anthropic-ai/mcpb/package.json" 2>/dev/null; then
	mkdir -p "$dir"
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
		"@anthropic-ai/mcpb@$version" >&2
fi
"$bin" --version >&2
echo "$bin"
