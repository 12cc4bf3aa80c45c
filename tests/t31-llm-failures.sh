#!/bin/sh
# The model reviewer when things go wrong: every failure still writes the
# draft with the built-in findings and one bracketed note saying why, exit 0
# (4 with --strict); retries happen only where they help, and wait as told.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm failures" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
export PATCHREVIEW_CACHE=no

# A full draft despite the failure: quoted mail, built-in finding, no model text.
draft_written() {
	exit_is 0 && draft_has '^On .* wrote:$' && draft_has "trailing whitespace" &&
		draft_lacks "STANDIN" && draft_lacks "^Assisted-by:"
}
# failing NAME NOTE: the draft is written with NOTE, and stderr says the same.
failing() {
	check "$1: the draft is still written" draft_written
	check "$1: a note says why" note_is "model review failed: $2"
	check "$1: stderr says the same" grep -q -F -- "patchreview: model review failed: $2" "$T/err"
}
reviewed() { exit_is 0 && under '> +	if (skb->len > sizeof(frame)) {' '^STANDIN-ANCHORED'; }

use_backend openai

PATCHREVIEW_MODEL=scenario:401 run_pr < "$NET"
failing "401" "HTTP 401 (check the API key)"
check "401: not retried" sent 1
PATCHREVIEW_MODEL=scenario:401 run_pr --strict < "$NET"
check "401 with --strict: exit 4, draft still written" \
	sh -c "[ $status -eq 4 ] && grep -q 'trailing whitespace' '$T/out'"

n=$(requests)
t0=$(now_s)
PATCHREVIEW_MODEL=scenario:429 run_pr < "$NET"
took=$(elapsed_since "$t0")
check "429: reviewed after a retry" reviewed
check "429: two requests" sent $((n + 2))
check "429: waited the Retry-After second (took $took s)" at_least "$took" 1.0

n=$(requests)
t0=$(now_s)
PATCHREVIEW_MODEL=scenario:429-always run_pr < "$NET"
took=$(elapsed_since "$t0")
failing "429 past the retries" "rate limited (429) after 1 retry: Rate limit reached"
check "429 past the retries: retries as configured" sent $((n + 2))
check "429 past the retries: waited (took $took s)" at_least "$took" 1.0

n=$(requests)
PATCHREVIEW_MODEL=scenario:500-then-ok run_pr < "$NET"
check "500 then ok: reviewed" reviewed
check "500 then ok: two requests" sent $((n + 2))

n=$(requests)
PATCHREVIEW_MODEL=scenario:slow PATCHREVIEW_TIMEOUT=1 run_pr < "$NET"
failing "slower than the timeout" "timed out after 1 s"
check "slower than the timeout: not retried" sent $((n + 1))

PATCHREVIEW_MODEL=scenario:truncated run_pr < "$NET"
failing "truncated stream" "connection closed mid-answer"

n=$(requests)
PATCHREVIEW_MODEL=scenario:invalid-json run_pr < "$NET"
check "invalid JSON: reviewed after one repair request" reviewed
check "invalid JSON: the repair shows the model its answer" \
	logq "len(r) == $n + 2 and [m['role'] for m in b['messages']] == ['system', 'user', 'assistant', 'user'] and b['messages'][2]['content'].startswith('Sure!') and 'JSON' in u"

n=$(requests)
PATCHREVIEW_MODEL=scenario:garbage run_pr < "$NET"
check "garbage: the draft is still written" sh -c "[ $status -eq 0 ] && grep -q 'trailing whitespace' '$T/out'"
check "garbage: a note says why" note_is "model review failed: answer was not valid JSON"
check "garbage: one repair, no more" sent $((n + 2))
check "garbage: the model's text as a general comment" draft_has "GARBAGE-ANSWER: I would rather talk"
PATCHREVIEW_MODEL=scenario:garbage run_pr --strict < "$NET"
check "garbage with --strict: exit 4" exit_is 4

PATCHREVIEW_MODEL=scenario:length run_pr < "$NET"
failing "finish_reason length" "answer truncated (max_tokens)"

n=$(requests)
PATCHREVIEW_MODEL=scenario:schema-reject run_pr < "$NET"
check "schema rejected: reviewed with json_object instead" reviewed
check "schema rejected: json_schema, then json_object" \
	logq "len(r) == $n + 2 and r[-2]['body']['response_format']['type'] == 'json_schema' and b['response_format'] == {'type': 'json_object'}"

