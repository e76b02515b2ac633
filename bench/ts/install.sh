#!/usr/bin/env bash
# install.sh installs the TypeScript peers' npm packages into a cache folder
# outside the repository and copies the benchmark scripts next to them, so
# that node resolves the packages from there. It prints the folder.
#
#   MCPGEN_CACHE   cache root (default $HOME/.cache/mcpgen); the packages go
#                  into $MCPGEN_CACHE/bench.
#
# The versions are pinned by package.json and package-lock.json in this
# folder. Optional dependencies are omitted: they are the Agent SDK's native
# Claude Code binaries, which the benchmark replaces with its CLI stand-in.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/bench"
mkdir -p "$dest"
stamp="$dest/.installed-lock"
if [[ ! -d "$dest/node_modules" || ! -f "$stamp" ]] || ! cmp -s "$here/package-lock.json" "$stamp"; then
	cp "$here/package.json" "$here/package-lock.json" "$dest/"
	(cd "$dest" && npm ci --omit=optional --no-audit --no-fund --loglevel=error >&2)
	cp "$here/package-lock.json" "$stamp"
fi
cp "$here"/*.mjs "$dest/"
echo "$dest"
