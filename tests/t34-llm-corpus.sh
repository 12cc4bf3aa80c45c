#!/bin/sh
# Every real patch mail of the corpus through the model path (stand-in
# server, the "ok" answer, ASan+UBSan build): the prompt is built, the answer
# anchored and the draft written, whatever shape the patch has.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
have_corpus || exit 0
command -v python3 >/dev/null || { skip "llm corpus" "python3 missing"; exit 0; }
start_server
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok PATCHREVIEW_CACHE=no
for mail in "$CORPUS"/*.eml "$CORPUS"/*.mbox; do
	name=$(basename "$mail")
	before=$(requests)
	run_pr < "$mail"
	if [ "$status" -eq 1 ]; then
		check "llm corpus: $name (no patch, model not asked)" test "$(requests)" -eq "$before"
	elif [ "$status" -eq 0 ] && ! grep -q "model review failed" "$T/err"; then
		pass "llm corpus: $name"
	else
		fail "llm corpus: $name" "exit $status: $(head -c 300 "$T/err")"
	fi
done
