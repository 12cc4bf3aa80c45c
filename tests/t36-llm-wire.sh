#!/bin/sh
# Answers as servers send them besides the usual stream (the stand-in's
# scenarios of the same names): a whole JSON answer to a request for a
# stream, in each protocol, read with its usage and its stop reason, and
# refused over the 8 MiB cap; an NDJSON stream whose last line has no
# newline.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm wire" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
export PATCHREVIEW_CACHE=no
reviewed() { exit_is 0 && under '> +	if (skb->len > sizeof(frame)) {' '^STANDIN-ANCHORED'; }
failed() {
	exit_is 0 && draft_has 'trailing whitespace' && note_is "model review failed: $1"
}

for proto in openai anthropic ollama; do
	use_backend $proto
	PATCHREVIEW_MODEL=scenario:ok-whole run_pr < "$NET"
	check "$proto: a whole answer to a request for a stream is read" reviewed
	check "$proto: ... with the tokens it used" \
		err_has '^patchreview: model scenario:ok-whole: [1-9][0-9]* prompt \+ [1-9][0-9]* completion tokens'
	PATCHREVIEW_MODEL=scenario:length-whole run_pr < "$NET"
	check "$proto: a whole answer cut at the token limit says so" failed "answer truncated (max_tokens)"
	PATCHREVIEW_MODEL=scenario:huge-whole run_pr < "$NET"
	check "$proto: a whole answer over 8 MiB is refused with a note" failed "answer larger than 8 MiB"
done

PATCHREVIEW_MODEL=scenario:open-end run_pr < "$NET"
check "ollama: the stream's last line is read without its newline" \
	sh -c "[ $status -eq 0 ] && ! grep -q 'model review failed' '$T/out'"
