#!/usr/bin/env bash
# Installs the pinned TypeScript Agent SDK into the cache folder (outside
# the repository) and prints the path of its type declarations, sdk.d.ts.
# runtime/claude's TestDocsSDKTable checks docs/agent-sdk.md's table of the SDK's
# options, Query methods and functions against them. Only the declarations
# are needed: the SDK's bundled CLI (an optional dependency of several
# hundred MB), its peer dependencies and install scripts are left out.
# Given a version, it installs that one instead (.ci/sdk-diff.sh does).
set -euo pipefail

pinned=0.3.332
version="${1:-$pinned}"
dir="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/claude-agent-sdk-$version"
dts="$dir/node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts"

if [ ! -f "$dts" ] || ! grep -q "\"version\": \"$version\"" "$dir/node_modules/@anthropic-ai/claude-agent-sdk/package.json"; then
	mkdir -p "$dir"
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
		--omit=optional --legacy-peer-deps --ignore-scripts \
		"@anthropic-ai/claude-agent-sdk@$version" >&2
fi
echo "$dts"
