#!/usr/bin/env bash
# Installs the official TypeScript MCP SDK (@modelcontextprotocol/sdk) and
# Node 22, pinned, into the cache folder, once, and prints the folder: the
# authorization tests of the auth module run the SDK's client, with its
# OAuth provider, against a server and ORY Hydra (MCPGEN_TS_SDK).
#
# Node comes from npm's node package, as in conformance.sh, so that the
# system's Node (20 here) does not matter.
set -euo pipefail

NODE_VERSION=22.23.3
SDK_VERSION=1.32.2

dir="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/mcp-sdk-ts-$SDK_VERSION"
modules="$dir/node_modules"

installed() {
	local pj="$modules/$1/package.json"
	[[ -f $pj ]] && sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$pj" | head -n 1
}

if [[ $(installed node) != "$NODE_VERSION" || $(installed @modelcontextprotocol/sdk) != "$SDK_VERSION" ]]; then
	echo "install-mcp-sdk-ts: installing node@$NODE_VERSION and @modelcontextprotocol/sdk@$SDK_VERSION into $dir" >&2
	mkdir -p "$dir"
	npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error \
		"node@$NODE_VERSION" "@modelcontextprotocol/sdk@$SDK_VERSION" >&2
fi
[[ $("$modules/node/bin/node" --version) == "v$NODE_VERSION" ]] || {
	echo "install-mcp-sdk-ts: $modules/node/bin/node is not Node $NODE_VERSION" >&2
	exit 1
}
echo "$dir"
