#!/usr/bin/env bash
# Installs, pinned, into the cache folder, once, what the MCP Apps host
# test (examples/board/browser_test.go) builds its host page from and drives
# Chromium with, and prints the folder (MCPGEN_EXT_APPS):
#   @modelcontextprotocol/ext-apps, the extension's reference SDK: its
#     host-side AppBridge renders the app and relays its tool calls;
#   @modelcontextprotocol/client (and zod), which AppBridge talks to the
#     server through, over Streamable HTTP;
#   esbuild, which bundles the host page for the browser, offline;
#   playwright-core, which drives Debian's Chromium (.ci/install-chromium.sh);
#     it never downloads a browser of its own.
# The system's Node (20 or later) runs them.
set -euo pipefail

EXT_APPS_VERSION=2.0.4
CLIENT_VERSION=2.4.0
ZOD_VERSION=4.6.7
ESBUILD_VERSION=0.28.2
PLAYWRIGHT_VERSION=1.64.1

dir="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/ext-apps-$EXT_APPS_VERSION"
modules="$dir/node_modules"

installed() {
	local pj="$modules/$1/package.json"
	[[ -f $pj ]] && sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$pj" | head -n 1
}

if [[ $(installed @modelcontextprotocol/ext-apps) != "$EXT_APPS_VERSION" ||
	$(installed @modelcontextprotocol/client) != "$CLIENT_VERSION" ||
	$(installed zod) != "$ZOD_VERSION" ||
	$(installed esbuild) != "$ESBUILD_VERSION" ||
	$(installed playwright-core) != "$PLAYWRIGHT_VERSION" ]]; then
	echo "install-ext-apps: installing @modelcontextprotocol/ext-apps@$EXT_APPS_VERSION and the host test's tools into $dir" >&2
	mkdir -p "$dir"
	# PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: playwright-core downloads nothing,
	# but say so anyway; the test uses /usr/bin/chromium.
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error \
		"@modelcontextprotocol/ext-apps@$EXT_APPS_VERSION" \
		"@modelcontextprotocol/client@$CLIENT_VERSION" \
		"zod@$ZOD_VERSION" \
		"esbuild@$ESBUILD_VERSION" \
		"playwright-core@$PLAYWRIGHT_VERSION" >&2
fi
"$modules/.bin/esbuild" --version >/dev/null
echo "$dir"
