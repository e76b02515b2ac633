#!/usr/bin/env bash
# Builds the pinned Jaeger (the trace backend the OpenTelemetry tests send
# their spans to and read them back from) into the cache folder, once, and
# prints the path of its binary.
#
# Jaeger is built inside a copy of its own module, with its own go.mod and
# go.sum, under the cache: nothing of it enters this repository's module
# graph, and its own replace directive (sarama) applies, which it would not
# in a module that merely requires Jaeger (go get -tool). The module's v1
# tags carry the Jaeger v2 binary (cmd/jaeger, built on the OpenTelemetry
# Collector): v1.76.0 is Jaeger v2.13.0. It is built without the "ui" tag:
# the tests need its query API, not the web UI's assets.
set -euo pipefail
. "$(dirname "$0")/lib/module-copy.sh"

version=v1.76.0
cache="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}"
dir="$cache/jaeger-$version"
bin="$dir/jaeger"

# The version is read whole before it is matched: with pipefail, grep -q
# closing the pipe early would fail the check and rebuild every time.
installed() {
	local out
	out=$("$bin" version 2>/dev/null) || return 1
	[[ $out == *"\"gitVersion\":\"$version\""* || $out == *"\"gitVersion\": \"$version\""* ]]
}

if ! installed; then
	work=$(module_copy github.com/jaegertracing/jaeger "$version" "$dir")
	trap 'rm -rf "$work"' EXIT
	started=$SECONDS
	(
		cd "$work"
		GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath \
			-ldflags "-s -w -X github.com/jaegertracing/jaeger/internal/version.latestVersion=$version" \
			-o "$bin.tmp" ./cmd/jaeger
	) >&2
	mv "$bin.tmp" "$bin"
	echo "install-jaeger: built Jaeger $version in $((SECONDS - started))s" >&2
fi
installed || { echo "install-jaeger: $bin does not report version $version" >&2; exit 1; }
echo "install-jaeger: Jaeger $version at $bin" >&2
echo "$bin"
