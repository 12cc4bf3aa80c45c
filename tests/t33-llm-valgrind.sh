#!/bin/sh
# The release build under valgrind through the model reviewer's paths:
# each protocol, the verify pass, the repair retry, failures, the cache
# and --explain-prompt. No errors, no definite leaks.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v valgrind >/dev/null || { skip "llm valgrind" "valgrind missing"; exit 0; }
command -v python3 >/dev/null || { skip "llm valgrind" "python3 missing"; exit 0; }
start_server
BIN=$ROOT/patchreview

# grind NAME [OPTIONS]: runs the release binary on llm-net.eml under valgrind.
grind() {
	name=$1
	shift
	G_SLICE=always-malloc G_DEBUG=gc-friendly valgrind -q --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite \
		"$BIN" "$@" < "$MAILS/llm-net.eml" > "$T/out" 2> "$T/vg"
	st=$?
	if [ "$st" -eq 0 ] && ! grep -q "==[0-9]*==" "$T/vg" && grep -q '^On .* wrote:$\|^Prompt:' "$T/out"; then
		pass "valgrind: $name"
	else
		fail "valgrind: $name" "exit $st: $(grep -m3 "==[0-9]*==" "$T/vg" | tr '\n' ' ')"
	fi
}

use_backend openai
PATCHREVIEW_MODEL=scenario:ok PATCHREVIEW_VERIFY=yes grind "openai, verify, cache write"
PATCHREVIEW_MODEL=scenario:ok PATCHREVIEW_VERIFY=yes grind "openai, cache hit"
PATCHREVIEW_MODEL=scenario:invalid-json grind "repair retry"
PATCHREVIEW_MODEL=scenario:garbage grind "garbage answer"
PATCHREVIEW_MODEL=scenario:schema-reject grind "json_schema rejected"
PATCHREVIEW_MODEL=scenario:401 grind "401"
PATCHREVIEW_MODEL=scenario:ok PATCHREVIEW_API_KEY_COMMAND="printf %s sk-cmd" grind "api_key_command" --no-cache
PATCHREVIEW_MODEL=scenario:ok grind "explain-prompt" --explain-prompt
use_backend anthropic
PATCHREVIEW_MODEL=scenario:truncated grind "anthropic, truncated stream"
PATCHREVIEW_MODEL=scenario:ok grind "anthropic"
use_backend ollama
PATCHREVIEW_MODEL=scenario:length grind "ollama, length"
PATCHREVIEW_MODEL=scenario:ok grind "ollama"
