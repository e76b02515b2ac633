#!/usr/bin/env bash
# Checks examples/conformance against MCP peers no one here wrote:
#  1. the official conformance suite (@modelcontextprotocol/conformance) over
#     Streamable HTTP, at two versions: 0.1.16 (revisions up to 2025-11-25)
#     and 0.2.0-alpha.12 (which adds 2026-07-28 and its extensions), each
#     compared with its own committed baseline of expected failures, so that
#     a regression or a newly passing scenario both fail; the skills
#     extension's scenarios (sep-2640-*) must pass with every check a
#     success, none skipped, and again against a server that pages every
#     list one item at a time (-page-size 1), with tools-list and
#     prompts-list;
#  2. the MCP inspector's CLI (@modelcontextprotocol/inspector-cli) over stdio,
#     listing tools and resources, calling a tool, reading a resource and
#     getting a prompt.
# Node 22 and the packages are installed with npm, at pinned versions, into
# ${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/conformance, outside the repository; the
# install is skipped when they are already there. Needs go, npm and bash.
# Exits non-zero on any failure.
set -euo pipefail

NODE_VERSION=22.23.3
CONFORMANCE_VERSION=0.1.16
CONFORMANCE_NEXT_VERSION=0.2.0-alpha.12 # installed as the npm alias conformance-next
INSPECTOR_CLI_VERSION=1.0.3

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/conformance"
modules="$cache/node_modules"

log() { printf 'conformance.sh: %s\n' "$*" >&2; }

# installed PKG prints the version of an installed npm package, or nothing.
installed() {
	local pj="$modules/$1/package.json"
	[[ -f $pj ]] && sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$pj" | head -n 1
}

if [[ $(installed node) != "$NODE_VERSION" ||
	$(installed @modelcontextprotocol/conformance) != "$CONFORMANCE_VERSION" ||
	$(installed conformance-next) != "$CONFORMANCE_NEXT_VERSION" ||
	$(installed @modelcontextprotocol/inspector-cli) != "$INSPECTOR_CLI_VERSION" ]]; then
	log "installing node@$NODE_VERSION, conformance@$CONFORMANCE_VERSION and @$CONFORMANCE_NEXT_VERSION, inspector-cli@$INSPECTOR_CLI_VERSION into $cache"
	mkdir -p "$cache"
	npm install --prefix "$cache" --save-exact --no-audit --no-fund --loglevel=error \
		"node@$NODE_VERSION" \
		"@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
		"conformance-next@npm:@modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION" \
		"@modelcontextprotocol/inspector-cli@$INSPECTOR_CLI_VERSION" >&2
fi
node="$modules/node/bin/node"
[[ $("$node" --version) == "v$NODE_VERSION" ]] || { log "$node is not Node $NODE_VERSION"; exit 1; }

conformance="$modules/@modelcontextprotocol/conformance/dist/index.js"
conformance_next="$modules/conformance-next/dist/index.js"
inspector="$modules/@modelcontextprotocol/inspector-cli/build/index.js"

# The scenarios that must pass. A baseline lists the ones expected to fail;
# any other scenario must pass too, but these are checked by name as well, so
# that moving one into a baseline cannot hide its failure.
required=(server-initialize ping tools-list tools-call-simple-text tools-call-image
	tools-call-audio tools-call-embedded-resource tools-call-mixed-content tools-call-error
	tools-call-with-progress tools-call-with-logging json-schema-2020-12 dns-rebinding-protection
	tools-call-sampling tools-call-elicitation elicitation-sep1034-defaults elicitation-sep1330-enums
	resources-list resources-read-text resources-read-binary resources-templates-read
	resources-subscribe resources-unsubscribe prompts-list prompts-get-simple prompts-get-with-args
	prompts-get-embedded-resource prompts-get-with-image completion-complete)
