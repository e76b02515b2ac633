#!/bin/sh
# Publishes the server.json that mcpgen generated to the MCP Registry, once
# the release holds what it names (the OCI image, the MCP bundle):
#
#	deploy/registry-publish.sh SERVER_JSON [BUNDLE.mcpb]
#
# A bundle's entry needs the SHA-256 of the bundle, known only once it is
# packed: this fills it in, then runs mcp-publisher (login first, e.g.
# mcp-publisher login github-oidc in CI). Set DRY_RUN=1 to print the
# server.json instead of publishing it.
set -eu
server=$1 bundle=${2:-}
out=$(mktemp -d)/server.json
if [ -n "$bundle" ]; then
	sha=$(sha256sum "$bundle" | cut -d' ' -f1)
	jq --arg sha "$sha" '(.packages[]? | select(.registryType == "mcpb")) |= . + {fileSha256: $sha}' "$server" >"$out"
else
	cp "$server" "$out"
fi
if [ -n "${DRY_RUN:-}" ]; then
	cat "$out"
	exit 0
fi
cd "$(dirname "$out")" && mcp-publisher publish
