#!/usr/bin/env bash
# Reports what a newer TypeScript Agent SDK's sdk.d.ts adds, removes and
# changes against the pinned one's, in what runtime/claude mirrors: Options
# members, Query methods, exported functions, hook events, control
# subtypes, start-up failure reasons, then every other declaration. A bump
# of the pins starts from this list.
#
#   .ci/sdk-diff.sh 0.3.333          # the pinned SDK, then 0.3.333
#   .ci/sdk-diff.sh 0.3.333 0.3.330  # 0.3.330, then 0.3.333
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: .ci/sdk-diff.sh NEW-VERSION [OLD-VERSION]" >&2
	exit 2
fi
old=$(.ci/install-agent-sdk.sh ${2:+"$2"})
new=$(.ci/install-agent-sdk.sh "$1")
go run ./internal/sdkdts/sdkdiff "$old" "$new"
