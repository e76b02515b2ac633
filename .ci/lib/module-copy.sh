# Sourced by the install scripts that build a Go program from a copy of
# its own module under the cache folder (.ci/install-hydra.sh,
# .ci/install-jaeger.sh): built there, with its own go.mod and go.sum, it
# brings nothing into this repository's module graph, and its own replace
# directives apply, which they would not in a module that merely required
# it.

# module_copy MODULE VERSION DIR: downloads MODULE@VERSION (outside any
# module, so that no go.mod or go.sum is touched), copies its source into
# a new writable folder under DIR, and prints that folder's path. The
# caller builds there and removes it.
module_copy() {
	local module=$1 version=$2 dir=$3 src work
	mkdir -p "$dir"
	src=$(cd "$dir" && GOFLAGS= go mod download -json "$module@$version" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$src" ]; then
		echo "go mod download found no source for $module@$version" >&2
		return 1
	fi
	work=$(mktemp -d "$dir/build.XXXXXX")
	cp -R "$src/." "$work"
	chmod -R u+w "$work"
	echo "$work"
}
