#!/usr/bin/env bash
# Runs README.md's quickstart, exactly as written, in a fresh directory next
# to a link to this repository, and checks the answer the README promises.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
ln -s "$repo" "$work/mcpgen"
script=$(sed -n '/<!-- quickstart:begin -->/,/<!-- quickstart:end -->/p' "$repo/README.md" | sed '1,2d;$d' | sed '$d')
out=$(cd "$work" && bash -euo pipefail -c "$script")
want='{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"212.0°F"}]}}'
if [ "$out" != "$want" ]; then
	printf 'README quickstart printed:\n%s\nwant:\n%s\n' "$out" "$want" >&2
	exit 1
fi
echo "README quickstart: ok"
