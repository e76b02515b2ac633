#!/bin/sh
# Packs a server's binary and the manifest.json that mcpgen generated into
# an MCP bundle with the mcpb command (npm @anthropic-ai/mcpb):
#
#	deploy/mcpb-pack.sh BINARY MANIFEST OUTPUT.mcpb
#
# The manifest says where the binary goes (server.entry_point); mcpb
# validates the manifest before it packs.
set -eu
binary=$1 manifest=$2 output=$3
mcpb=${MCPB:-mcpb}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
entry=$(sed -n 's/^[[:space:]]*"entry_point": "\(.*\)",*$/\1/p' "$manifest")
mkdir -p "$dir/$(dirname "$entry")"
cp "$binary" "$dir/$entry"
cp "$manifest" "$dir/manifest.json"
"$mcpb" validate "$dir/manifest.json"
"$mcpb" pack "$dir" "$output"