n=$(requests)
PATCHREVIEW_MODEL=scenario:reasoning run_pr < "$NET"
check "reasoning model: reviewed after two adjusted requests" reviewed
check "reasoning model: max_completion_tokens for max_tokens, then no temperature" \
	logq "len(r) == $n + 3 and r[-3]['body']['max_tokens'] == 4096 and r[-2]['body']['max_completion_tokens'] == 4096 and r[-2]['body']['temperature'] == 0 and 'max_tokens' not in b and 'temperature' not in b and b['response_format']['type'] == 'json_schema'"
n=$(requests)
PATCHREVIEW_MODEL=scenario:bad-request run_pr < "$NET"
failing "another 400" "HTTP 400: This model's maximum context length is 8192 tokens"
check "another 400: reported at once, not sent again" sent $((n + 1))

# A complete stream ends the request at once, though the server holds the connection.
for proto in openai anthropic ollama; do
	use_backend $proto
	t0=$(now_s)
	PATCHREVIEW_MODEL=scenario:linger run_pr < "$NET"
	took=$(elapsed_since "$t0")
	check "$proto: a complete stream on a connection held open is read at once (took $took s)" \
		sh -c "[ $status -eq 0 ] && grep -q STANDIN-ANCHORED '$T/out' && awk 'BEGIN { exit !($took < 5) }'"
done

# The same failures through the other protocols.
use_backend anthropic
n=$(requests)
PATCHREVIEW_MODEL=scenario:529 run_pr < "$NET"
check "anthropic 529 overloaded: reviewed after a retry" reviewed
check "anthropic 529 overloaded: two requests" sent $((n + 2))
n=$(requests)
PATCHREVIEW_MODEL=scenario:overloaded run_pr < "$NET"
check "anthropic overloaded_error inside the stream: reviewed after a retry" reviewed
check "anthropic overloaded_error inside the stream: two requests" sent $((n + 2))
n=$(requests)
PATCHREVIEW_MODEL=scenario:overloaded-always run_pr < "$NET"
failing "anthropic overloaded past the retries" "the server reported an error after 1 retry: Overloaded"
check "anthropic overloaded past the retries: retries as configured" sent $((n + 2))
PATCHREVIEW_MODEL=scenario:401 run_pr < "$NET"
failing "anthropic 401" "HTTP 401 (check the API key)"
PATCHREVIEW_MODEL=scenario:length run_pr < "$NET"
failing "anthropic max_tokens" "answer truncated (max_tokens)"
PATCHREVIEW_MODEL=scenario:truncated run_pr < "$NET"
failing "anthropic truncated stream" "connection closed mid-answer"

use_backend ollama
n=$(requests)
PATCHREVIEW_MODEL=scenario:schema-reject run_pr < "$NET"
check "ollama schema rejected: format json instead" \
	sh -c "[ $status -eq 0 ] && grep -q STANDIN-ANCHORED '$T/out'"
check "ollama schema rejected: a schema, then \"json\"" \
	logq "len(r) == $n + 2 and isinstance(r[-2]['body']['format'], dict) and b['format'] == 'json'"
PATCHREVIEW_MODEL=scenario:length run_pr < "$NET"
failing "ollama done_reason length" "answer truncated (max_tokens)"
PATCHREVIEW_MODEL=scenario:truncated run_pr < "$NET"
failing "ollama truncated stream" "connection closed mid-answer"
PATCHREVIEW_MODEL=scenario:500-then-ok run_pr < "$NET"
check "ollama 500 then ok: reviewed" reviewed

# No server at all: a port nothing listens on.
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok
export PATCHREVIEW_URL=http://127.0.0.1:$(closed_port)/v1
PATCHREVIEW_RETRIES=0 run_pr < "$NET"
failing "no server" "connection refused"
PATCHREVIEW_RETRIES=0 run_pr --strict < "$NET"
check "no server with --strict: exit 4" exit_is 4
t0=$(now_s)
PATCHREVIEW_RETRIES=2 run_pr < "$NET"
took=$(elapsed_since "$t0")
check "no server: retried with backoff (took $took s)" at_least "$took" 1.5
PATCHREVIEW_RETRIES=0 run_pr --quiet < "$NET"
check "no server: nothing else on stderr" sh -c "[ \$(wc -l < '$T/err') -eq 1 ]"
