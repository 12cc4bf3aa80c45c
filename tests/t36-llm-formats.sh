#!/bin/sh
# The machine-readable outputs with a model (issue 14), against the
# stand-in server: what the model cost in --format json, where its findings
# are, its own column in b4-check, its failures in the lines format, and
# its findings counting for --fail-on.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/llm-lib.sh"
command -v python3 >/dev/null || { skip "llm formats" "python3 missing"; exit 0; }
start_server
NET=$MAILS/llm-net.eml
use_backend openai
export PATCHREVIEW_MODEL=scenario:ok

run_pr --format json < "$NET"
check "json: valid with model findings" valid
check "json: the model's backend, name, tokens and time; not cached" \
	jsonq 'p["model"]["backend"] == "openai" and p["model"]["name"] == "scenario:ok" and p["model"]["prompt_tokens"] > 0 and p["model"]["completion_tokens"] > 0 and 0 <= p["model"]["seconds"] < 10 and not p["model"]["cached"] and not p["model"]["failed"]'
check "json: the anchored model finding on its added line, text cleaned" \
	jsonq 'any(x["source"] == "model" and x["kind"] == "added" and x["line"] == 43 and x["file"] == "net/bar/bar_rx.c" and x["text"].startswith("STANDIN-ANCHORED") and "\x1b" not in x["text"] for x in f)'
check "json: the unanchored one about the whole patch, first" \
	jsonq 'f[0]["source"] == "model" and f[0]["kind"] is None and f[0]["quote"] is None and f[0]["text"].startswith("STANDIN-GENERAL")'
check "json: built-in findings beside the model's" jsonq 'any(x["source"] == "trailing-whitespace" for x in f)'

run_pr --format json < "$NET"
check "json: a cached review: cached, with what it cost when asked" \
	jsonq 'p["model"]["cached"] and p["model"]["prompt_tokens"] > 0 and p["model"]["completion_tokens"] > 0 and not p["model"]["estimated"]'

PATCHREVIEW_MODEL=scenario:anchors run_pr --no-cache --format json < "$MAILS/llm-context.eml"
check "json: a removed line has its old-side number only" \
	jsonq 'any(x["kind"] == "removed" and x["line"] is None and x["old_line"] > 0 and x["quote"].startswith("-") for x in f)'
check "json: a context line has both numbers" \
	jsonq 'any(x["kind"] == "context" and x["line"] > 0 and x["old_line"] > 0 and x["text"].startswith("ANCHOR-CONTEXT") for x in f)'
check "json: a commit message line has no file and no number" \
	jsonq 'any(x["kind"] == "message" and x["file"] is None and x["line"] is None and x["text"].startswith("ANCHOR-MESSAGE") for x in f)'
check "json: anchors: valid" valid

run_pr --format b4-check < "$NET"
check "b4-check: the checks and the model in their own columns" \
	jsonq '[x["tool"] for x in d] == ["patchreview", "patchreview-model"] and d[0]["status"] == "warn" and d[0]["summary"] == "1 nit"'
check "b4-check: the model's column: warn, counts and cost" \
	jsonq 'd[1]["status"] == "warn" and d[1]["summary"] == "1 warning, 1 nit; cached review" and "STANDIN-ANCHORED" in d[1]["details"] and "STANDIN" not in d[0]["details"]'

PATCHREVIEW_MODEL=scenario:401 run_pr --no-cache --format b4-check < "$NET"
check "b4-check: a failed model review fails its column only, saying why" \
	jsonq 'd[0]["status"] == "warn" and d[1]["status"] == "fail" and d[1]["summary"] == "model review failed: HTTP 401 (check the API key)"'
PATCHREVIEW_MODEL=scenario:401 run_pr --no-cache --format json < "$NET"
check "json: a failed model review: failed, and the note" \
	jsonq 'p["model"]["failed"] and p["notes"] == ["model review failed: HTTP 401 (check the API key)"]'
PATCHREVIEW_MODEL=scenario:401 run_pr --no-cache --format lines < "$NET"
check "lines: a failed model review is a warning line, and stderr stays empty" \
	sh -c "[ $status -eq 0 ] && grep -qx 'WARNING: model review failed: HTTP 401 (check the API key)' '$T/out' && [ ! -s '$T/err' ]"

run_pr --format lines < "$NET"
check "lines: the model's findings too, and no cost line on stderr" \
	sh -c "grep -q '^net/bar/bar_rx.c:43: WARNING: STANDIN-ANCHORED' '$T/out' && grep -q '^CHECK: STANDIN-GENERAL' '$T/out' && [ ! -s '$T/err' ]"
run_pr --fail-on warning < "$NET"
check "--fail-on warning: the model's warning counts (the checks found a nit)" test "$status" -eq 5
PATCHREVIEW_BACKEND=none run_pr --fail-on warning < "$NET"
check "--fail-on warning without the model: exit 0" test "$status" -eq 0
PATCHREVIEW_MODEL=scenario:401 run_pr --no-cache --strict --fail-on nit < "$NET"
check "--strict wins over --fail-on: exit 4" test "$status" -eq 4