# The skills extension's scenarios, whose every check must succeed: the
# suite counts a skipped check as passed.
skills=(sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory)
# And those of revision 2026-07-28, which only the newer suite has.
required_next=(server-stateless http-header-validation
	http-custom-header-server-validation input-required-result-basic-elicitation
	input-required-result-basic-sampling input-required-result-basic-list-roots
	input-required-result-request-state input-required-result-multiple-input-requests
	input-required-result-multi-round input-required-result-missing-input-response
	input-required-result-result-type input-required-result-unsupported-methods
	input-required-result-tampered-state input-required-result-capability-check
	input-required-result-ignore-extra-params input-required-result-validate-input
	input-required-result-non-tool-request sep-2164-resource-not-found caching
	tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
	tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-required-task-error
	tasks-mrtr-composition "${skills[@]}")

tmp=$(mktemp -d)
server_pid=
cleanup() {
	if [[ -n $server_pid ]]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

status=0

# 1. The conformance suite over Streamable HTTP.
log "building examples/conformance"
go -C "$repo/examples/conformance" build -o "$tmp/conformance-server" .

# start_server LOG [ARG...] starts the conformance server on a free port
# with ARGs, its log in LOG, and sets server_pid, and url once the server
# says where it serves; it exits if that takes more than 10 s.
start_server() {
	local logfile=$1
	shift
	"$tmp/conformance-server" -http 127.0.0.1:0 "$@" 2>"$logfile" &
	server_pid=$!
	url=
	for _ in $(seq 100); do
		url=$(sed -n 's/.*msg="serving MCP over Streamable HTTP" url=\(http:[^ ]*\).*/\1/p' "$logfile")
		[[ -n $url ]] && return
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 0.1
	done
	log "the server${*:+ with $*} did not start:"
	cat "$logfile" >&2
	exit 1
}
start_server "$tmp/server.log"
# suite NAME JS BASELINE REQUIRED... runs one version of the suite against
# the server and compares it with its baseline.
suite() {
	local name=$1 js=$2 baseline=$3 out="$tmp/suite-$1"
	shift 3
	log "running the conformance suite $name against $url"
	if "$node" "$js" server --url "$url" --suite all \
		--expected-failures "$baseline" -o "$out.results" >"$out.out" 2>&1; then
		sed -n '/=== SUMMARY ===/,$p' "$out.out"
	else
		cat "$out.out"
		log "FAIL: the conformance suite $name disagrees with ${baseline#"$repo/"}; the checks that did not succeed:"
		"$node" -e '
			const fs = require("fs"), path = require("path"), dir = process.argv[1];
			for (const d of fs.readdirSync(dir).sort()) {
				for (const c of JSON.parse(fs.readFileSync(path.join(dir, d, "checks.json"), "utf8"))) {
					if (c.status === "FAILURE" || c.status === "WARNING") console.log(`${d}: ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
				}
			}' "$out.results"
		status=1
	fi
	local s
	for s in "$@"; do
		if ! grep -q "✓ $s: " "$out.out"; then
			log "FAIL: required scenario $s did not pass in the suite $name"
			status=1
		fi
	done
}
suite "$CONFORMANCE_VERSION" "$conformance" "$repo/.ci/conformance-baseline.yml" "${required[@]}"
suite "$CONFORMANCE_NEXT_VERSION" "$conformance_next" "$repo/.ci/conformance-baseline-next.yml" "${required[@]}" "${required_next[@]}"
log "the skills scenarios, every check:"
"$node" "$repo/.ci/lib/all-checks-pass.js" "$tmp/suite-$CONFORMANCE_NEXT_VERSION.results" "conformance.sh" "${skills[@]}" || status=1
kill "$server_pid"
if wait "$server_pid"; then :; else
	log "FAIL: the server did not exit cleanly on SIGTERM:"
	cat "$tmp/server.log" >&2
	status=1
fi
server_pid=

# 1b. The lists a page at a time: the same server with -page-size 1, so
# that skills/list, resources/directory/read, tools/list and prompts/list
# answer one item per page and the suite follows their cursors.
start_server "$tmp/server-paged.log" -page-size 1
log "running the skills, tools-list and prompts-list scenarios against $url, one item per page"
for s in "${skills[@]}" tools-list prompts-list; do
	"$node" "$conformance_next" server --url "$url" --scenario "$s" -o "$tmp/paged.results" >"$tmp/paged-$s.out" 2>&1 || {
		cat "$tmp/paged-$s.out"
		status=1
	}
done
"$node" "$repo/.ci/lib/all-checks-pass.js" "$tmp/paged.results" "conformance.sh -page-size 1" "${skills[@]}" tools-list prompts-list || status=1
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=

# 2. The MCP inspector's CLI over stdio. It finds its own package.json
# relative to the working directory, so it runs from its build directory.
log "running the MCP inspector CLI over stdio"
inspect() {
	(cd "$(dirname "$inspector")" && "$node" "$inspector" go -C "$repo/examples/conformance" run . "$@")
}
want_tools="test_sampling test_elicitation test_elicitation_sep1034_defaults test_elicitation_sep1330_enums test_input_required_result_elicitation test_input_required_result_sampling test_input_required_result_list_roots test_input_required_result_request_state test_input_required_result_tampered_state test_input_required_result_multiple_inputs test_input_required_result_multi_round test_input_required_result_capabilities test_missing_capability test_streaming_elicitation test_logging_tool test_x_mcp_header test_trigger_tool_change test_trigger_prompt_change test_simple_text test_image_content test_audio_content test_embedded_resource test_multiple_content_types test_tool_with_logging test_error_handling test_tool_with_progress json_schema_2020_12_tool greet slow_compute failing_job protocol_error_job confirm_delete multi_input test_tool_with_task"
# expect WHAT WANT EXPR ARGS... runs the inspector with ARGS and checks that
# EXPR, JavaScript over its parsed answer r, prints WANT.
expect() {
	local what=$1 want=$2 expr=$3 got
	shift 3
	if ! got=$(inspect "$@" | "$node" -e "const r = JSON.parse(require('fs').readFileSync(0, 'utf8')); console.log($expr);"); then
		log "FAIL: inspector $what failed"
		status=1
	elif [[ $got != "$want" ]]; then
		log "FAIL: inspector $what: got [$got], want [$want]"
		status=1
	fi
}
expect tools/list "$want_tools" 'r.tools.map((t) => t.name).join(" ")' --method tools/list
expect tools/call '{"content":[{"type":"text","text":"Ada lives at 1 Main St, Springfield"}]}' 'JSON.stringify(r)' \
	--method tools/call --tool-name json_schema_2020_12_tool \
	--tool-arg name=Ada --tool-arg 'address={"street":"1 Main St","city":"Springfield"}'
expect resources/list "test://static-text test://static-binary test://watched-resource skill://code-review/SKILL.md skill://release-notes/SKILL.md skill://status/today/SKILL.md skill://team/billing/refunds/SKILL.md" \
	'r.resources.map((x) => x.uri).join(" ")' --method resources/list
expect resources/read '{"contents":[{"uri":"test://template/42/data","mimeType":"application/json","text":"{\"data\":\"Data for ID: 42\",\"id\":\"42\",\"templateTest\":\"true\"}"}]}' \
	'JSON.stringify(r)' --method resources/read --uri test://template/42/data
expect prompts/get '{"messages":[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='"'"'Ada'"'"', arg2='"'"'Lovelace'"'"'"}}]}' \
	'JSON.stringify(r)' --method prompts/get --prompt-name test_prompt_with_arguments --prompt-args arg1=Ada arg2=Lovelace

if ((status == 0)); then
	log "PASS: conformance suite as the baseline expects; inspector CLI over stdio lists tools and resources, calls a tool, reads a resource and gets a prompt"
fi
exit "$status"
