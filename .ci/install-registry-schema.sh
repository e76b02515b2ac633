#!/usr/bin/env bash
# Downloads the MCP Registry's own Go module, pinned, into the Go module
# cache and prints the path of the server.json schema (2025-12-11) that the
# Registry validates a publication against. The tests validate the
# server.json files mcpgen generates against it.
set -euo pipefail

module=github.com/modelcontextprotocol/registry
version=v1.8.8
sum=h1:mnSk49TTqtyv53Mdjjf4OyL3UESocTybylLmSbZ/cic=
schema=internal/validators/schemas/2025-12-11.json

# Outside any module, so that the download touches no go.mod or go.sum;
# the go command checks the module against the checksum database.
info=$(cd "$(mktemp -d)" && GOFLAGS=-mod=mod go mod download -json "$module@$version")
dir=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
got=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p')
if [ "$got" != "$sum" ]; then
	echo "$module@$version: sum $got, want $sum" >&2
	exit 1
fi
if [ ! -f "$dir/$schema" ]; then
	echo "$module@$version has no $schema" >&2
	exit 1
fi
echo "$dir/$schema"
