#!/usr/bin/env bash
# Builds the pinned ORY Hydra (the OAuth 2.0 authorization server the
# authorization tests run against) into the cache folder, once, and prints
# the path of its binary.
#
# Hydra is built inside a copy of its own module, with its own go.mod and
# go.sum, under the cache: nothing of it enters this repository's module
# graph. Hydra's go.mod replaces hydra-client-go with a directory that its
# module zip does not ship (a nested module), so the copy takes the
# released hydra-client-go of the version Hydra requires instead. The
# in-memory database (DSN=memory) is SQLite, hence cgo and the sqlite tags,
# as Hydra's own Makefile builds it.
set -euo pipefail
. "$(dirname "$0")/lib/module-copy.sh"

version=v2.3.0
cache="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}"
dir="$cache/hydra-$version"
bin="$dir/hydra"

# The version is read whole before it is matched: with pipefail, grep -q
# closing the pipe early would fail the check and rebuild every time.
installed() {
	local out
	out=$("$bin" version 2>/dev/null) || return 1
	[[ $out =~ Version:\ +$version($'\n'|$) ]]
}

if ! installed; then
	work=$(module_copy github.com/ory/hydra/v2 "$version" "$dir")
	trap 'rm -rf "$work"' EXIT
	started=$SECONDS
	(
		cd "$work"
		go mod edit -dropreplace github.com/ory/hydra-client-go/v2
		GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=1 go build -trimpath \
			-tags sqlite,sqlite_omit_load_extension \
			-ldflags "-s -w -X github.com/ory/hydra/v2/driver/config.Version=$version" \
			-o "$bin.tmp" .
	) >&2
	mv "$bin.tmp" "$bin"
	echo "install-hydra: built Hydra $version in $((SECONDS - started))s" >&2
fi
installed || { echo "install-hydra: $bin does not report version $version" >&2; exit 1; }
echo "install-hydra: Hydra $version at $bin" >&2
echo "$bin"
